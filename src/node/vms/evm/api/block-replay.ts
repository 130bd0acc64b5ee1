/**
 * Re-running a block's transactions on a throwaway copy of its parent's state: what the block
 * tracers and `debug_storageRangeAt` (geth's stateAtTransaction) stand on. The block is an
 * accepted one, or one given by its RLP (debug_traceBlock) whose parent the chain holds.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { EvmChain, ExecutionHeader } from '../evm-chain.js';
import type { StoredTx } from '../state/chain-store.js';
import { replayPreCheck } from './replay-precheck.js';
import { replayTx } from './replay-tx.js';

/** What a replay needs of a transaction: an accepted one's StoredTx has it all. */
export type ReplayTx = Pick<StoredTx, 'index' | 'hash' | 'sender' | 'raw'>;

/** A block to replay: the accepted block its state starts from, its header and transactions. */
export interface ReplayBlock {
  readonly parent: bigint;
  readonly header: ExecutionHeader;
  readonly hash: Uint8Array;
  readonly txs: readonly ReplayTx[];
}

export interface BlockReplay {
  /** The block's transactions, in order. */
  readonly txs: readonly ReplayTx[];
  /** The block's hash and number. */
  readonly hash: Uint8Array;
  readonly number: bigint;
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
  const header = chain.executionHeaderOf(found.header);
  return replayOf(chain, { parent: n - 1n, header, hash: found.hash, txs: chain.store.txsOfBlock(n) });
}

/** `block` set up for replay on its parent's state (which the chain must hold). */
export function replayOf(chain: EvmChain, block: ReplayBlock): BlockReplay {
  const { timestamp } = block.header;
  const executionBlock = chain.executionBlock(block.header);
  const execute = async (vm: VM, tx: TypedTransaction, gasUsed: bigint) => {
    // coreth's refusals first, in its order; the engine's own checks then all pass but gas's.
    await replayPreCheck(vm, tx, block.header.baseFeePerGas);
    return runTx(vm, {
      tx: chain.executableTx(tx, timestamp),
      block: executionBlock,
      blockGasUsed: gasUsed,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
    });
  };
  return {
    txs: block.txs,
    hash: block.hash,
    number: block.header.number,
    async fresh() {
      const state = chain.scratchStateAt(block.parent);
      return { vm: await chain.vmFor(state, timestamp), state };
    },
    execute,
    async runPrefix(vm, count) {
      let gasUsed = 0n;
      for (const t of block.txs.slice(0, count))
        gasUsed += (await execute(vm, replayTx(chain.common, t), gasUsed)).totalGasSpent;
      return gasUsed;
    },
  };
}
