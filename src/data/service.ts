/**
 * The data platform's composition root, used by the CLI roles: opens the store, runs the
 * indexers against a node URL (over HTTP, exactly as against any node) and/or serves the REST
 * API. `flurry start` runs both beside the node; `flurry indexer` and `flurry api` run one each,
 * so operators can scale the API out over one PostgreSQL database.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from '../shared/logger.js';
import { NETWORKS, type NetworkIdentity } from '../shared/networks.js';
import { loadApiAccessConfig, scaleTier, type Currency } from './api/api-keys.js';
import type { RouteDeps } from './api/routes/deps.js';
import { createEvmRoutes } from './api/routes/evm/index.js';
import { startDataApi, type RunningDataApi } from './api/server.js';
import { startEvmIndexer, type RunningEvmIndexer } from './indexer/evm/evm-indexer.js';
import { METRICS_PUBLISHED_TIER } from './metrics/app.js';
import { startMetricsService, type RunningMetricsService } from './metrics/server.js';
import { nftResolverOptionsFromEnv } from './nft/config.js';
import { startNftFetcher, type RunningNftFetcher } from './nft/fetcher.js';
import { createMetadataResolver } from './nft/metadata-resolver.js';
import type { IndexedNetwork } from './indexer/primary/network.js';
import { startPrimaryIndexer, type PrimaryIndexer } from './indexer/primary/primary-indexer.js';
import { createNodeClient } from './internal/node-client.js';
import { createDatabase, type DataDatabase } from './store/database.js';
import { getMeta } from './store/queries/meta.js';
import type { DataSchema } from './store/schema.js';

export interface DataServiceOptions {
  indexer: boolean;
  api: boolean;
  dataDir: string;
  /** `postgres://…`; absent: SQLite `data.db` in dataDir. */
  databaseUrl?: string;
  /** Node to index (required with `indexer`); also used by the API for live validator figures. */
  nodeUrl?: string;
  host: string;
  port: number;
  /** Port of the metrics service (served with the API when given). */
  metricsPort?: number;
  /** Network the API assumes while the store has not learned one from an indexer yet. */
  network: NetworkIdentity;
  apiKeysFile?: string;
  /** JSON text of the API keys config (FLURRY_API_KEYS), used when no file is given. */
  apiKeysJson?: string;
  /** Containers per indexer transaction (≤ 1024). */
  batchSize?: number;
  /** REST and metrics ports: ms a client may take to send a request (0: none). */
  httpReadTimeoutMs?: number;
  logger: Logger;
  version: string;
  /**
   * Indexer: wait for a node that is not reachable yet rather than fail the start (the
   * `indexer` role, whose node may start after it); aborting gives up.
   */
  waitForNode?: { signal?: AbortSignal };
  /** Further REST routes (e.g. the signature aggregator). */
  extraRoutes?: (ctx: {
    db: Kysely<DataSchema>;
    network: NetworkIdentity;
    prices: Partial<Record<Currency, number>>;
  }) => FastifyPluginAsync<RouteDeps>[];
}

export interface RunningDataService {
  readonly database: DataDatabase;
  readonly network: NetworkIdentity;
  readonly api?: RunningDataApi;
  readonly primary?: PrimaryIndexer;
  readonly evm?: RunningEvmIndexer;
  readonly metrics?: RunningMetricsService;
  /** Metrics service base URL, when it runs. */
  readonly metricsUrl?: string;
  /** REST base URL and docs page, when the API runs. */
  readonly url?: string;
  readonly docsUrl?: string;
  close(): Promise<void>;
}

export class DataServiceError extends Error {
  override readonly name = 'DataServiceError';
}

/** A full network identity for what an indexer learned from its node. */
function identityOf(indexed: IndexedNetwork): NetworkIdentity {
  return { ...NETWORKS[indexed.name], ...indexed };
}

