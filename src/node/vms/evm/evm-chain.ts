/**
 * One EVM chain: the C-chain, and later every Subnet-EVM chain, differing only by their
 * `EvmChainConfig`. It keeps the accepted chain in SQLite and the producer's live state, admits
 * transactions to its pool (txpool/admission.ts), has blocks built (block/builder.ts) and
 * commits each — state trie nodes, block, receipts, logs, index entry, atomic effects — in one
 * database transaction. On start it resumes at the last accepted block, or writes the genesis
 * block (block/genesis.ts).
 */
import { EventEmitter } from 'node:events';
import { createBlock, createBlockHeader, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { CustomPrecompile } from '@ethereumjs/evm';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bigIntToBytes, bytesToHex, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import type { Chain, ChainContext } from '../../chains/chain.js';
import { proposerWrapAt } from '../../api/proposervm.js';
import type { Logger } from '../../../shared/logger.js';
import { toCb58 } from '../../../shared/encoding.js';
import * as acp176 from './block/acp176.js';
import {
  buildBlock,
  executableCandidates,
  type BuiltBlock,
  type ExtraBlockBuilder,
} from './block/builder.js';
import { creditWholeFee } from './block/fee-credit.js';
import { BLACKHOLE_ADDRESS, decodeHeader, type ChainHead, type EvmHeader } from './block/evm-block.js';
import { writeGenesis } from './block/genesis.js';
import { RecentHashes } from './block/recent-hashes.js';
import type { EvmChainConfig } from './chain-config.js';
import { createEvmCommon, vmCommon } from './common.js';
import { PrecompileRegistry } from './precompiles/registry.js';
import { bindPrecompiles } from './precompiles/bind.js';
import { blake2fPrecompile } from './precompiles/blake2f.js';
import { predicateIntrinsicGas, withIntrinsicGas } from './precompiles/predicate-gas.js';
import { ChainStore, type StoredLog } from './state/chain-store.js';
import { TrieDb, TrieNodeTable } from './state/trie-db.js';
import { blockStateAt, stateManagerAt, trieAt, type BlockStateManager } from './state/world.js';
import { checkAdmission, decodeRawTx } from './txpool/admission.js';
import { TX_POOL_EVICTION_INTERVAL_MS, TxPool, type PooledTx } from './txpool/txpool.js';
import { EvmTxError } from './vm-errors.js';

/** Accounts the block producer's state caches hold before they are emptied between blocks. */
const LIVE_CACHE_ACCOUNTS = 50_000;

export interface AcceptedBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly header: EvmHeader;
  readonly txHashes: readonly Uint8Array[];
  readonly logs: readonly StoredLog[];
}

export interface ExecutionHeader {
  number: bigint;
  timestamp: bigint;
  gasLimit: bigint;
  baseFeePerGas: bigint;
  /** The block's beneficiary; left out, the one a block built now pays (executionCoinbase). */
  coinbase?: Uint8Array;
  /** The header's difficulty (1 on every built block), which PREVRANDAO reads (executionBlock). */
  difficulty?: bigint;
}

export class EvmChain extends EventEmitter implements Chain {
  readonly alias: string;
  readonly aliases: readonly string[];
  readonly blockchainID: string;
  readonly subnetID: string;
  readonly vmID: string;
  readonly name: string;
  readonly common: Common;
  readonly store: ChainStore;
  readonly pool: TxPool;
  readonly precompiles: PrecompileRegistry;
  readonly logger: Logger;
  readonly desiredTargetExcess: bigint;
  extraBuilder?: ExtraBlockBuilder;

  private readonly trieDb: TrieDb;
  /** BLAKE2f with geth's failure words (the engine's words differ), in every VM. */
  private readonly blake2f: CustomPrecompile;
  private head!: ChainHead;
  private live!: BlockStateManager;
  private liveVm?: { key: string; vm: VM };
  private readView?: { root: string; state: MerkleStateManager };
  private producing?: Promise<void>;
  private scheduled = false;
  private timer?: NodeJS.Timeout;
  private evictionTimer?: NodeJS.Timeout;
  private closed = false;
  private readonly hashCache = new RecentHashes();
  /**
   * callTracer results recorded while recent blocks were built, so `debug_traceBlockByNumber`
   * with the call tracer (what indexers ask for every block) needs no replay.
   */
  readonly recentCallTraces = new Map<bigint, { txHash: string; result: unknown }[]>();

