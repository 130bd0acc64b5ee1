/**
 * How much the transaction pool holds, in coreth's settings and defaults (its VM config's
 * `tx-pool-account-slots`, `tx-pool-global-slots`, `tx-pool-account-queue`,
 * `tx-pool-global-queue`; subnet-evm has the same).
 */
export interface TxPoolLimits {
  /** Executable txs a sender keeps when the pool's executable txs are over `globalSlots`. */
  readonly accountSlots: number;
  /** Executable (pending) txs of all senders. */
  readonly globalSlots: number;
  /** Nonce-gapped (queued) txs a sender may have. */
  readonly accountQueue: number;
  /** Nonce-gapped txs of all senders. */
  readonly globalQueue: number;
}

export const DEFAULT_TX_POOL_LIMITS: TxPoolLimits = {
  accountSlots: 16,
  // coreth's 4096 + 1024: its two price heaps' capacities at their 4:1 ratio.
  globalSlots: 5120,
  accountQueue: 64,
  globalQueue: 1024,
};

/** coreth's txSlotSize: a tx takes one slot for each 32 KiB (begun) of its encoding. */
const TX_SLOT_SIZE = 32 * 1024;

export function txSlots(encodedLength: number): number {
  return Math.max(1, Math.ceil(encodedLength / TX_SLOT_SIZE));
}

/**
 * How many executable txs each sender loses when all senders' executable txs are over the
 * global slots (legacypool's truncatePending): only senders above their account slots lose
 * any, the largest first brought down to the next largest, one tx a round, then all of them
 * together, never below their account slots. So the total may stay above the global slots when
 * no sender is above its account slots. The txs lost are each sender's highest nonces.
 *
 * @param pending each sender's executable tx count, in the senders' order of arrival
 */
export function pendingTrims(
  pending: ReadonlyMap<string, number>,
  limits: Pick<TxPoolLimits, 'accountSlots' | 'globalSlots'>,
): Map<string, number> {
  const left = new Map(pending);
  const trims = new Map<string, number>();
  let total = 0;
  for (const n of pending.values()) total += n;
  const trimOne = (sender: string) => {
    left.set(sender, left.get(sender)! - 1);
    trims.set(sender, (trims.get(sender) ?? 0) + 1);
    total--;
  };
  // Largest first; senders of one count in their order of arrival (the sort is stable).
  const spammers = [...pending]
    .filter(([, n]) => n > limits.accountSlots)
    .sort((a, b) => b[1] - a[1])
    .map(([sender]) => sender);
  const offenders: string[] = [];
  for (const next of spammers) {
    if (total <= limits.globalSlots) break;
    offenders.push(next);
    if (offenders.length < 2) continue;
    // The offenders before this one come down to its count, a tx each per round.
    const threshold = left.get(next)!;
    while (total > limits.globalSlots && left.get(offenders[offenders.length - 2])! > threshold)
      for (const sender of offenders.slice(0, -1)) trimOne(sender);
  }
  // Still over: every offender loses one per round, until none is above its account slots.
  while (
    offenders.length > 0 &&
    total > limits.globalSlots &&
    left.get(offenders[offenders.length - 1])! > limits.accountSlots
  )
    for (const sender of offenders) trimOne(sender);
  return trims;
}

/**
 * How many queued txs each sender loses when all queued txs are over the global queue
 * (legacypool's truncateQueue): the senders with the oldest heartbeat first, each losing all
 * its queued txs or, for the last one needed, its highest nonces.
 *
 * @param queued each sender with its queued tx count, oldest heartbeat first
 */
export function queueTrims(
  queued: readonly { sender: string; count: number }[],
  globalQueue: number,
): Map<string, number> {
  const trims = new Map<string, number>();
  let over = queued.reduce((sum, q) => sum + q.count, 0) - globalQueue;
  for (const { sender, count } of queued) {
    if (over <= 0) break;
    const n = Math.min(count, over);
    trims.set(sender, n);
    over -= n;
  }
  return trims;
}
