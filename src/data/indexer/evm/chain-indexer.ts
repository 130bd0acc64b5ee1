/**
 * Follows one EVM chain: backfills from its checkpoint in batched ranges (the next range is
 * fetched while the current one is written), then follows the head by polling eth_blockNumber.
 * Each range is written with its checkpoint in one transaction (write-batch.ts), so a crash at
 * any point resumes exactly where the store says.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../../shared/logger.js';
import type { DataSchema } from '../../store/schema.js';
import { readCheckpoint } from '../../store/batch.js';
import { createHeartbeat } from '../../store/queries/heartbeats.js';
import { decodeAtomicTxs, type AtomicNetwork, type AtomicRows } from './atomic-txs.js';
import { decodeBlock, type DecodedBlock, type RawBlock } from './decode-block.js';
import { fetchRange, type FetchCapabilities } from './fetch-range.js';
import { firstTokenEvents } from './first-token-events.js';
import { EvmRpcClient } from './rpc-client.js';
import { checkEvmParent, checkEvmStoredChain, EvmChainMismatchError } from './continuity.js';
import { readContractInfo } from './token-info.js';
import { evmSource, writeEvmBatch, type EvmBatch } from './write-batch.js';
import { NodeOutage } from '../node-outage.js';
import { RivalIndexer } from '../rival-indexer.js';
import { StoreOutage } from '../store-outage.js';

export interface EvmChainSource {
  blockchainId: string;
  evmChainId: number;
  rpcUrl: string;
}

export interface ChainIndexerOptions {
  /**
   * The primary network: the chain with its C-chain id has its atomic txs (blockExtraData)
   * indexed as UTXO rows and spends.
   */
  atomic?: AtomicNetwork;
  /** Largest range fetched and written at once while backfilling. */
  maxBlocksPerRange?: number;
  /** Head polling interval once caught up. */
  pollMs?: number;
  /** Concurrent batches in flight towards the node. */
  logger?: Logger;
}

interface Prepared {
  from: number;
  to: number;
  batch: EvmBatch;
}

export class EvmChainIndexer {
  private readonly rpc: EvmRpcClient;
  private readonly source: string;
  private readonly caps: FetchCapabilities = { blockReceipts: true, tracing: true };
  /** Contracts whose standard and metadata are already stored. */
  private readonly knownContracts = new Set<string>();
  /**
   * Contracts whose metadata was read once they were tokens (at or after their first token
   * event), so their later transfers need no look-up; see first-token-events.ts.
   */
  private readonly readAsTokens = new Set<string>();
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private indexedUpTo = -1;
  private waiters: { height: number; resolve: () => void }[] = [];
  private readonly maxBlocks: number;
  private readonly pollMs: number;
  /** Records that the chain's node answered (health check; see queries/heartbeats.ts). */
  private readonly beat: () => void;

  constructor(
    private readonly db: Kysely<DataSchema>,
    readonly chain: EvmChainSource,
    private readonly options: ChainIndexerOptions = {},
  ) {
    this.rpc = new EvmRpcClient(chain.rpcUrl);
    this.source = evmSource(chain.blockchainId);
    this.maxBlocks = options.maxBlocksPerRange ?? 100;
    this.pollMs = options.pollMs ?? 100;
    this.beat = createHeartbeat(db, this.source);
  }

  /** Height of the newest block written (-1 before the first). */
  get height(): number {
    return this.indexedUpTo;
  }