  constructor(
    readonly ctx: ChainContext,
    readonly config: EvmChainConfig,
  ) {
    super();
    this.setMaxListeners(0);
    this.alias = config.alias;
    this.aliases = config.aliases;
    this.blockchainID = config.blockchainID;
    this.subnetID = config.subnetID;
    this.vmID = config.vmID;
    this.name = config.name;
    this.logger = ctx.logger.child({ chain: config.alias });
    this.common = createEvmCommon(config.chainId);
    this.blake2f = blake2fPrecompile(this.common);
    this.store = new ChainStore(ctx.db, config.tablePrefix);
    this.trieDb = new TrieDb(new TrieNodeTable(ctx.db, `${config.tablePrefix}_trie`));
    this.precompiles = new PrecompileRegistry(config.precompiles);
    this.desiredTargetExcess = acp176.targetExcessFor(config.gasTargetPerSecond);
    this.pool = new TxPool({ limits: config.txPool });
  }

  async open(): Promise<void> {
    const last = this.store.lastBlock();
    if (last) {
      const header = decodeHeader(last.header);
      this.head = { number: last.number, hash: last.hash, header };
      this.live = blockStateAt(this.common, this.trieDb, header.stateRoot);
      this.logger.info({ height: Number(last.number) }, 'resumed at the last accepted block');
    } else {
      this.head = await writeGenesis({
        ctx: this.ctx,
        common: this.common,
        config: this.config,
        precompiles: this.precompiles,
        store: this.store,
        trieDb: this.trieDb,
        configurePrecompiles: (state) => this.configureGenesisPrecompiles(state),
      });
      this.live = blockStateAt(this.common, this.trieDb, this.head.header.stateRoot);
    }
    if (this.config.blockTimeMs > 0) {
      this.timer = setInterval(() => void this.produce(), this.config.blockTimeMs);
      this.timer.unref();
    }
    this.evictionTimer = setInterval(
      () =>
        void this.evictExpiredTxs().catch((err) =>
          this.logger.warn({ err }, 'evicting expired pool transactions failed'),
        ),
      TX_POOL_EVICTION_INTERVAL_MS,
    );
    this.evictionTimer.unref();
  }

  // ---- Chain interface -------------------------------------------------------------------

  isBootstrapped(): boolean {
    return true;
  }

  height(): bigint {
    return this.head.number;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emit('close');
    if (this.timer) clearInterval(this.timer);
    if (this.evictionTimer) clearInterval(this.evictionTimer);
    await this.producing;
  }

  // ---- reads -------------------------------------------------------------------------------

  get latest(): ChainHead {
    return this.head;
  }

  blockHashAt(n: bigint): Uint8Array | undefined {
    if (n === this.head.number) return this.head.hash;
    let h = this.hashCache.get(n);
    if (!h) {
      h = this.store.headerByNumber(n)?.hash;
      if (h) this.hashCache.set(n, h);
    }
    return h;
  }

  headerAt(n: bigint): { hash: Uint8Array; header: EvmHeader } | undefined {
    if (n === this.head.number) return { hash: this.head.hash, header: this.head.header };
    const row = this.store.headerByNumber(n);
    return row ? { hash: row.hash, header: decodeHeader(row.header) } : undefined;
  }

  /** A read-only state at an accepted block (latest when omitted). */
  stateAt(number?: bigint): MerkleStateManager {
    const header = number === undefined ? this.head.header : this.headerAt(number)?.header;
    if (!header) throw new EvmTxError(`header not found`);
    const rootHex = bytesToHex(header.stateRoot);
    if (number === undefined || number === this.head.number) {
      if (this.readView?.root !== rootHex)
        this.readView = {
          root: rootHex,
          state: stateManagerAt(this.common, this.trieDb.scratch(), header.stateRoot),
        };
      return this.readView.state;
    }
    return stateManagerAt(this.common, this.trieDb.scratch(), header.stateRoot);
  }

