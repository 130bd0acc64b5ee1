/**
 * Staking rewards by the reference formula: the remaining supply is minted in proportion to the
 * stake's share of the current supply and its duration, at a rate between the minimum and maximum
 * consumption rates that grows with the duration. Integer arithmetic in the reference's order.
 */
import type { RewardConfig } from '../config.js';

export const PERCENT_DENOMINATOR = 1_000_000n;

export function potentialReward(
  config: RewardConfig,
  stakedDurationSeconds: bigint,
  stakedAmount: bigint,
  currentSupply: bigint,
): bigint {
  if (currentSupply === 0n) return 0n;
  const duration = stakedDurationSeconds * 1_000_000_000n;
  const mintingPeriod = config.mintingPeriodNs;
  const numerator =
    (config.maxConsumptionRate - config.minConsumptionRate) * duration +
    config.minConsumptionRate * mintingPeriod;
  const denominator = mintingPeriod * PERCENT_DENOMINATOR;
  const remaining = config.supplyCap > currentSupply ? config.supplyCap - currentSupply : 0n;
  let reward = remaining * numerator * stakedAmount * duration;
  reward = reward / denominator / currentSupply / mintingPeriod;
  return reward < remaining ? reward : remaining;
}

/** Splits `total` into (the `shares` ppm part, the rest), rounding as the reference does. */
export function splitReward(total: bigint, shares: number): [bigint, bigint] {
  const remainderShares = PERCENT_DENOMINATOR - BigInt(shares);
  // The reference rounds late when the product fits in a uint64, early otherwise.
  const product = remainderShares * total;
  const remainder =
    product <= MAX_UINT64 ? product / PERCENT_DENOMINATOR : remainderShares * (total / PERCENT_DENOMINATOR);
  return [total - remainder, remainder];
}

const MAX_UINT64 = (1n << 64n) - 1n;
