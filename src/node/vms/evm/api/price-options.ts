/**
 * coreth's `eth_suggestPriceOptions` (C-chain only; Subnet-EVM has none): the slow, normal and
 * fast fee choices a wallet shows (Core asks for them). Each is a tip and a fee cap of twice the
 * next block's base fee plus that tip, the tips from the suggested tip as coreth's
 * calculateFeeSpeeds derives them with its default `price-options-*` config.
 */
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { arity } from './args.js';
import { suggestedTip } from './tip-oracle.js';
import { q } from './format.js';

/** coreth's defaults: `price-options-slow-fee-percentage`, `…-fast-…`, `price-options-max-tip`. */
const SLOW_PERCENT = 95n;
const FAST_PERCENT = 105n;
const MAX_TIP = 20_000_000_000n; // 20 gwei
const MIN_TIP = 1n;

export interface FeeSpeeds {
  slow: bigint;
  normal: bigint;
  fast: bigint;
}

/**
 * coreth's calculateFeeSpeeds: normal is the estimate capped at the max tip, slow a share of
 * that (at least the minimum), fast a share of the uncapped estimate.
 */
export function feeSpeeds(estimate: bigint): FeeSpeeds {
  const capped = estimate < MAX_TIP ? estimate : MAX_TIP;
  const slow = (capped * SLOW_PERCENT) / 100n;
  return {
    slow: slow > MIN_TIP ? slow : MIN_TIP,
    normal: capped,
    fast: (estimate * FAST_PERCENT) / 100n,
  };
}

export function createPriceOptionsApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_suggestPriceOptions: (params) => {
      arity(params, 0);
      const doubleBaseFee = chain.nextBaseFee() * 2n;
      const tips = feeSpeeds(suggestedTip(chain));
      const price = (tip: bigint) => ({ maxPriorityFeePerGas: q(tip), maxFeePerGas: q(doubleBaseFee + tip) });
      return { slow: price(tips.slow), normal: price(tips.normal), fast: price(tips.fast) };
    },
  };
}