export async function startDataService(options: DataServiceOptions): Promise<RunningDataService> {
  const access = options.api ? loadApiAccessConfig(options.apiKeysFile, options.apiKeysJson) : undefined;
  if (options.indexer && !options.nodeUrl) throw new DataServiceError('the indexer needs --node-url');
  const database = await createDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  const { logger } = options;
  let primary: PrimaryIndexer | undefined;
  let evm: RunningEvmIndexer | undefined;
  let api: RunningDataApi | undefined;
  let metrics: RunningMetricsService | undefined;
  let nftFetcher: RunningNftFetcher | undefined;
  const closeAll = async () => {
    await metrics?.close().catch(() => {});
    await api?.close().catch(() => {});
    await nftFetcher?.stop().catch(() => {});
    await primary?.stop().catch(() => {});
    await evm?.stop().catch(() => {});
    await database.close().catch(() => {});
  };
  let evmStarting: Promise<void> | undefined;
  try {
    let network = options.network;
    if (options.indexer) {
      const node = createNodeClient(options.nodeUrl!);
      primary = await startPrimaryIndexer({
        db: database.db,
        node,
        logger,
        batchSize: options.batchSize,
        waitForNode: options.waitForNode,
      });
      const identity = identityOf(primary.network);
      network = identity;
      // The EVM half starts while the API does: neither waits for the other.
      evmStarting = (async () => {
        try {
          evm = await startEvmIndexer({
            db: database.db,
            nodeUrl: options.nodeUrl!,
            network: identity,
            logger,
            // --indexer-batch-size also bounds EVM ranges (blocks carry many rows: at most 100).
            maxBlocksPerRange: options.batchSize !== undefined ? Math.min(options.batchSize, 100) : undefined,
          });
          nftFetcher = startNftFetcher({
            db: database.db,
            resolver: createMetadataResolver(nftResolverOptionsFromEnv()),
            logger,
          });
        } catch (err) {
          // The primary-network half keeps working when the node serves no EVM chain.
          logger.warn({ err }, 'EVM indexer did not start');
        }
      })();
    } else {
      const stored = await getMeta(database.db, 'network');
      if (stored) network = identityOf(JSON.parse(stored) as IndexedNetwork);
    }
    if (options.api) {
      const prices = access!.prices;
      const base = {
        host: options.host,
        port: options.port,
        network,
        database,
        access: access!,
        nodeUrl: options.nodeUrl,
        version: options.version,
        readTimeoutMs: options.httpReadTimeoutMs,
        logger,
      };
      const extra = [
        ...createEvmRoutes({ db: database.db, prices }),
        ...(options.extraRoutes?.({ db: database.db, network, prices }) ?? []),
      ];
      try {
        api = await startDataApi({ ...base, extraRoutes: extra });
      } catch (err) {
        // A port that cannot be bound is no route's fault: report it as it is.
        if ((err as NodeJS.ErrnoException).syscall) throw err;
        // A broken add-on route must not take the primary-network API down with it.
        logger.error(
          { err },
          'additional REST routes failed to register; serving the primary-network routes only',
        );
        api = await startDataApi(base);
      }
      if (options.metricsPort !== undefined)
        metrics = await startMetricsService({
          db: database.db,
          host: options.host,
          port: options.metricsPort,
          // The keys file's tierScale sizes the metrics budget as it sizes the built-in tiers.
          tier: access ? scaleTier(METRICS_PUBLISHED_TIER, access.tierScale) : undefined,
          logger,
          version: options.version,
          network,
          readTimeoutMs: options.httpReadTimeoutMs,
        });
      // Only once every port is bound: a metrics port in use fails the start after the API bound.
      logger.info(
        { url: api.url, metricsUrl: metrics?.url, store: database.location },
        'chain-data API listening',
      );
    }
    await evmStarting;
    return {
      database,
      network,
      api,
      primary,
      evm,
      metrics,
      metricsUrl: metrics?.url,
      url: api?.url,
      docsUrl: api ? `${api.url}/docs` : undefined,
      close: closeAll,
    };
  } catch (err) {
    await evmStarting;
    await closeAll();
    throw err;
  }
}
