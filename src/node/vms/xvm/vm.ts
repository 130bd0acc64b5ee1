/**
 * The X-chain VM: verifies issued transactions against accepted state plus the pending ones,
 * batches them into linear standard blocks (as soon as they arrive with block time 0, else every
 * `blockTimeMs`), and accepts each block in ONE database transaction: UTXO set, assets, txs,
 * shared-memory changes and both index appends commit together or not at all.
 */
import type { Logger } from '../../../shared/logger.js';
import { parseId, toCb58 } from '../../../shared/encoding.js';
import type { DevnetClock } from '../../clock.js';
import type { Allocation } from '../../genesis/genesis.js';
import type { ContainerIndex } from '../../index/container-index.js';
import type { ProposerWrap } from '../../index/proposer-block.js';
import type { NodeDatabase } from '../../storage/database.js';
import type { PeerSubnet } from '../components/same-subnet.js';
import type { SharedMemory } from '../components/shared-memory.js';
import { inputIdOf } from '../components/utxo-id.js';
import { blockIdOf, decodeBlock, EMPTY_ID, encodeBlock } from './block/standard-block.js';
import { CodecError, idOf, packUtxo } from './codec.js';
import { FX, MAX_BLOCK_TX_BYTES, NATIVE_ASSET } from './constants.js';
import { genesisTxBytes, genesisUtxos } from './genesis.js';
import { XState, type StoredBlock } from './state/x-state.js';
import {
  effectsOf,
  keyOf,
  refInputId,
  type NewAsset,
  type ProducedUtxo,
  type TxEffects,
} from './txs/effects.js';
import { readStoredUtxo, readTx, readUtxo, type UtxoRef, type XTx } from './txs/model.js';
import {
  TxVerifyError,
  verifySemantics,
  verifySyntax,
  type AssetInfo,
  type StateView,
  type VerifierContext,
} from './txs/verifier.js';

export type TxStatus = 'Accepted' | 'Processing' | 'Rejected' | 'Unknown';

/** A refused issue: the message is what the client sees. */
export class IssueError extends Error {
  override readonly name = 'IssueError';
}

export interface XvmOptions {
  readonly db: NodeDatabase;
  readonly chainId: string;
  readonly networkId: number;
  readonly avaxAssetId: string;
  readonly txFee: bigint;
  readonly createAssetTxFee: bigint;
  /** Chains atomic UTXOs may move to and from (P and C), by cb58 id. */
  readonly atomicPeers: readonly string[];
  /** Another chain's subnet, for the words of a refused import or export (`verify.SameSubnet`). */
  readonly peerSubnet?: (chainId: string) => PeerSubnet;
  readonly sharedMemory: SharedMemory;
  readonly clock: DevnetClock;
  readonly logger: Logger;
  readonly blockTimeMs: number;
  /** The `X/tx` and `X/block` indexes; absent while indexing is off. */
  readonly txIndex?: ContainerIndex;
  readonly blockIndex?: ContainerIndex;
  /**
   * The proposervm wrapper of a block with time `time` (Unix s) in the block index; `past` for a
   * block accepted earlier (index catch-up). Without it blocks are indexed unwrapped.
   */
  readonly proposerWrap?: (time: number, past: boolean) => ProposerWrap;
  readonly genesisTime: number;
  readonly allocations: readonly Allocation[];
}

interface PendingTx {
  readonly tx: XTx;
  readonly effects: TxEffects;
}

/** Rejected tx ids remembered for getTxStatus (bounded). */
const MAX_REMEMBERED_REJECTIONS = 10_000;

export class XVM {
  readonly state: XState;
  readonly verifier: VerifierContext;
  private last: StoredBlock;
  private readonly mempool: PendingTx[] = [];
  private readonly pendingIds = new Set<string>();
  private readonly pendingSpent = new Map<string, string>();
  private readonly pendingAtomicSpent = new Map<string, string>();
  private readonly pendingProduced = new Map<string, ProducedUtxo>();
  private readonly pendingAssets = new Map<string, NewAsset>();
  private readonly rejected = new Map<string, string>();
  private readonly assetCache = new Map<string, AssetInfo>();
  private buildTimer: NodeJS.Timeout | undefined;
  private buildImmediate: NodeJS.Immediate | undefined;
  private closed = false;
  private genesisTxBytes: Uint8Array | undefined;

