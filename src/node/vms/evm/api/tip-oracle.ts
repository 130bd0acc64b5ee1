/**
 * The tip `eth_maxPriorityFeePerGas` suggests (and `eth_gasPrice` adds to the next base fee), as
 * coreth's and subnet-evm's gas price oracle (eth/gasprice, DefaultFullGPOConfig): the 40th
 * percentile of the effective tips of the transactions in the last 40 blocks, stopping at the
 * first block more than 80 seconds old, kept between 1 wei (ACP-176's minimum gas price) and
 * 150 gwei. A window without transactions answers the last suggestion (the minimum at start),
 * and one suggestion is kept per head.
 */
import type { EvmChain } from '../evm-chain.js';

const BLOCKS = 40n;
const PERCENTILE = 40;
const MAX_LOOKBACK_SECONDS = 80n;
const MIN_TIP = 1n;
const MAX_TIP = 150_000_000_000n;

const last = new WeakMap<EvmChain, { head: bigint; tip: bigint }>();

export function suggestedTip(chain: EvmChain): bigint {
  const head = chain.latest.number;
  const previous = last.get(chain);
  // Accepted blocks are final: a head number names one head, as coreth's head hash does.
  if (previous?.head === head) return previous.tip;
  const now = BigInt(chain.ctx.clock.nowSeconds());
  const tips: bigint[] = [];
  // coreth walks down to, but not including, head - 40 (and never reads genesis).
  for (let n = head; n > head - BLOCKS && n > 0n; n--) {
    const header = chain.headerAt(n)?.header;
    if (!header || header.timestamp + MAX_LOOKBACK_SECONDS < now) break;
    for (const t of chain.store.txsOfBlock(n)) tips.push(t.effectiveGasPrice - header.baseFeePerGas);
  }
  let tip = previous?.tip ?? MIN_TIP;
  if (tips.length > 0) {
    tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    tip = tips[Math.floor(((tips.length - 1) * PERCENTILE) / 100)];
  }
  if (tip > MAX_TIP) tip = MAX_TIP;
  if (tip < MIN_TIP) tip = MIN_TIP;
  last.set(chain, { head, tip });
  return tip;
}