  /** The account trie at an accepted block's state root, for reading (dumps, state diffs). */
  stateTrieAt(number: bigint): MerklePatriciaTrie {
    const header = this.headerAt(number)?.header;
    if (!header) throw new EvmTxError('header not found');
    return trieAt(this.trieDb.scratch(), header.stateRoot);
  }

  /** The address or slot key a state trie hashed to `hash`, when it was kept. */
  preimage(hash: Uint8Array): Uint8Array | undefined {
    return this.trieDb.preimage(hash);
  }

  /** A throwaway state at a block (for calls that write: eth_call, estimates, traces). */
  scratchStateAt(number: bigint): MerkleStateManager {
    const header = this.headerAt(number)?.header;
    if (!header) throw new EvmTxError('header not found');
    return stateManagerAt(this.common, this.trieDb.scratch(), header.stateRoot);
  }

  /**
   * A throwaway state at a block that keeps what it loads cached across reverted checkpoints,
   * for repeated calls at one block.
   */
  warmStateAt(number: bigint): BlockStateManager {
    const header = this.headerAt(number)?.header;
    if (!header) throw new EvmTxError('header not found');
    return blockStateAt(this.common, this.trieDb.scratch(), header.stateRoot);
  }

  async nonceOf(address: Address): Promise<bigint> {
    return (await this.stateAt().getAccount(address))?.nonce ?? 0n;
  }

  /** The base fee the next block would pay if built now. */
  nextBaseFee(): bigint {
    return acp176.gasPrice(this.nextFeeState(BigInt(this.ctx.clock.nowSeconds())));
  }

  nextFeeState(timestamp: bigint): acp176.FeeState {
    const parent = acp176.decodeFeeState(this.head.header.extraData);
    const elapsed = timestamp - this.head.header.timestamp;
    const advanced = acp176.advanceSeconds(parent, elapsed > 0n ? elapsed : 0n);
    return acp176.updateTargetExcess(advanced, this.desiredTargetExcess);
  }

  /** The base fee of the next block from its fee state (Subnet-EVM chains use their fee config). */
  protected baseFeeFor(state: acp176.FeeState, _timestamp: bigint): bigint {
    return acp176.gasPrice(state);
  }

  maxBlockGas(): bigint {
    return acp176.maxCapacity(this.nextFeeState(BigInt(this.ctx.clock.nowSeconds())));
  }

  /**
   * `tx` as the engine must run it in a block at `timestamp`: when its access list names an
   * active predicate precompile (Warp), its intrinsic gas includes the predicate gas. Throws
   * EvmTxError when a predicate makes the transaction invalid.
   */
  executableTx(tx: TypedTransaction, timestamp: bigint): TypedTransaction {
    let gas: bigint | undefined;
    try {
      gas = predicateIntrinsicGas(tx, this.precompiles.activeAt(Number(timestamp)));
    } catch (err) {
      throw new EvmTxError(`invalid predicate: ${(err as Error).message}`);
    }
    return gas === undefined ? tx : withIntrinsicGas(tx, gas);
  }

  /**
   * Writes the initial state of the precompiles active at genesis into the genesis state, before
   * its root is taken. The C-chain's precompiles have none; Subnet-EVM's configure theirs.
   */
  protected async configureGenesisPrecompiles(_state: MerkleStateManager): Promise<void> {}

  /** A VM over `state` with the precompiles active at `timestamp`. */
  async vmFor(state: MerkleStateManager, timestamp: bigint): Promise<VM> {
    const active = this.precompiles.activeAt(Number(timestamp));
    const bound = bindPrecompiles(active, () => timestamp);
    const vm = await createVM({
      common: vmCommon(this.common),
      stateManager: state,
      blockchain: this.blockchainView(),
      evmOpts: { customPrecompiles: [this.blake2f, ...bound.customPrecompiles] },
    });
    bound.attach(vm);
    creditWholeFee(vm);
    // Subnet-EVM and Warp hook their per-transaction checks (predicates) here.
    this.emit('vm', vm);
    return vm;
  }