  constructor(private readonly o: XvmOptions) {
    this.state = new XState(o.db, o.chainId);
    this.verifier = {
      networkId: o.networkId,
      chainId: parseId(o.chainId),
      avaxAssetId: parseId(o.avaxAssetId),
      txFee: o.txFee,
      createAssetTxFee: o.createAssetTxFee,
      atomicPeers: o.atomicPeers.map((p) => parseId(p)),
      peerSubnet: o.peerSubnet,
    };
    this.last = this.state.lastAccepted() ?? this.acceptGenesis();
  }

  /**
   * Appends accepted blocks and txs the indexes miss (accepted while indexing was off), in
   * acceptance order, stamped with the catch-up time as the reference stamps bootstrap-time
   * containers.
   */
  catchUpIndexes(): void {
    const { txIndex, blockIndex } = this.o;
    if (!txIndex || !blockIndex) return;
    // The block index holds a prefix of the chain from height 1 (its containers may be wrapped);
    // one written before the genesis was left out holds it at position 0, and keeps it.
    const genesisId = this.state.blockByHeight(0n)?.id;
    const first = blockIndex.size > 0n && blockIndex.byIndex(0n)?.id === genesisId ? 0n : 1n;
    if (blockIndex.size + first > this.last.height) return;
    const nowMs = this.o.clock.nowMs();
    this.o.db.transaction(() => {
      for (let h = blockIndex.size + first; h <= this.last.height; h++) {
        const block = this.state.blockByHeight(h);
        if (!block) continue;
        const decoded = decodeBlock(block.bytes);
        for (const txBytes of decoded.txs) {
          const txId = toCb58(idOf(txBytes));
          if (!txIndex.byId(txId)) txIndex.append(txId, txBytes, nowMs);
        }
        const wrap = this.o.proposerWrap?.(Number(block.time), true);
        blockIndex.appendBlock(block.id, toCb58(decoded.parentId), block.bytes, nowMs, wrap);
      }
    });
  }

  lastAccepted(): StoredBlock {
    return this.last;
  }

  /** Verifies and queues a signed tx; answers its id. Throws IssueError with the reason. */
  issue(bytes: Uint8Array): string {
    if (this.closed) throw new IssueError('the chain is shutting down');
    let tx: XTx;
    try {
      tx = readTx(bytes);
    } catch (err) {
      if (err instanceof CodecError) throw new IssueError(`problem parsing transaction: ${err.message}`);
      throw err;
    }
    const id = tx.idString;
    if (this.pendingIds.has(id)) return id;
    try {
      verifySyntax(tx, this.verifier);
      verifySemantics(tx, this.verifier, this.view, BigInt(this.o.clock.nowSeconds()));
    } catch (err) {
      if (!(err instanceof TxVerifyError)) throw err;
      // The reference answers the verifier's error as it is. An accepted tx issued again gets no
      // check of its own there (vms/avm/network/gossip.go verifies it as any other): it fails
      // here on the first UTXO it spent (every tx pays a fee, so spends something).
      throw new IssueError(err.message);
    }
    const effects = effectsOf(tx);
    if (this.conflicts(tx, effects)) throw new IssueError(`tx conflicts with other tx: ${id}`);
    this.addPending({ tx, effects });
    this.scheduleBuild();
    return id;
  }

  status(txId: string): TxStatus {
    if (this.pendingIds.has(txId)) return 'Processing';
    if (this.state.hasTx(txId) || txId === this.o.avaxAssetId) return 'Accepted';
    if (this.rejected.has(txId)) return 'Rejected';
    return 'Unknown';
  }

  /** Pending txs go into one last block before the node stops. */
  close(): void {
    if (this.closed) return;
    clearTimeout(this.buildTimer);
    if (this.buildImmediate) clearImmediate(this.buildImmediate);
    while (this.mempool.length > 0) this.buildBlock();
    this.closed = true;
  }

