/**
 * One EVM chain: the C-chain, and later every Subnet-EVM chain, differing only by their
 * `EvmChainConfig`. It keeps the accepted chain in SQLite, executes transactions with
 * @ethereumjs/vm, builds blocks itself around `runTx` (linear in the block size), and commits
 * each block — state trie nodes, block, receipts, logs, index entry, atomic effects — in one
 * database transaction. On start it resumes at the last accepted block.
 */
import { EventEmitter } from 'node:events';
import { createBlock, createBlockHeader, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import {
  Account,
  Address,
  bigIntToBytes,
  bytesToBigInt,
  bytesToHex,
  createAddressFromString,
  hexToBytes,
  setLengthLeft,
  toChecksumAddress,
} from '@ethereumjs/util';
import { createVM, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { Chain, ChainContext } from '../../chains/chain.js';
import { proposerWrapAt } from '../../api/proposervm.js';
import type { Logger } from '../../../shared/logger.js';
import { toCb58 } from '../../../shared/encoding.js';
import * as acp176 from './block/acp176.js';
import { genesisFeeFields } from './genesis-json.js';
import {
  BLACKHOLE_ADDRESS,
  EMPTY_ROOT,
  EMPTY_UNCLE_HASH,
  decodeHeader,
  encodeBlock,
  encodeHeader,
  extDataHash,
  hashHeader,
  type EvmHeader,
} from './block/evm-block.js';
import type { EvmChainConfig } from './chain-config.js';
import { createEvmCommon } from './common.js';
import { PrecompileRegistry } from './precompiles/registry.js';
import { bindPrecompiles } from './precompiles/bind.js';
import { predicateIntrinsicGas, withIntrinsicGas } from './precompiles/predicate-gas.js';
import { ChainStore, type StoredLog, type StoredTx } from './state/chain-store.js';
import { TrieDb, TrieNodeTable } from './state/trie-db.js';
import { blockStateAt, stateManagerAt, type BlockStateManager } from './state/world.js';
import { TxPool, feeCaps, type PooledTx } from './txpool/txpool.js';
import { orderedTrieRoot } from './block/ordered-trie.js';
import { CallTracer } from './trace/tracers.js';
import type { CustomPrecompile } from '@ethereumjs/evm';
import { blake2fPrecompile } from './precompiles/blake2f.js';

/** Accounts the block producer's state caches hold before they are emptied between blocks. */
const LIVE_CACHE_ACCOUNTS = 50_000;

export class EvmTxError extends Error {
  override readonly name = 'EvmTxError';
}

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

interface Head {
  number: bigint;
  hash: Uint8Array;
  header: EvmHeader;
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
  readonly pool = new TxPool();
  readonly precompiles: PrecompileRegistry;
  readonly logger: Logger;
  readonly desiredTargetExcess: bigint;
  extraBuilder?: ExtraBlockBuilder;

  private readonly trieDb: TrieDb;
  /** BLAKE2f with geth's failure words (the engine's words differ), in every VM. */
  private readonly blake2f: CustomPrecompile;
  private head!: Head;
  private live!: BlockStateManager;
  private liveVm?: { key: string; vm: VM };
  private readView?: { root: string; state: MerkleStateManager };
  private producing?: Promise<void>;
  private scheduled = false;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly hashCache = new Map<bigint, Uint8Array>();
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
  }

  async open(): Promise<void> {
    const last = this.store.lastBlock();
    if (last) {
      const header = decodeHeader(last.header);
      this.head = { number: last.number, hash: last.hash, header };
      this.live = blockStateAt(this.common, this.trieDb, header.stateRoot);
      this.logger.info({ height: Number(last.number) }, 'resumed at the last accepted block');
    } else {
      await this.writeGenesis();
    }
    if (this.config.blockTimeMs > 0) {
      this.timer = setInterval(() => void this.produce(), this.config.blockTimeMs);
      this.timer.unref();
    }
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
    await this.producing;
  }

  // ---- reads -------------------------------------------------------------------------------

  get latest(): Head {
    return this.head;
  }

  blockHashAt(n: bigint): Uint8Array | undefined {
    if (n === this.head.number) return this.head.hash;
    let h = this.hashCache.get(n);
    if (!h) {
      h = this.store.headerByNumber(n)?.hash;
      if (h) {
        if (this.hashCache.size > 512) this.hashCache.clear();
        this.hashCache.set(n, h);
      }
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

  /** A VM over `state` with the precompiles active at `timestamp`. */
  async vmFor(state: MerkleStateManager, timestamp: bigint): Promise<VM> {
    const active = this.precompiles.activeAt(Number(timestamp));
    const bound = bindPrecompiles(active, () => timestamp);
    const vm = await createVM({
      common: this.common,
      stateManager: state,
      blockchain: this.blockchainView(),
      evmOpts: { customPrecompiles: [this.blake2f, ...bound.customPrecompiles] },
    });
    bound.attach(vm);
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
    // geth's decoder knows the legacy, EIP-2930, EIP-1559 and blob types only (EIP-7702's is
    // Prague's), and words a typed transaction with no payload as too short.
    if (raw.length > 0 && raw[0] <= 0x7f) {
      if (raw.length <= 1) throw new EvmTxError('typed transaction too short');
      if (raw[0] < 1 || raw[0] > 3) throw new EvmTxError('transaction type not supported');
    }
    let tx: TypedTransaction;
    try {
      // Init code over the limit is the pool's refusal (submit), in its words and order.
      tx = createTxFromRLP(raw, { common: this.common, allowUnlimitedInitCodeSize: true });
    } catch (err) {
      const chainId = signedChainId(raw);
      if (chainId !== undefined && chainId !== BigInt(this.config.chainId))
        throw new EvmTxError(`invalid chain id for signer: have ${chainId} want ${this.config.chainId}`);
      throw new EvmTxError(`invalid transaction: ${(err as Error).message.split('\n')[0].split(' (')[0]}`);
    }
    return tx;
  }

  /**
   * Validates and pools a signed transaction; returns its hash. The checks and their words are
   * coreth's txpool's (ValidateTransaction, then ValidateTransactionWithState).
   */
  async submit(tx: TypedTransaction): Promise<string> {
    if (tx.type === 3)
      throw new EvmTxError('transaction type not supported: tx type 3 not supported by this pool');
    if (!tx.isSigned()) throw new EvmTxError('invalid transaction: not signed');
    const txChainId = (tx as any).chainId as bigint | undefined;
    if (tx.type === 0 && !tx.supports(155 as any) && txChainId === undefined && !unprotectedAllowed(tx)) {
      // Pre-EIP-155 legacy transactions are refused, but for those the reference's default allows.
      throw new EvmTxError('only replay-protected (EIP-155) transactions allowed over RPC');
    }
    if (txChainId !== undefined && txChainId !== BigInt(this.config.chainId)) {
      throw new EvmTxError(`invalid chain id for signer: have ${txChainId} want ${this.config.chainId}`);
    }
    let sender: Address;
    try {
      sender = tx.getSenderAddress();
    } catch {
      throw new EvmTxError('invalid sender');
    }
    const size = tx.serialize().length;
    if (size > TX_MAX_SIZE)
      throw new EvmTxError(`oversized data: transaction size ${size}, limit ${TX_MAX_SIZE}`);
    if (tx.to === undefined && tx.data.length > MAX_INIT_CODE_SIZE)
      throw new EvmTxError(
        `max initcode size exceeded: code size ${tx.data.length}, limit ${MAX_INIT_CODE_SIZE}`,
      );
    const maxGas = this.maxBlockGas();
    if (tx.gasLimit > maxGas)
      throw new EvmTxError(`exceeds block gas limit: tx gas (${tx.gasLimit}) > current max gas (${maxGas})`);
    const { maxFee, tip } = feeCaps(tx);
    if (tip > maxFee) throw new EvmTxError('max priority fee per gas higher than max fee per gas');
    const intrinsic = this.executableTx(tx, BigInt(this.ctx.clock.nowSeconds())).getIntrinsicGas();
    if (tx.gasLimit < intrinsic)
      throw new EvmTxError(
        `intrinsic gas too low: address ${toChecksumAddress(sender.toString())} tx gas (${tx.gasLimit}), minimum needed ${intrinsic}`,
      );
    // The pool's minimum tip: coreth and subnet-evm pool RPC transactions as remote ones (their
    // local-txs-enabled is off), held to tx-pool-price-limit, 1 wei by default; a legacy
    // gasPrice is its own tip.
    if (tip < POOL_MIN_TIP)
      throw new EvmTxError(`transaction underpriced: gas tip cap ${tip}, minimum needed ${POOL_MIN_TIP}`);
    const baseFee = this.nextBaseFee();
    if (maxFee < baseFee) {
      throw new EvmTxError(
        `transaction underpriced: address ${sender.toString()} gasFeeCap ${maxFee} < baseFee ${baseFee}`,
      );
    }
    const account = (await this.stateAt().getAccount(sender)) ?? new Account();
    if (tx.nonce < account.nonce)
      throw new EvmTxError(`nonce too low: next nonce ${account.nonce}, tx nonce ${tx.nonce}`);
    const balance = account.balance;
    const cost = txCost(tx);
    const funds = 'insufficient funds for gas * price + value';
    if (balance < cost)
      throw new EvmTxError(`${funds}: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`);
    // The sender's pending transactions must stay payable too (they would fail in the block).
    const run = this.pool.pendingRun(sender.toString(), account.nonce);
    const spent = run.reduce((sum, p) => sum + txCost(p.tx), 0n);
    const replaced = run.find((p) => p.nonce === tx.nonce);
    if (replaced) {
      const bump = cost - txCost(replaced.tx);
      if (balance < spent + bump)
        throw new EvmTxError(
          `${funds}: balance ${balance}, queued cost ${spent}, tx bumped ${bump}, overshot ${spent + bump - balance}`,
        );
    } else if (balance < spent + cost) {
      throw new EvmTxError(
        `${funds}: balance ${balance}, queued cost ${spent}, tx cost ${cost}, overshot ${spent + cost - balance}`,
      );
    }
    const { pooled } = this.pool.add(tx, sender.toString());
    this.requestBlock();
    if (!this.announce(pooled, replaced !== undefined, account.nonce)) {
      // The nonce read above may be a block old (one accepted while it was read, taking the
      // sender's earlier txs out of the pool): look again before calling the tx queued.
      const fresh = (await this.stateAt().getAccount(sender))?.nonce ?? 0n;
      if (fresh > account.nonce && this.pool.has(pooled.hash)) this.announce(pooled, false, fresh);
    }
    return pooled.hash;
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
    const nonceCache = new Map<string, bigint>();
    // Between blocks the producer's state holds exactly the head's state, with warm caches.
    for (const sender of this.pool.senders()) {
      const acct = await this.live.getAccount(createAddressFromString(sender));
      nonceCache.set(sender, acct?.nonce ?? 0n);
    }
    const candidates = this.pool.executable((s) => nonceCache.get(s) ?? 0n);
    if (candidates.length === 0 && !this.extraBuilder?.hasWork()) return false;

    const parent = this.head;
    const now = BigInt(this.ctx.clock.nowSeconds());
    const timestamp = now > parent.header.timestamp ? now : parent.header.timestamp;
    const feeState = this.nextFeeState(timestamp);
    const baseFee = this.baseFeeFor(feeState, timestamp);
    const gasLimit = feeState.capacity;
    const number = parent.number + 1n;
    const execBlock = this.executionBlock({ number, timestamp, gasLimit, baseFeePerGas: baseFee });
    const vm = await this.liveVmFor(timestamp);

    const included: { tx: TypedTransaction; result: RunTxResult; sender: Uint8Array; trace: unknown }[] = [];
    let gasUsed = 0n;
    const skipSender = new Set<string>();
    for (const p of candidates) {
      if (skipSender.has(p.sender)) continue;
      if (gasUsed + p.tx.gasLimit > gasLimit) {
        skipSender.add(p.sender);
        continue;
      }
      const tracer = new CallTracer();
      tracer.attach(vm);
      try {
        const result = await runTx(vm, {
          tx: this.executableTx(p.tx, timestamp),
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
        this.logger.debug({ tx: p.hash, err: msg }, 'dropped transaction');
        if (/is less than the block's baseFeePerGas/.test(msg)) {
          skipSender.add(p.sender);
          continue;
        }
        for (const d of this.pool.dropFrom(p.sender, p.nonce)) this.emit('droppedTx', d.hash, msg);
        skipSender.add(p.sender);
      } finally {
        tracer.detach(vm);
      }
    }

    let extra: ExtraBlockPart | undefined;
    if (this.extraBuilder?.hasWork()) {
      try {
        extra = await this.extraBuilder.build(this.live, {
          baseFee,
          capacityLeft: gasLimit - gasUsed,
          timestamp,
          height: number,
        });
      } catch (err) {
        this.logger.error({ err }, 'atomic part failed');
        extra = undefined;
      }
    }
    if (included.length === 0 && !extra) {
      if (candidates.length > 0) await this.resetLive();
      return false;
    }

    // Seal.
    const stateRoot = await this.live.getStateRoot();
    const txs = included.map((i) => i.tx);
    // Serialised once: the transactions root, the stored rows and the block body all use them.
    const rawTxs = txs.map((tx) => tx.serialize());
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

    const acceptedMs = this.ctx.clock.nowMs();
    const index = this.config.blockIndex ? this.ctx.index(this.config.blockIndex) : undefined;
    try {
      this.ctx.db.transaction(() => {
        this.trieDb.flushInto(stateRoot);
        this.store.putBlock(
          { number, hash, header: headerRlp, bytes: blockBytes, txCount: txs.length, acceptedMs },
          storedTxs,
          logs,
          (extra?.atomicTxs ?? []).map((a) => ({ ...a, blockNumber: number })),
        );
        extra?.commit();
        if (index)
          index.appendBlock(
            cb58Id(hash),
            cb58Id(parent.hash),
            blockBytes,
            acceptedMs,
            proposerWrapAt(this.ctx, Number(timestamp)),
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
    for (const [sender] of nonceCache) {
      const acct = await this.live.getAccount(createAddressFromString(sender));
      this.pool.dropBelow(sender, acct?.nonce ?? 0n);
    }
    this.live.trimCaches(LIVE_CACHE_ACCOUNTS);
    extra?.accepted();
    const accepted: AcceptedBlock = { number, hash, header, txHashes: storedTxs.map((t) => t.hash), logs };
    this.emit('block', accepted);
    return true;
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

  // ---- genesis -----------------------------------------------------------------------------

  private async writeGenesis(): Promise<void> {
    const state = stateManagerAt(this.common, this.trieDb, undefined);
    for (const [addr, acct] of this.config.genesis.alloc) {
      const address = createAddressFromString(addr);
      await state.putAccount(address, new Account(acct.nonce ?? 0n, acct.balance));
      if (acct.code) await state.putCode(address, acct.code);
      for (const [k, v] of acct.storage ?? []) {
        await state.putStorage(
          address,
          setLengthLeft(bigIntToBytes(k), 32),
          setLengthLeft(bigIntToBytes(v), 32),
        );
      }
    }
    // Precompiles active at genesis carry code 0x01 so Solidity's extcodesize check passes.
    for (const p of this.precompiles.activeAt(this.config.genesis.timestamp)) {
      const address = createAddressFromString(p.address);
      await state.putAccount(address, new Account(1n, 0n));
      await state.putCode(address, Uint8Array.of(1));
    }
    const stateRoot = await state.getStateRoot();
    // The same fee fields the genesis JSON of the chain's CreateChainTx states (genesis-json.ts).
    const fees = genesisFeeFields(this.config);
    const header: EvmHeader = {
      parentHash: new Uint8Array(32),
      uncleHash: EMPTY_UNCLE_HASH,
      coinbase: new Uint8Array(20),
      stateRoot,
      transactionsRoot: EMPTY_ROOT,
      receiptsRoot: EMPTY_ROOT,
      logsBloom: new Uint8Array(256),
      difficulty: 0n,
      number: 0n,
      gasLimit: this.config.genesis.gasLimit,
      gasUsed: 0n,
      timestamp: BigInt(this.config.genesis.timestamp),
      extraData: fees.extraData,
      mixHash: new Uint8Array(32),
      nonce: new Uint8Array(8),
      extDataHash: extDataHash(new Uint8Array()),
      baseFeePerGas: fees.baseFeePerGas,
      extDataGasUsed: 0n,
      blockGasCost: 0n,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconBlockRoot: new Uint8Array(32),
    };
    const headerRlp = encodeHeader(header);
    const hash = hashHeader(headerRlp);
    const bytes = encodeBlock(headerRlp, [], new Uint8Array());
    const acceptedMs = this.ctx.clock.nowMs();
    try {
      this.ctx.db.transaction(() => {
        this.trieDb.flushInto(stateRoot);
        this.store.putBlock(
          { number: 0n, hash, header: headerRlp, bytes, txCount: 0, acceptedMs },
          [],
          [],
          [],
        );
      });
    } catch (err) {
      this.trieDb.clear();
      throw err;
    }
    this.trieDb.committed();
    this.head = { number: 0n, hash, header };
    this.live = blockStateAt(this.common, this.trieDb, stateRoot);
  }
}

/** The chain id a raw transaction was signed for, read without the engine (which refuses a foreign one). */
/** What a transaction may cost its sender at most (geth's tx.Cost()): gas × fee cap + value. */
function txCost(tx: TypedTransaction): bigint {
  return tx.gasLimit * feeCaps(tx).maxFee + tx.value;
}

/** coreth's txpool bound on one transaction's encoding (txMaxSize, 4 slots of 32 KiB). */
const TX_MAX_SIZE = 4 * 32 * 1024;
/** coreth's and subnet-evm's tx-pool-price-limit default: the least tip a pooled tx may offer. */
const POOL_MIN_TIP = 1n;
/** EIP-3860's bound on a creation's init code. */
const MAX_INIT_CODE_SIZE = 49_152;

function signedChainId(raw: Uint8Array): bigint | undefined {
  try {
    if (raw.length > 0 && raw[0] <= 0x7f) {
      const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
      return bytesToBigInt(fields[0]);
    }
    const fields = RLP.decode(raw) as Uint8Array[];
    const v = bytesToBigInt(fields[6]);
    return v >= 35n ? (v - 35n) / 2n : undefined;
  } catch {
    return undefined;
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

/**
 * The reference's default `allow-unprotected-tx-hashes` (coreth and subnet-evm): the EIP-1820
 * registry's keyless deployment.
 */
const ALLOWED_UNPROTECTED_TX_HASHES = new Set([
  'fefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e',
]);

/**
 * The unprotected transactions the reference admits over RPC by default (`UnprotectedAllowed`):
 * a listed hash, or Nick's method — a keyless deployment whose signature is a made-up pattern
 * (nonce 0, r = s), as TeleporterMessenger and the deterministic factories are deployed on
 * every chain at one address.
 */
function unprotectedAllowed(tx: TypedTransaction): boolean {
  if (ALLOWED_UNPROTECTED_TX_HASHES.has(Buffer.from(tx.hash()).toString('hex'))) return true;
  return tx.nonce === 0n && tx.r !== undefined && tx.r === tx.s;
}