  private blockchainView() {
    const hashAt = (n: bigint) => this.blockHashAt(n);
    const view = {
      async getBlock(n: number) {
        const h = hashAt(BigInt(n));
        return { hash: () => h ?? new Uint8Array(32) };
      },
      async putBlock() {},
      shallowCopy() {
        return view;
      },
    };
    return view;
  }

  /** The coinbase a block built now pays its fees to (Subnet-EVM: the reward address). */
  executionCoinbase(): Address {
    return new Address(BLACKHOLE_ADDRESS);
  }

  executionBlock(h: ExecutionHeader): Block {
    const header = createBlockHeader(
      {
        number: h.number,
        timestamp: h.timestamp,
        gasLimit: h.gasLimit,
        baseFeePerGas: h.baseFeePerGas,
        coinbase: h.coinbase ? new Address(h.coinbase) : this.executionCoinbase(),
        difficulty: 0n,
        // coreth and subnet-evm run every block since Shanghai with PREVRANDAO set to the header's
        // difficulty (1 on every block they build, so `block.prevrandao` and `block.difficulty`
        // read 1); the engine reads PREVRANDAO from mixHash. The stored header's mixHash stays 0.
        mixHash: setLengthLeft(bigIntToBytes(h.difficulty ?? 1n), 32),
        parentBeaconBlockRoot: new Uint8Array(32),
        blobGasUsed: 0n,
        excessBlobGas: 0n,
      },
      { common: this.common, skipConsensusFormatValidation: true },
    );
    return createBlock({ header }, { common: this.common, skipConsensusFormatValidation: true });
  }

  executionHeaderOf(header: EvmHeader): ExecutionHeader {
    return {
      number: header.number,
      timestamp: header.timestamp,
      gasLimit: header.gasLimit,
      baseFeePerGas: header.baseFeePerGas,
      coinbase: header.coinbase,
      difficulty: header.difficulty,
    };
  }

  // ---- transaction admission ---------------------------------------------------------------

  decodeRawTx(raw: Uint8Array): TypedTransaction {
    return decodeRawTx(raw, this.common, this.config.chainId);
  }

  /**
   * Validates and pools a signed transaction; returns its hash. The checks and their words are
   * coreth's txpool's (ValidateTransaction, then ValidateTransactionWithState).
   */
  async submit(tx: TypedTransaction): Promise<string> {
    const { sender, account, replaced } = await checkAdmission(this, tx);
    const refusal = await this.senderRefusal(this.stateAt(), BigInt(this.ctx.clock.nowSeconds()), sender);
    if (refusal) throw new EvmTxError(refusal);
    const from = sender.toString();
    const { pooled, discarded } = this.pool.add(tx, from, {
      stateNonce: account.nonce,
      baseFee: this.nextBaseFee(),
    });
    for (const d of discarded) this.emit('droppedTx', d.hash, 'discarded for a better-paying tx (pool full)');
    this.requestBlock();
    let executable = this.announce(pooled, replaced !== undefined, account.nonce);
    if (!executable) {
      // The nonce admission read may be a block old (one accepted while it was read, taking
      // the sender's earlier txs out of the pool): look again before calling the tx queued.
      const fresh = (await this.stateAt().getAccount(sender))?.nonce ?? 0n;
      this.pool.noteStateNonce(from, fresh);
      if (fresh > account.nonce && this.pool.has(pooled.hash))
        executable = this.announce(pooled, false, fresh);
    }
    if (executable) this.pool.heartbeat(from);
    // legacypool's reorg after an addition: the pool back within its limits before the answer.
    this.enforcePoolLimits();
    return pooled.hash;
  }