  /** The state issued txs are checked against: accepted state overlaid with pending txs. */
  private readonly view: StateView = {
    // A UTXO a waiting tx spends is still here: as in the reference, verification runs against
    // state, and the mempool then refuses the conflict (see issue()). Unlike the reference, the
    // outputs of waiting txs may be spent by the next tx.
    utxo: (ref: UtxoRef) => {
      const { inputId, key } = refInputId(ref);
      const pending = this.pendingProduced.get(key);
      if (pending) return readStoredUtxo(pending.bytes);
      const bytes = this.state.utxos.get(inputId);
      return bytes ? readStoredUtxo(bytes) : undefined;
    },
    atomicUtxo: (sourceChain: Uint8Array, ref: UtxoRef) => {
      const { inputId } = refInputId(ref);
      const bytes = this.o.sharedMemory.get(toCb58(sourceChain), this.o.chainId, inputId);
      if (!bytes) return undefined;
      try {
        return readStoredUtxo(bytes);
      } catch (err) {
        return (err as Error).message;
      }
    },
    asset: (assetId: Uint8Array): AssetInfo | undefined => {
      // Accepted assets never change, so they are cached (by hex: cb58 costs more than the lookup).
      const hex = Buffer.from(assetId).toString('hex');
      const known = this.assetCache.get(hex);
      if (known) return known;
      const id = toCb58(assetId);
      const stored = this.state.asset(id);
      if (stored) {
        const info = { fxs: stored.fxs };
        this.assetCache.set(hex, info);
        return info;
      }
      const pending = this.pendingAssets.get(id);
      return pending ? { fxs: pending.fxs } : undefined;
    },
  };

  /** Whether a waiting tx already spends (or imports) a UTXO this one does: the mempool's check. */
  private conflicts(tx: XTx, effects: PendingTx['effects']): boolean {
    if (effects.consumed.some((c) => this.pendingSpent.has(c.key))) return true;
    const source = tx.sourceChain ? toCb58(tx.sourceChain) : '';
    return effects.imported.some((c) => this.pendingAtomicSpent.has(`${source}/${c.key}`));
  }

  private addPending(p: PendingTx): void {
    const id = p.tx.idString;
    this.mempool.push(p);
    this.pendingIds.add(id);
    for (const c of p.effects.consumed) {
      this.pendingSpent.set(c.key, id);
      this.pendingProduced.delete(c.key);
    }
    const source = p.tx.sourceChain ? toCb58(p.tx.sourceChain) : '';
    for (const c of p.effects.imported) this.pendingAtomicSpent.set(`${source}/${c.key}`, id);
    for (const u of p.effects.produced) this.pendingProduced.set(u.key, u);
    if (p.effects.newAsset) this.pendingAssets.set(toCb58(p.effects.newAsset.id), p.effects.newAsset);
  }

  private clearPending(batch: readonly PendingTx[]): void {
    for (const p of batch) {
      const id = p.tx.idString;
      this.pendingIds.delete(id);
      for (const c of p.effects.consumed)
        if (this.pendingSpent.get(c.key) === id) this.pendingSpent.delete(c.key);
      const source = p.tx.sourceChain ? toCb58(p.tx.sourceChain) : '';
      for (const c of p.effects.imported) this.pendingAtomicSpent.delete(`${source}/${c.key}`);
      for (const u of p.effects.produced) this.pendingProduced.delete(u.key);
      if (p.effects.newAsset) this.pendingAssets.delete(toCb58(p.effects.newAsset.id));
    }
  }

  private scheduleBuild(): void {
    if (this.buildTimer || this.buildImmediate || this.closed) return;
    const run = () => {
      this.buildTimer = undefined;
      this.buildImmediate = undefined;
      this.buildBlock();
      if (this.mempool.length > 0) this.scheduleBuild();
    };
    // Block time 0: every tx that arrived in this turn of the event loop joins one block.
    // Otherwise a block is built one interval after the first tx that waits for it, so the txs
    // issued within that interval share it.
    if (this.o.blockTimeMs <= 0) this.buildImmediate = setImmediate(run);
    else this.buildTimer = setTimeout(run, this.o.blockTimeMs);
  }

  private buildBlock(): void {
    if (this.mempool.length === 0) return;
    let size = 0;
    let count = 0;
    while (count < this.mempool.length) {
      const next = this.mempool[count].tx.bytes.length;
      if (count > 0 && size + next > MAX_BLOCK_TX_BYTES) break;
      size += next;
      count++;
    }
    const batch = this.mempool.splice(0, count);
    try {
      this.acceptBlock(batch);
    } catch (err) {
      // Pending txs are verified against each other, so this means the store failed; nothing of
      // the block was written (one transaction), and its txs are dropped.
      this.o.txIndex?.reload();
      this.o.blockIndex?.reload();
      for (const p of batch) this.remember(p.tx.idString, (err as Error).message);
      this.o.logger.error({ err, txs: batch.length }, 'X-chain block could not be accepted');
    } finally {
      this.clearPending(batch);
    }
  }