  start(): void {
    if (this.loop) return;
    this.loop = this.run().catch((err) =>
      this.options.logger?.error({ err, chain: this.chain }, 'EVM indexer stopped'),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /** Resolves once block `height` is in the store. */
  waitFor(height: number): Promise<void> {
    if (this.indexedUpTo >= height) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ height, resolve }));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    const log = this.options.logger;
    const chain = this.chain.evmChainId;
    const start = await this.startingPoint();
    if (start === undefined) return;
    let next = start;
    this.advanced(next - 1);
    await this.checkStoredChain(next);
    let failures = 0;
    let pending: Promise<Prepared> | undefined;
    const outage = new NodeOutage(log, { chain, node: this.chain.rpcUrl });
    const storeAway = new StoreOutage(log, { chain });
    const rivals = new RivalIndexer(log, { chain });
    while (!this.stopped) {
      try {
        let prepared: Prepared;
        if (pending) {
          prepared = await pending;
          pending = undefined;
        } else {
          const head = Number(BigInt(await this.rpc.call<string>('eth_blockNumber')));
          this.beat();
          outage.answered();
          if (head < next) {
            await this.sleep(this.pollMs);
            continue;
          }
          prepared = await this.prepare(next, Math.min(head, next + this.maxBlocks - 1));
        }
        // Fetch the following range while this one is written.
        const head = Number(BigInt(await this.rpc.call<string>('eth_blockNumber')));
        this.beat();
        if (head > prepared.to) {
          pending = this.prepare(prepared.to + 1, Math.min(head, prepared.to + this.maxBlocks));
          pending.catch(() => {});
        }
        const first = prepared.batch.blocks[0];
        if (first) await checkEvmParent(this.db, chain, first.block);
        await writeEvmBatch(this.db, this.source, prepared.from, prepared.to + 1, prepared.batch);
        storeAway.answered();
        for (const c of prepared.batch.contracts) this.knownContracts.add(c.address);
        for (const b of prepared.batch.blocks) for (const t of b.tokens.keys()) this.readAsTokens.add(t);
        next = prepared.to + 1;
        this.advanced(prepared.to);
        failures = 0;
      } catch (err) {
        // Another chain than the store's: retrying cannot help and writing would mix the two.
        if (err instanceof EvmChainMismatchError) throw err;
        pending = undefined;
        if (rivals.wroteFirst(err)) {
          // Go on at once from the checkpoint the other indexer left.
          next = await readCheckpoint(this.db, this.source).catch(() => next);
          continue;
        }
        failures++;
        if (!outage.failed(err) && !storeAway.failed(err))
          log?.warn({ err, chain, next, failures }, 'EVM indexer: range failed, retrying');
        next = await readCheckpoint(this.db, this.source).then(
          (at) => {
            storeAway.answered();
            return at;
          },
          () => next,
        );
        await this.sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
    await pending?.catch(() => {});
  }

  /**
   * The contracts already stored and the checkpoint to resume from, read again after a failure
   * (a store that is away or busy a moment) instead of ending the chain's indexing for good;
   * undefined once stopped.
   */
  private async startingPoint(): Promise<number | undefined> {
    for (let failures = 1; !this.stopped; failures++) {
      try {
        const known = await this.db
          .selectFrom('evm_contracts')
          .select('address')
          .where('chain', '=', this.chain.evmChainId)
          .execute();
        for (const k of known) this.knownContracts.add(k.address);
        return await readCheckpoint(this.db, this.source);
      } catch (err) {
        this.options.logger?.warn(
          { err, chain: this.chain.evmChainId, failures },
          'EVM indexer: reading where to start failed; retrying',
        );
        await this.sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
    return undefined;
  }

  /** The start-up check of `continuity.ts`, retried while the node cannot answer it. */
  private async checkStoredChain(next: number): Promise<void> {
    for (let failures = 1; !this.stopped; failures++) {
      try {
        return await checkEvmStoredChain(this.db, this.rpc, this.chain.evmChainId, next);
      } catch (err) {
        if (err instanceof EvmChainMismatchError) throw err;
        await this.sleep(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  private async prepare(from: number, to: number): Promise<Prepared> {
    const fetched = await fetchRange(this.rpc, from, to, this.caps, (err) =>
      this.options.logger?.warn(
        { chain: this.chain.evmChainId, err: err.message },
        'node does not serve debug_traceBlockByNumber: internal transactions are not indexed',
      ),
    );
    const blocks: DecodedBlock[] = fetched.map((f) =>
      decodeBlock(this.chain.evmChainId, f.block, f.receipts, f.traces),
    );
    const fresh = new Map<string, 'ERC-20' | 'ERC-721' | 'ERC-1155' | undefined>();
    const known = new Map<string, 'ERC-20' | 'ERC-721' | 'ERC-1155'>();
    for (const b of blocks) {
      for (const d of b.deployments) if (!this.knownContracts.has(d.address)) fresh.set(d.address, undefined);
      for (const [address, kind] of b.tokens)
        if (!this.knownContracts.has(address) || fresh.has(address)) fresh.set(address, kind);
        else if (!this.readAsTokens.has(address)) known.set(address, kind);
    }
    // Stored at deployment but only now a token (a proxy initialised later): read them again.
    for (const address of await firstTokenEvents(this.db, this.chain.evmChainId, from, known.keys()))
      fresh.set(address, known.get(address));
    const contracts = await readContractInfo(this.rpc, fresh, 'latest');
    const atomic = this.atomicTxsOf(fetched.map((f) => f.block));
    return {
      from,
      to,
      batch: {
        chain: this.chain.evmChainId,
        blockchainId: this.chain.blockchainId,
        blocks,
        contracts,
        atomic,
      },
    };
  }

  /** The C-chain's atomic txs of a range, as UTXO rows and spends (undefined for other chains). */
  private atomicTxsOf(blocks: RawBlock[]): AtomicRows | undefined {
    const network = this.options.atomic;
    if (!network || network.cChainId !== this.chain.blockchainId) return undefined;
    const rows: AtomicRows = { utxos: [], spends: [], transactions: [], addresses: [], burned: 0n };
    for (const b of blocks) {
      if (!b.blockExtraData || b.blockExtraData === '0x') continue;
      const decoded = decodeAtomicTxs(network, {
        number: Number(BigInt(b.number)),
        hash: b.hash,
        timestamp: Number(BigInt(b.timestamp)),
        extraDataHex: b.blockExtraData,
      });
      rows.utxos.push(...decoded.utxos);
      rows.spends.push(...decoded.spends);
      rows.transactions.push(...decoded.transactions);
      rows.addresses.push(...decoded.addresses);
      rows.burned += decoded.burned;
    }
    return rows;
  }

  private advanced(height: number): void {
    this.indexedUpTo = height;
    const ready = this.waiters.filter((w) => w.height <= height);
    this.waiters = this.waiters.filter((w) => w.height > height);
    for (const w of ready) w.resolve();
  }
}