  /**
   * A chain's own rule for who may send (subnet-evm's tx allow list), read in `state` at
   * `timestamp`: why `sender` may not, or undefined. The pool checks it after its nonce and
   * funds checks, as ValidateTransactionWithState orders them, and a block before each
   * transaction, as the state transition's preCheck does. None here.
   */
  protected async senderRefusal(
    _state: MerkleStateManager,
    _timestamp: bigint,
    _sender: Address,
  ): Promise<string | undefined> {
    return undefined;
  }

  /** Drops what the pool holds over its limits (TxPool.enforceLimits). */
  private enforcePoolLimits(): void {
    for (const { pooled, reason } of this.pool.enforceLimits()) this.emit('droppedTx', pooled.hash, reason);
  }

  /**
   * Evicts the queued transactions of senders silent for longer than the pool's lifetime
   * (coreth's legacypool runs the same check every minute); their executable ones stay.
   */
  async evictExpiredTxs(): Promise<void> {
    for (const sender of this.pool.expiredSenders()) {
      if (this.closed) return;
      const head = this.head.hash;
      const nonce = (await this.stateAt().getAccount(createAddressFromString(sender)))?.nonce ?? 0n;
      // A block accepted meanwhile may have moved the nonce: what looked queued may not be.
      if (this.head.hash !== head) continue;
      for (const p of this.pool.evictQueued(sender, nonce))
        this.emit('droppedTx', p.hash, 'queued past the pool lifetime');
    }
  }

  /**
   * Like geth's pool, announces a transaction (newPendingTransactions, pending-tx filters) once it
   * is executable: one behind a nonce gap stays unannounced until the gap fills, and is then
   * announced with the one that filled it. False when `pooled` is not executable yet.
   */
  private announce(pooled: PooledTx, replacedExecutable: boolean, stateNonce: bigint): boolean {
    const run = this.pool.pendingRun(pooled.sender, stateNonce);
    const at = run.findIndex((p) => p.hash === pooled.hash);
    if (at < 0) return false;
    for (const p of replacedExecutable ? [pooled] : run.slice(at)) this.emit('pendingTx', p.hash);
    return true;
  }

  // ---- block production --------------------------------------------------------------------

