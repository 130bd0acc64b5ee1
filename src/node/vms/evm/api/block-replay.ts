/**
 * Re-running an accepted block's transactions on a throwaway copy of its parent's state: what
 * the block tracers and `debug_storageRangeAt` (geth's stateAtTransaction) stand on.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { EvmChain } from '../evm-chain.js';
import type { StoredTx } from '../state/chain-store.js';
import { decodeStoredTx } from './format.js';

export interface BlockReplay {
  /** The block's transactions as stored, in order. */
  readonly txs: readonly StoredTx[];
  /** The block's hash. */
  readonly hash: Uint8Array;
  /** A fresh VM on a fresh copy of the parent's state (the one before any of the block's txs). */
  fresh(): Promise<{ vm: VM; state: MerkleStateManager }>;
  /** Runs `tx` on `vm` as the block ran it, after `gasUsed` of the block's gas. */
  execute(vm: VM, tx: TypedTransaction, gasUsed: bigint): Promise<RunTxResult>;
  /** The block's first `count` txs run on `vm`, untraced; the gas they used. */
  runPrefix(vm: VM, count: number): Promise<bigint>;
}

/** Block `n` set up for replay; undefined when the chain has no block `n` (or it is genesis). */
export function blockReplay(chain: EvmChain, n: bigint): BlockReplay | undefined {
  if (n === 0n) return undefined;
  const found = chain.headerAt(n);
  if (!found) return undefined;
  const timestamp = found.header.timestamp;
  const block = chain.executionBlock(chain.executionHeaderOf(found.header));
  const txs = chain.store.txsOfBlock(n);
  const execute = (vm: VM, tx: TypedTransaction, gasUsed: bigint) =>
    runTx(vm, {
      tx: chain.executableTx(tx, timestamp),
      block,
      blockGasUsed: gasUsed,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
    });
  return {
    txs,
    hash: found.hash,
    async fresh() {
      const state = chain.scratchStateAt(n - 1n);
      return { vm: await chain.vmFor(state, timestamp), state };
    },
    execute,
    async runPrefix(vm, count) {
      let gasUsed = 0n;
      for (const t of txs.slice(0, count))
        gasUsed += (await execute(vm, decodeStoredTx(chain.common, t), gasUsed)).totalGasSpent;
      return gasUsed;
    },
  };
}
