/**
 * The block builder (geth's miner, EthereumJS's buildBlock): picks the pool's executable
 * transactions, runs each with `runTx` over the producer's live state (linear in the block
 * size), adds what the chain builds besides them (the C-chain's atomic part), and seals the
 * header, body and stored rows. It writes nothing durable: the chain accepts what it returns
 * (EvmChain's accept path) or, when it returns nothing, drops the live state's changes.
 */
import type { Block } from '@ethereumjs/block';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util';
import { encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { Logger } from '../../../../shared/logger.js';
import type { StoredLog, StoredTx } from '../state/chain-store.js';
import type { BlockStateManager } from '../state/world.js';
import { CallTracer } from '../trace/tracers.js';
import { feeCaps, type PooledTx, type TxPool } from '../txpool/txpool.js';
import * as acp176 from './acp176.js';
import {
  EMPTY_UNCLE_HASH,
  encodeBlock,
  encodeHeader,
  extDataHash,
  hashHeader,
  type ChainHead,
  type EvmHeader,
} from './evm-block.js';
import { orderedTrieRoot } from './ordered-trie.js';
import { txBytes } from '../tx-bytes.js';

/** What a block adds besides its EVM transactions (the C-chain's atomic transactions). */
export interface ExtraBlockPart {
  readonly extData: Uint8Array;
  readonly gasUsed: bigint;
  readonly atomicTxs: readonly { id: Uint8Array; bytes: Uint8Array }[];
  /** Shared-memory effects; runs inside the accept transaction. */
  commit(): void;
  /** After the block is durable (drops the txs from the mempool). */
  accepted(): void;
}

export interface ExtraBlockBuilder {
  /** Whether anything waits to go into a block. */
  hasWork(): boolean;
  /** Applies the part's state changes to `state` (after the block's EVM transactions). */
  build(
    state: MerkleStateManager,
    ctx: { baseFee: bigint; capacityLeft: bigint; timestamp: bigint; height: bigint },
  ): Promise<ExtraBlockPart | undefined>;
}

/** The pool's executable transactions, in block order, and each pooled sender's nonce before the block. */
export interface Candidates {
  readonly txs: readonly PooledTx[];
  readonly startNonces: ReadonlyMap<string, bigint>;
}

/** What the chain settles before a block is filled: its place, time, fees, and the engine to run it. */
export interface BlockPlan {
  readonly parent: ChainHead;
  readonly number: bigint;
  readonly timestamp: bigint;
  /** The fee state the block starts from; its capacity is the block's gas limit. */
  readonly feeState: acp176.FeeState;
  readonly baseFee: bigint;
  /** The execution-side block every transaction runs in (its coinbase is the block's). */
  readonly execBlock: Block;
  /** A VM over `state` with the precompiles active at `timestamp`. */
  readonly vm: VM;
  /** The producer's live state: holds the parent's state, and the block's changes once built. */
  readonly state: BlockStateManager;
  readonly extraBuilder?: ExtraBlockBuilder;
  readonly logger: Logger;
  /** The transaction as the engine must run it in this block (predicate gas included). */
  executableTx(tx: TypedTransaction): TypedTransaction;
  /**
   * Why the chain refuses `sender` at this point of the block (subnet-evm's tx allow list, which
   * an earlier transaction may have changed), or undefined.
   */
  senderRefusal(sender: Address): Promise<string | undefined>;
  /** Drops `sender`'s pooled transactions from `nonce` on, which can no longer run in order. */
  dropFrom(sender: string, nonce: bigint, reason: string): void;
}

/** A pooled transaction the block ran, with what running it produced. */
export interface IncludedTx {
  readonly tx: TypedTransaction;
  readonly result: RunTxResult;
  readonly sender: Uint8Array;
  /** Its callTracer result, recorded while the block ran. */
  readonly trace: unknown;
}

/** A sealed block, ready to be accepted. */
export interface BuiltBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly header: EvmHeader;
  readonly headerRlp: Uint8Array;
  readonly blockBytes: Uint8Array;
  readonly stateRoot: Uint8Array;
  readonly included: readonly IncludedTx[];
  readonly storedTxs: readonly StoredTx[];
  readonly logs: readonly StoredLog[];
  readonly extra?: ExtraBlockPart;
}

/** The pool's executable transactions against `state`, which holds exactly the head's state. */
export async function executableCandidates(pool: TxPool, state: BlockStateManager): Promise<Candidates> {
  const nonceCache = new Map<string, bigint>();
  // Between blocks the producer's state holds exactly the head's state, with warm caches.
  for (const sender of pool.senders()) {
    const acct = await state.getAccount(createAddressFromString(sender));
    nonceCache.set(sender, acct?.nonce ?? 0n);
  }
  const txs = pool.executable((s) => nonceCache.get(s) ?? 0n);
  return { txs, startNonces: nonceCache };
}

/**
 * Runs `candidates` into a block on `plan.state` and seals it; undefined when nothing went in
 * (the live state may then hold changes of failed transactions, which the chain drops).
 */