  /** Asks for a block: immediately (batching this tick's txs) or at the next interval. */
  requestBlock(force = false): void {
    // With a block time, blocks come only from the interval timer.
    if (this.closed || this.scheduled || (this.config.blockTimeMs > 0 && !force)) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.produce();
    });
  }

  /** Builds blocks until the pool holds nothing executable. Serialised. */
  async produce(): Promise<void> {
    if (this.producing) {
      await this.producing;
      if (this.config.blockTimeMs === 0) return this.produce();
      return;
    }
    this.producing = (async () => {
      try {
        for (let round = 0; round < 1000 && !this.closed; round++) {
          const built = await this.buildOne();
          if (!built || this.config.blockTimeMs > 0) break;
        }
      } catch (err) {
        // Nothing of a failed block may linger in the live state.
        this.logger.error({ err }, 'block production failed');
        await this.resetLive();
      }
    })();
    try {
      await this.producing;
    } finally {
      this.producing = undefined;
    }
  }

  /** Builds and accepts one block; false when there was nothing to put in it. */
  private async buildOne(): Promise<boolean> {
    const candidates = await executableCandidates(this.pool, this.live);
    if (candidates.txs.length === 0 && !this.extraBuilder?.hasWork()) return false;

    const parent = this.head;
    const now = BigInt(this.ctx.clock.nowSeconds());
    const timestamp = now > parent.header.timestamp ? now : parent.header.timestamp;
    const feeState = this.nextFeeState(timestamp);
    const baseFee = this.baseFeeFor(feeState, timestamp);
    const gasLimit = feeState.capacity;
    const number = parent.number + 1n;
    const execBlock = this.executionBlock({ number, timestamp, gasLimit, baseFeePerGas: baseFee });
    const vm = await this.liveVmFor(timestamp);
    const built = await buildBlock(
      {
        parent,
        number,
        timestamp,
        feeState,
        baseFee,
        execBlock,
        vm,
        state: this.live,
        extraBuilder: this.extraBuilder,
        logger: this.logger,
        executableTx: (tx) => this.executableTx(tx, timestamp),
        senderRefusal: (sender) => this.senderRefusal(this.live, timestamp, sender),
        dropFrom: (sender, nonce, reason) => {
          for (const d of this.pool.dropFrom(sender, nonce)) this.emit('droppedTx', d.hash, reason);
        },
      },
      candidates.txs,
    );
    if (!built) {
      if (candidates.txs.length > 0) await this.resetLive();
      return false;
    }
    await this.accept(built, candidates.startNonces.keys());
    return true;
  }

  /**
   * Commits a built block in one database transaction and makes it the head; then clears the
   * pool of what it included and of what its senders' nonces passed.
   */
  private async accept(built: BuiltBlock, senders: Iterable<string>): Promise<void> {
    const { number, hash, header, headerRlp, blockBytes, stateRoot, included, storedTxs, logs, extra } =
      built;
    const acceptedMs = this.ctx.clock.nowMs();
    const index = this.config.blockIndex ? this.ctx.index(this.config.blockIndex) : undefined;
    try {
      this.ctx.db.transaction(() => {
        this.trieDb.flushInto(stateRoot);
        this.store.putBlock(
          { number, hash, header: headerRlp, bytes: blockBytes, txCount: included.length, acceptedMs },
          storedTxs,
          logs,
          (extra?.atomicTxs ?? []).map((a) => ({ ...a, blockNumber: number })),
        );
        extra?.commit();
        if (index)
          index.appendBlock(
            cb58Id(hash),
            cb58Id(header.parentHash),
            blockBytes,
            acceptedMs,
            proposerWrapAt(this.ctx, Number(header.timestamp)),
          );
        this.ctx.clock.persist();
      });
    } catch (err) {
      index?.reload();
      await this.resetLive();
      throw err;
    }
    this.trieDb.committed();
    this.head = { number, hash, header };
    this.hashCache.set(number, hash);
    this.recentCallTraces.set(
      number,
      included.map((i) => ({ txHash: bytesToHex(i.tx.hash()), result: i.trace })),
    );
    if (this.recentCallTraces.size > 256)
      this.recentCallTraces.delete(this.recentCallTraces.keys().next().value!);
    for (const { tx } of included) this.pool.remove(bytesToHex(tx.hash()));
    for (const sender of senders) {
      const acct = await this.live.getAccount(createAddressFromString(sender));
      this.pool.dropBelow(sender, acct?.nonce ?? 0n);
    }
    // legacypool's reorg after a new head: the moved nonces may leave the pool over its limits.
    this.enforcePoolLimits();
    this.live.trimCaches(LIVE_CACHE_ACCOUNTS);
    extra?.accepted();
    const accepted: AcceptedBlock = { number, hash, header, txHashes: storedTxs.map((t) => t.hash), logs };
    this.emit('block', accepted);
  }

  private async liveVmFor(timestamp: bigint): Promise<VM> {
    const key = this.precompiles.activeKey(Number(timestamp));
    if (!this.liveVm || this.liveVm.key !== key)
      this.liveVm = { key, vm: await this.vmFor(this.live, timestamp) };
    return this.liveVm.vm;
  }

  /** Drops uncommitted changes: the live state goes back to the head's root. */
  private async resetLive(): Promise<void> {
    this.recentCallTraces.clear();
    this.trieDb.clear();
    this.live = blockStateAt(this.common, this.trieDb, this.head.header.stateRoot);
    this.liveVm = undefined;
  }
}

/** Block ids in the index are cb58 of the hash, like every other id the node reports. */
function cb58Id(hash: Uint8Array): string {
  return toCb58(hash);
}

export async function createEvmChain(ctx: ChainContext, config: EvmChainConfig): Promise<EvmChain> {
  const chain = new EvmChain(ctx, config);
  await chain.open();
  return chain;
}