  private remember(txId: string, reason: string): void {
    if (this.rejected.size >= MAX_REMEMBERED_REJECTIONS) {
      const oldest = this.rejected.keys().next().value;
      if (oldest !== undefined) this.rejected.delete(oldest);
    }
    this.rejected.set(txId, reason);
  }

  private acceptBlock(batch: readonly PendingTx[]): void {
    const parent = this.last;
    const height = parent.height + 1n;
    const now = BigInt(this.o.clock.nowSeconds());
    const time = now > parent.time ? now : parent.time;
    const bytes = encodeBlock({
      parentId: parseId(parent.id),
      height,
      time,
      merkleRoot: EMPTY_ID,
      txs: batch.map((p) => p.tx.bytes),
    });
    const id = toCb58(blockIdOf(bytes));
    const acceptedMs = this.o.clock.nowMs();
    const block: StoredBlock = { height, id, bytes, time, acceptedMs };
    const { db, sharedMemory, chainId } = this.o;
    db.transaction(() => {
      for (const { tx, effects } of batch) {
        this.state.utxos.remove(effects.consumed.map((c) => c.inputId));
        if (tx.sourceChain && effects.imported.length > 0)
          sharedMemory.remove(
            toCb58(tx.sourceChain),
            chainId,
            effects.imported.map((c) => c.inputId),
          );
        this.state.utxos.put(effects.produced);
        if (tx.destinationChain && effects.exported.length > 0)
          sharedMemory.put(chainId, toCb58(tx.destinationChain), effects.exported);
        const asset = effects.newAsset;
        if (asset) this.state.putAsset({ ...asset, id: toCb58(asset.id) });
        this.state.putTx({ id: tx.idString, bytes: tx.bytes, height });
        this.o.txIndex?.append(tx.idString, tx.bytes, acceptedMs);
      }
      this.state.putBlock(block);
      this.o.blockIndex?.appendBlock(
        id,
        parent.id,
        bytes,
        acceptedMs,
        this.o.proposerWrap?.(Number(time), false),
      );
      this.o.clock.persist();
    });
    this.last = block;
  }

  /**
   * The genesis CreateAssetTx, served by `getTx` under the asset id (the reference stores it as
   * an accepted tx); built from the allocations on first use, as it is never issued.
   */
  genesisTx(id: string): Uint8Array | undefined {
    if (id !== this.o.avaxAssetId) return undefined;
    this.genesisTxBytes ??= genesisTxBytes(this.o.networkId, this.o.allocations);
    return this.genesisTxBytes;
  }

  /**
   * Height 0: the native asset and the genesis allocations (UTXO tx id = the asset id). As on the
   * reference, where linearization sets the genesis block as last accepted without consensus, it
   * is in neither index: `X/block` position 0 is height 1, and the genesis CreateAssetTx (state
   * written at initialization) is not an `X/tx` container.
   */
  private acceptGenesis(): StoredBlock {
    const assetId = parseId(this.o.avaxAssetId);
    const utxos: ProducedUtxo[] = genesisUtxos(assetId, this.o.allocations).map((utxo, i) => {
      const inputId = inputIdOf(assetId, i);
      const x = readUtxo(utxo);
      return {
        inputId,
        key: keyOf(inputId),
        bytes: packUtxo(utxo),
        assetId,
        output: x.output,
        addresses: [this.o.allocations[i].shortAddress],
      };
    });
    const time = BigInt(this.o.genesisTime);
    const bytes = encodeBlock({ parentId: EMPTY_ID, height: 0n, time, merkleRoot: EMPTY_ID, txs: [] });
    const block: StoredBlock = {
      height: 0n,
      id: toCb58(blockIdOf(bytes)),
      bytes,
      time,
      acceptedMs: this.o.genesisTime * 1000,
    };
    this.o.db.transaction(() => {
      this.state.putAsset({ id: this.o.avaxAssetId, ...NATIVE_ASSET, fxs: [FX.secp256k1] });
      this.state.utxos.put(utxos);
      this.state.putBlock(block);
    });
    return block;
  }
}
