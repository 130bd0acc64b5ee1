/**
 * What gas costs: the gas price and tip the node suggests, the next base fee, and
 * `eth_feeHistory` over accepted blocks, in coreth's bounds and words.
 */
import { RpcCode, RpcError } from '../../../../rpc/errors.js';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import type { EvmHeader } from '../../block/evm-block.js';
import type { EvmChain } from '../../evm-chain.js';
import { arity, blockNumberRef, float64s, hexOrDecimal64, type BlockNumberRef } from '../args.js';
import { q } from '../format.js';
import { suggestedTip } from '../tip-oracle.js';

/** coreth's fee history bounds: blocks per call, and how far below the head it reaches. */
const FEE_HISTORY_MAX_BLOCKS = 2048n;
const FEE_HISTORY_DEPTH = 25_000n;

/**
 * The blocks eth_feeHistory covers, as coreth's resolveBlockRange picks them: `pending` is the
 * head with one block fewer, tags are the head, a number past the head or deeper than the
 * history is refused; undefined when no block is left.
 */
function feeHistoryRange(
  chain: EvmChain,
  ref: BlockNumberRef,
  count: bigint,
): { oldest: bigint; newest: bigint } | undefined {
  let blocks = count > FEE_HISTORY_MAX_BLOCKS ? FEE_HISTORY_MAX_BLOCKS : count;
  if (ref.kind === 'tag' && ref.tag === 'pending') blocks--;
  if (blocks <= 0n) return undefined;
  const head = chain.latest.number;
  const depth = FEE_HISTORY_DEPTH - 1n;
  let newest: bigint;
  if (ref.kind === 'tag') newest = ref.tag === 'earliest' ? 0n : head;
  else if (head > depth && head - depth > ref.number)
    throw new RpcError(
      RpcCode.server,
      `request beyond historical limit: requested ${ref.number}, head ${head}`,
    );
  else if (ref.number > head)
    throw new RpcError(RpcCode.server, `request beyond head block: requested ${ref.number}, head ${head}`);
  else newest = ref.number;
  if (blocks > newest! + 1n) blocks = newest! + 1n;
  const oldest = newest! - blocks + 1n;
  const overage = head - oldest - depth;
  return { oldest: overage > 0n ? oldest + overage : oldest, newest: newest! };
}

/** A block's reward percentiles as coreth's processPercentiles: tips by gas used, thresholds truncated. */
function rewardPercentiles(chain: EvmChain, n: bigint, header: EvmHeader, percentiles: number[]): string[] {
  const txs = chain.store
    .txsOfBlock(n)
    .map((t) => ({ tip: t.effectiveGasPrice - header.baseFeePerGas, gas: t.gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  if (txs.length === 0) return percentiles.map(() => '0x0');
  let i = 0;
  let sum = txs[0].gas;
  return percentiles.map((p) => {
    const threshold = BigInt(Math.trunc((Number(header.gasUsed) * p) / 100));
    while (sum < threshold && i < txs.length - 1) sum += txs[++i].gas;
    return q(txs[i].tip);
  });
}

export function createFeeApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_gasPrice: (params) => (arity(params, 0), q(chain.nextBaseFee() + suggestedTip(chain))),
    eth_baseFee: (params) => (arity(params, 0), q(chain.nextBaseFee())),
    eth_maxPriorityFeePerGas: (params) => (arity(params, 0), q(suggestedTip(chain))),
    eth_feeHistory: (params) => {
      // A null is a value to both required arguments' decoders, not a missing one.
      arity(params, 3, 2);
      const count = hexOrDecimal64(params, 0);
      const ref = blockNumberRef(params, 1);
      const percentiles = float64s(params, 2);
      // coreth's checks, in its order and words (-32000, percentiles as Go's %f writes them).
      if (count === 0n) return { oldestBlock: '0x0', gasUsedRatio: null };
      const f = (p: number) => p.toFixed(6);
      if (percentiles.length > 100)
        throw new RpcError(RpcCode.server, 'invalid reward percentile: over the query limit 100');
      percentiles.forEach((p, i) => {
        if (p < 0 || p > 100) throw new RpcError(RpcCode.server, `invalid reward percentile: ${f(p)}`);
        if (i > 0 && p <= percentiles[i - 1])
          throw new RpcError(
            RpcCode.server,
            `invalid reward percentile: #${i - 1}:${f(percentiles[i - 1])} >= #${i}:${f(p)}`,
          );
      });
      const range = feeHistoryRange(chain, ref, count);
      if (!range) return { oldestBlock: '0x0', gasUsedRatio: null };
      const { oldest, newest } = range;
      const baseFees: string[] = [];
      const ratios: number[] = [];
      const rewards: string[][] = [];
      for (let n = oldest; n <= newest; n++) {
        const header = chain.headerAt(n)!.header;
        baseFees.push(q(header.baseFeePerGas));
        ratios.push(header.gasLimit > 0n ? Number(header.gasUsed) / Number(header.gasLimit) : 0);
        if (percentiles.length) rewards.push(rewardPercentiles(chain, n, header, percentiles));
      }
      // coreth's history has one base fee per block: it does not add the next block's, as geth does.
      const out: Record<string, unknown> = {
        oldestBlock: q(oldest),
        baseFeePerGas: baseFees,
        gasUsedRatio: ratios,
      };
      if (percentiles.length) out.reward = rewards;
      return out;
    },
  };
}
