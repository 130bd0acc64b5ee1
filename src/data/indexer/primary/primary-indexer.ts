/**
 * Indexes the X- and P-chains of any node that serves the index API: per source (`X/block`,
 * `P/block`) it reads from its checkpoint in ranges of up to 1024 containers, decodes them, and
 * writes rows plus the advanced checkpoint in one transaction. Once caught up it polls the
 * node's last accepted position every `pollMs`, so new blocks reach the store within tens of
 * milliseconds. Errors from the node are retried with backoff; nothing is ever skipped.
 */
import { utils } from '@avalabs/avalanchejs';
import type { Kysely } from 'kysely';
import type { Logger } from '../../../shared/logger.js';
import { emptyBatch, readCheckpoint, writeBatch } from '../../store/batch.js';
import { withRetry } from '../../store/database.js';
import { createHeartbeat, writeHeartbeat } from '../../store/queries/heartbeats.js';
import { claimMeta } from '../../store/queries/meta.js';
import type { DataSchema } from '../../store/schema.js';
import type { NodeClient } from '../../internal/node-client.js';
import { UpstreamUnavailableError } from '../../internal/errors.js';
import { NodeOutage } from '../node-outage.js';
import { RivalIndexer } from '../rival-indexer.js';
import { StoreOutage } from '../store-outage.js';
import { fillBlockDetails } from './block-details.js';
import { decodeBlock, type DecodeContext, type StakerInfo } from './decode.js';
import { hasGenesisBlock, indexGenesis } from './genesis.js';
import { feeState, L1FeeReplay, readValidatorFeeRules } from './l1-fees.js';
import { createIndexReader, IndexNotServedError, MAX_RANGE, type Container } from './index-reader.js';
import { identifyNetwork, type IndexedNetwork } from './network.js';
import { readContainerBlock } from './proposervm.js';
import { checkParent, checkStoredChain, StoreChainMismatchError } from './continuity.js';

export interface PrimaryIndexerConfig {
  db: Kysely<DataSchema>;
  node: NodeClient;
  logger?: Logger;
  /** Containers per batch (≤ 1024). */
  batchSize?: number;
  /** Head polling interval once caught up. */
  pollMs?: number;
  /**
   * Wait for a node that cannot be reached yet (started after the indexer, restarting) instead
   * of failing the start; aborting the signal gives up with the last error.
   */
  waitForNode?: { signal?: AbortSignal };
}

