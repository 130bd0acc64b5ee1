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
