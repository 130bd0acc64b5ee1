/**
 * When a P-chain staker starts. Before Durango a staking tx declared its start, which had to lie
 * in the future, and the staker waited in the pending set until then. Since Durango the declared
 * start is ignored: the staker is current from the time of the block that accepts its tx
 * (AvalancheGo's `putStaker`), which is the start `platform.getCurrentValidators` reports. Wallets
 * still declare a start a little ahead of now, so the declared value is not the staker's start.
 */

/** Durango's activation on the public networks, by address prefix (Unix seconds, UTC). */
const DURANGO_BY_HRP: Readonly<Record<string, number>> = {
  avax: 1_709_740_800, // 2024-03-06 16:00 UTC
  fuji: 1_707_840_000, // 2024-02-13 16:00 UTC
};

/**
 * The start of a staker whose tx declared `declaredStart` and was accepted in a block stamped
 * `acceptedAt`, on the network of address prefix `hrp` (any other network, a local one, has run
 * Durango since its genesis).
 */
export function stakerStart(hrp: string, declaredStart: number, acceptedAt: number): number {
  const durango = DURANGO_BY_HRP[hrp] ?? 0;
  if (acceptedAt >= durango) return acceptedAt;
  return Math.max(declaredStart, acceptedAt);
}