export interface PrimaryIndexer {
  readonly network: IndexedNetwork;
  /** Resolves when every source has indexed everything the node had accepted when called. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

interface Source {
  name: 'X/block' | 'P/block';
  chain: 'X' | 'P';
}

/** How often a source whose node serves no index API looks again. */
const INDEX_RECHECK_MS = 30_000;
const INDEX_NOT_SERVED = 'the node serves no index API; this chain is not indexed until it does';

const SOURCES: Source[] = [
  { name: 'P/block', chain: 'P' },
  { name: 'X/block', chain: 'X' },
];

/** The node's identity; with `waitForNode`, retried (saying so) while the node is unreachable. */
async function identifyNode(config: PrimaryIndexerConfig): Promise<IndexedNetwork> {
  const { node, logger, waitForNode } = config;
  let waitingSince: number | undefined;
  let lastLog = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const network = await identifyNetwork(node);
      if (waitingSince !== undefined)
        logger?.info({ node: node.url, waitedMs: Date.now() - waitingSince }, 'node reachable; indexing');
      return network;
    } catch (err) {
      if (!waitForNode || !(err instanceof UpstreamUnavailableError) || waitForNode.signal?.aborted)
        throw err;
      const now = Date.now();
      waitingSince ??= now;
      // One line when the wait begins, then one every 30 s: visible, not a flood.
      if (now - lastLog >= 30_000) {
        lastLog = now;
        logger?.warn({ node: node.url, err: err.message }, 'waiting for the node; retrying');
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waitForNode.signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(100 * 2 ** attempt, 2000));
        waitForNode.signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
}

export async function startPrimaryIndexer(config: PrimaryIndexerConfig): Promise<PrimaryIndexer> {
  const { db, node, logger } = config;
  const batchSize = Math.min(config.batchSize ?? MAX_RANGE, MAX_RANGE);
  const pollMs = config.pollMs ?? 25;
  const network = await identifyNode(config);
  await checkStoreNetwork(db, network);
  for (const s of SOURCES)
    await checkStoredChain(
      db,
      createIndexReader(node, s.name),
      s.chain,
      s.chain === 'X' ? network.xChainID : network.pChainID,
      await withRetry(() => readCheckpoint(db, s.name)),
    );
  const feeRules = await readValidatorFeeRules(node);
  if (feeRules && !(await feeState(db, network.pChainID, await readCheckpoint(db, 'P/block'))))
    logger?.warn(
      'this store indexed the P-chain before L1 validator fees were followed: the fees they paid and their validations (the staking metrics of an L1) are not indexed (re-index to get them)',
    );
  // The node answered: a health check made before the first poll must not read the heartbeats
  // of an earlier run as a stalled indexer.
  for (const s of SOURCES) await writeHeartbeat(db, s.name, Date.now());

  let stopped = false;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  // Genesis rows are written in the background, so a start does not wait on them; the sources
  // (and caughtUp) wait for them, retrying with backoff while the node cannot answer.
  const genesis = (async () => {
    for (let failures = 1; !stopped; failures++) {
      try {
        await indexGenesis(db, node, network, logger);
        await ensureNativeAsset(db, node, network);
        return;
      } catch (err) {
        if (stopped) return;
        logger?.[failures > 3 ? 'error' : 'warn']({ err, failures }, 'indexing genesis failed; retrying');
        await sleep(Math.min(100 * 2 ** Math.min(failures, 5), 3000));
      }
    }
  })();
  const progress = new Map<string, number>();
  const waiters: { targets: Map<string, number>; resolve: () => void }[] = [];
  const notify = () => {
    for (const w of [...waiters]) {
      if ([...w.targets].every(([s, t]) => (progress.get(s) ?? 0) > t)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  async function runSource(source: Source): Promise<void> {
    await genesis;
    const reader = createIndexReader(node, source.name);
    const chainId = source.chain === 'X' ? network.xChainID : network.pChainID;
    const manager = utils.getManagerForVM(source.chain === 'X' ? 'AVM' : 'PVM');
    let failures = 0;
    let indexMissing = false;
    const outage = new NodeOutage(logger, { source: source.name, node: node.url });
    const storeAway = new StoreOutage(logger, { source: source.name });
    const rivals = new RivalIndexer(logger, { source: source.name });
    const beat = createHeartbeat(db, source.name);
    // While backfilling, the next range is fetched while the current one is decoded and written.
    let ahead: { start: number; last: number; containers: Promise<Container[]> } | undefined;
    while (!stopped) {
      try {
        const next = await withRetry(() => readCheckpoint(db, source.name));
        storeAway.answered();
        progress.set(source.name, next);
        notify();
        let last: number;
        let pending: Promise<Container[]>;
        if (ahead && ahead.start === next) {
          last = ahead.last;
          pending = ahead.containers;
        } else {
          last = await reader.lastIndex();
          beat();
          outage.answered();
          if (last < next) {
            ahead = undefined;
            await sleep(pollMs);
            continue;
          }
          pending = reader.range(next, Math.min(batchSize, last - next + 1));
        }
        ahead = undefined;
        const containers = await pending;
        const following = next + containers.length;
        if (containers.length > 0 && following <= last) {
          const containersAhead = reader.range(following, Math.min(batchSize, last - following + 1));
          containersAhead.catch(() => {}); // a failed prefetch is simply fetched again
          ahead = { start: following, last, containers: containersAhead };
        }
        if (containers.length === 0) {
          await sleep(pollMs);
          continue;
        }
        const rows = emptyBatch();
        const local = new Map<string, StakerInfo>();
        const ctx: DecodeContext = {
          chainId,
          chain: source.chain,
          hrp: network.hrp,
          manager,
          node,
          avaxAssetId: network.avaxAssetID,
          rememberStaker: (tx, info) => local.set(tx, info),
          staker: async (tx) => local.get(tx) ?? (await stakerFromStore(db, tx)),
          subnetValidatorTx: (nodeId, subnetId) => subnetValidatorFromStore(db, nodeId, subnetId),
        };
        if (source.chain === 'P' && feeRules)
          ctx.l1Fees = await L1FeeReplay.load(db, chainId, feeRules, next);
        const reads = containers.map((c, i) => {
          if (c.index !== next + i)
            throw new Error(`index ${source.name} returned position ${c.index}, expected ${next + i}`);
          return readContainerBlock(source.chain, c.bytes);
        });
        const first = reads[0]!.block;
        await checkParent(db, source.chain, chainId, {
          height: Number(first.height),
          parentId: utils.base58check.encode(first.parentId),
        });
        // An index that holds the genesis (a Flurry data dir indexed before the node left it out)
        // has it at position 0; its row comes from the genesis step (genesis.ts) unless absent.
        const skipGenesis = next === 0 && first.height === 0n && (await hasGenesisBlock(db, chainId));
        for (let i = skipGenesis ? 1 : 0; i < containers.length; i++)
          await decodeBlock(ctx, containers[i]!, reads[i]!, rows);
        if (ctx.l1Fees) rows.l1Fees = ctx.l1Fees.rows();
        await withRetry(() => writeBatch(db, source.name, next, next + containers.length, rows), 3);
        beat();
        progress.set(source.name, next + containers.length);
        notify();
        failures = 0;
      } catch (err) {
        if (stopped) return;
        if (outage.failed(err) || storeAway.failed(err)) {
          ahead = undefined;
          await sleep(Math.min(100 * 2 ** Math.min(++failures, 5), 3000));
          continue;
        }
        if (rivals.wroteFirst(err)) {
          // Go on at once from the checkpoint the other indexer left.
          ahead = undefined;
          continue;
        }
        if (err instanceof IndexNotServedError) {
          // Not a failure that retrying soon can mend: say so once, then look again now and
          // then (the node may be restarted with its index), without an error line each time.
          if (!indexMissing) logger?.warn({ source: source.name, err: err.message }, INDEX_NOT_SERVED);
          indexMissing = true;
          ahead = undefined;
          await sleep(INDEX_RECHECK_MS);
          continue;
        }
        if (err instanceof StoreChainMismatchError) {
          // Retrying cannot help and writing would mix two chains: this source stops, its
          // heartbeat with it, so the health check reports the indexer as failed.
          logger?.error({ err, source: source.name }, 'indexing stopped');
          return;
        }
        ahead = undefined;
        failures++;
        logger?.[failures > 3 ? 'error' : 'warn'](
          { err, source: source.name, failures },
          'indexing failed; retrying',
        );
        await sleep(Math.min(100 * 2 ** Math.min(failures, 5), 3000));
      }
    }
  }

  // Rows indexed before block types and sizes were recorded get them from the node, once.
  const details = (async () => {
    await genesis;
    for (const s of SOURCES) {
      const chainId = s.chain === 'X' ? network.xChainID : network.pChainID;
      try {
        await fillBlockDetails(db, node, { ...s, chainId }, () => stopped, logger);
      } catch (err) {
        if (!stopped) logger?.warn({ err, source: s.name }, 'filling in block types and sizes failed');
      }
    }
  })();
  const loops = [...SOURCES.map((s) => runSource(s)), details];
  logger?.info({ node: node.url, network: network.name }, 'primary-network indexer started');

  return {
    network,
    async caughtUp() {
      await genesis;
      const targets = new Map<string, number>();
      for (const s of SOURCES) targets.set(s.name, await createIndexReader(node, s.name).lastIndex());
      await new Promise<void>((resolve) => {
        waiters.push({ targets, resolve });
        notify();
      });
    },
    async stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      await genesis;
      await Promise.all(loops);
    },
  };
}

async function stakerFromStore(db: Kysely<DataSchema>, tx: string): Promise<StakerInfo | undefined> {
  const r = await db.selectFrom('stakers').selectAll().where('tx_hash', '=', tx).executeTakeFirst();
  if (!r) return undefined;
  return {
    kind: r.kind as StakerInfo['kind'],
    nodeId: r.node_id,
    subnetId: r.subnet_id,
    amountStaked: String(BigInt(r.amount_staked)),
    startTs: Number(r.start_ts),
    endTs: Number(r.end_ts),
  };
}

async function subnetValidatorFromStore(db: Kysely<DataSchema>, nodeId: string, subnetId: string) {
  const r = await db
    .selectFrom('stakers')
    .select('tx_hash')
    .where('node_id', '=', nodeId)
    .where('subnet_id', '=', subnetId)
    .where('removed_tx', 'is', null)
    .orderBy('seq', 'desc')
    .executeTakeFirst();
  return r?.tx_hash;
}

/**
 * A store indexes one network; pointing it at another node's network is refused. The first
 * indexer claims the store for its network, also when two start at once on an empty store.
 */
export async function checkStoreNetwork(db: Kysely<DataSchema>, network: IndexedNetwork): Promise<void> {
  const prev = JSON.parse(await claimMeta(db, 'network', JSON.stringify(network))) as IndexedNetwork;
  if (
    prev.networkID !== network.networkID ||
    prev.xChainID !== network.xChainID ||
    prev.pChainID !== network.pChainID
  )
    throw new Error(
      `the data store holds network ${prev.networkID} (${prev.name}) but the node serves network ${network.networkID}; use another database`,
    );
}

/** The native asset, for a node that does not serve the genesis tx: its description, read once. */
async function ensureNativeAsset(
  db: Kysely<DataSchema>,
  node: NodeClient,
  network: IndexedNetwork,
): Promise<void> {
  const existing = await db
    .selectFrom('assets')
    .select('asset_id')
    .where('asset_id', '=', network.avaxAssetID)
    .executeTakeFirst();
  if (existing) return;
  const d = await node.call<{ name: string; symbol: string; denomination: string }>(
    '/ext/bc/X',
    'avm.getAssetDescription',
    {
      assetID: network.avaxAssetID,
    },
  );
  await db
    .insertInto('assets')
    .values({
      asset_id: network.avaxAssetID,
      name: d.name,
      symbol: d.symbol,
      denomination: Number(d.denomination),
      asset_type: 'secp256k1',
      cap: 'fixed',
      created_at: 0,
      tx_hash: network.avaxAssetID,
    })
    .onConflict((oc) => oc.column('asset_id').doNothing())
    .execute();
}