export async function buildBlock(
  plan: BlockPlan,
  candidates: readonly PooledTx[],
): Promise<BuiltBlock | undefined> {
  const { parent, number, timestamp, feeState, baseFee, execBlock, vm } = plan;
  const gasLimit = feeState.capacity;

  const included: IncludedTx[] = [];
  let gasUsed = 0n;
  const skipSender = new Set<string>();
  for (const p of candidates) {
    if (skipSender.has(p.sender)) continue;
    if (gasUsed + p.tx.gasLimit > gasLimit) {
      skipSender.add(p.sender);
      continue;
    }
    const refusal = await plan.senderRefusal(createAddressFromString(p.sender));
    if (refusal) {
      // As the reference's worker skips the account: left out of this block, kept in the pool.
      plan.logger.debug({ tx: p.hash, err: refusal }, 'skipped transaction');
      skipSender.add(p.sender);
      continue;
    }
    const tracer = new CallTracer();
    tracer.attach(vm);
    try {
      const result = await runTx(vm, {
        tx: plan.executableTx(p.tx),
        block: execBlock,
        blockGasUsed: gasUsed,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      });
      gasUsed += result.totalGasSpent;
      included.push({
        tx: p.tx,
        result,
        sender: hexToBytes(p.sender as `0x${string}`),
        trace: tracer.result(p.tx, p.sender, result),
      });
    } catch (err) {
      // Invalid at execution (balance spent by an earlier tx, fee below the base fee): drop it
      // and the sender's later ones, which can no longer run in order.
      const msg = (err as Error).message.split('\n')[0];
      plan.logger.debug({ tx: p.hash, err: msg }, 'dropped transaction');
      if (/is less than the block's baseFeePerGas/.test(msg)) {
        skipSender.add(p.sender);
        continue;
      }
      plan.dropFrom(p.sender, p.nonce, msg);
      skipSender.add(p.sender);
    } finally {
      tracer.detach(vm);
    }
  }

  let extra: ExtraBlockPart | undefined;
  if (plan.extraBuilder?.hasWork()) {
    try {
      extra = await plan.extraBuilder.build(plan.state, {
        baseFee,
        capacityLeft: gasLimit - gasUsed,
        timestamp,
        height: number,
      });
    } catch (err) {
      plan.logger.error({ err }, 'atomic part failed');
      extra = undefined;
    }
  }
  if (included.length === 0 && !extra) return undefined;

  // Seal.
  const stateRoot = await plan.state.getStateRoot();
  const txs = included.map((i) => i.tx);
  // Serialised once: the transactions root, the stored rows and the block body all use them.
  const rawTxs = txs.map(txBytes);
  const transactionsRoot = orderedTrieRoot(rawTxs);
  const bloom = new Uint8Array(256);
  for (const { result } of included) {
    const bits = result.bloom.bitvector;
    for (let j = 0; j < 256; j++) bloom[j] |= bits[j];
  }
  const receiptsRoot = orderedTrieRoot(
    included.map(({ result, tx }) => encodeReceipt(result.receipt, tx.type)),
  );
  const extData = extra?.extData ?? new Uint8Array();
  const extGas = extra?.gasUsed ?? 0n;
  const afterState = acp176.consumeGas(feeState, gasUsed + extGas);
  const header: EvmHeader = {
    parentHash: parent.hash,
    uncleHash: EMPTY_UNCLE_HASH,
    // The coinbase the block paid (Subnet-EVM: its reward address), as the reference's header.
    coinbase: execBlock.header.coinbase.bytes,
    stateRoot,
    transactionsRoot,
    receiptsRoot,
    logsBloom: bloom,
    difficulty: 1n,
    number,
    gasLimit,
    gasUsed,
    timestamp,
    extraData: acp176.encodeFeeState(afterState),
    mixHash: new Uint8Array(32),
    nonce: new Uint8Array(8),
    extDataHash: extDataHash(extData),
    baseFeePerGas: baseFee,
    extDataGasUsed: extGas,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconBlockRoot: new Uint8Array(32),
  };
  const headerRlp = encodeHeader(header);
  const hash = hashHeader(headerRlp);
  const blockBytes = encodeBlock(headerRlp, txs, extData);

  const storedTxs: StoredTx[] = [];
  const logs: StoredLog[] = [];
  let cumulative = 0n;
  for (let i = 0; i < included.length; i++) {
    const { tx, result, sender } = included[i];
    cumulative += result.totalGasSpent;
    const { maxFee, tip } = feeCaps(tx);
    const effective =
      tx.type === 0 || tx.type === 1 ? maxFee : baseFee + (tip < maxFee - baseFee ? tip : maxFee - baseFee);
    const txHash = tx.hash();
    storedTxs.push({
      hash: txHash,
      blockNumber: number,
      index: i,
      raw: rawTxs[i],
      sender,
      status: (result.receipt as any).status ?? 1,
      gasUsed: result.totalGasSpent,
      cumulativeGasUsed: cumulative,
      contractAddress: result.createdAddress ? result.createdAddress.bytes : null,
      effectiveGasPrice: effective,
      firstLogIndex: logs.length,
    });
    for (const [address, topics, data] of result.receipt.logs) {
      logs.push({ blockNumber: number, logIndex: logs.length, txIndex: i, txHash, address, topics, data });
    }
  }
  return { number, hash, header, headerRlp, blockBytes, stateRoot, included, storedTxs, logs, extra };
}
