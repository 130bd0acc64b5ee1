/**
 * Quorum arithmetic, in bigints (weights are uint64 and weight × numerator can pass 2^64).
 * A signed weight suffices iff numerator × total ≤ denominator × signed — the verifier's rule; the
 * aggregator's target is the ceiling of total × numerator / denominator, which meets it exactly.
 */

export const WARP_QUORUM_DENOMINATOR = 100n;
export const WARP_DEFAULT_QUORUM_NUMERATOR = 67n;

export function hasQuorum(
  signedWeight: bigint,
  totalWeight: bigint,
  numerator = WARP_DEFAULT_QUORUM_NUMERATOR,
): boolean {
  return numerator * totalWeight <= WARP_QUORUM_DENOMINATOR * signedWeight;
}

export function requiredWeight(totalWeight: bigint, numerator = WARP_DEFAULT_QUORUM_NUMERATOR): bigint {
  return (totalWeight * numerator + WARP_QUORUM_DENOMINATOR - 1n) / WARP_QUORUM_DENOMINATOR;
}
