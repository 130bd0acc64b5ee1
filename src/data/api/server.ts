/**
 * Starts the REST service on its own port over an opened store: builds the read model, the
 * page-token signer (secret kept in the store) and the app, then listens.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../shared/logger.js';
import type { NetworkIdentity } from '../../shared/networks.js';
import { createSignatureAggregator } from '../aggregator/aggregator.js';
import { resolveEvmChain } from '../evm/read-model.js';
import { createNodeClient } from '../internal/node-client.js';
import type { DataDatabase } from '../store/database.js';
import { readHeartbeats } from '../store/queries/heartbeats.js';
import { pageTokenSecret } from '../store/queries/meta.js';
import type { ApiAccessConfig } from './api-keys.js';
import { buildDataApp, type AppOptions } from './app.js';
import { createPageTokens } from './page-token.js';
import { pooledUsage } from './pooled-usage.js';
import { createRateLimiter } from './rate-limiter.js';
import { createPrimaryNetworkRepository } from './repositories/primary-network.js';
import type { RouteDeps } from './routes/deps.js';
import { signatureAggregatorRoute } from './routes/signature-aggregator.js';
import { joinHostPort } from '../../shared/host-port.js';
import { UpstreamUnavailableError } from '../internal/errors.js';
import type { SignatureAggregator } from '../aggregator/aggregator.js';

/** The aggregator of an API started without `--node-url`: every request is a 503. */
const NO_NODE_AGGREGATOR: SignatureAggregator = {
  aggregate: () => Promise.reject(needsNode()),
  aggregateTx: () => Promise.reject(needsNode()),
};

function needsNode(): Error {
  return new UpstreamUnavailableError('this route needs the node: start the API with --node-url');
}

export interface DataApiConfig {
  host: string;
  port: number;
  network: NetworkIdentity;
  database: DataDatabase;
  access: ApiAccessConfig;
  /** Node for live figures (validator uptime, potential rewards); optional. */
  nodeUrl?: string;
  version: string;
  /** How long a client may take to send a request, in ms (default 30 s; 0: none). */
  readTimeoutMs?: number;
  logger?: Logger;
  extraRoutes?: AppOptions['extraRoutes'];
}

export interface RunningDataApi {
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** The read model, page tokens and health probe over an opened store. */
export async function createRouteDeps(config: {
  network: NetworkIdentity;
  database: DataDatabase;
  prices?: ApiAccessConfig['prices'];
  nodeUrl?: string;
}): Promise<RouteDeps> {
  const { db } = config.database;
  // The health check's probe: a short timeout, so a node that hangs cannot hold the report.
  const probe = config.nodeUrl ? createNodeClient(config.nodeUrl, 2000) : undefined;
  return {
    network: config.network,
    repo: createPrimaryNetworkRepository({
      db,
      network: config.network,
      prices: config.prices ?? {},
      node: config.nodeUrl ? createNodeClient(config.nodeUrl, 5000) : undefined,
    }),
    tokens: createPageTokens(await pageTokenSecret(db)),
    health: {
      async database() {
        await db.selectFrom('meta').select('key').limit(1).execute();
      },
      async checkpoints() {
        const rows = await db.selectFrom('checkpoints').selectAll().execute();
        return Object.fromEntries(rows.map((r) => [r.source, Number(r.next_index)]));
      },
      heartbeats: () => readHeartbeats(db),
      ...(probe && {
        async node() {
          await probe.call('/ext/info', 'info.getNetworkID');
        },
      }),
    },
  };
}

export async function startDataApi(config: DataApiConfig): Promise<RunningDataApi> {
  const deps = await createRouteDeps({ ...config, prices: config.access.prices });
  const { db } = config.database;
  // Budgets are pooled in the store, so every API process on one database enforces one budget.
  const limiter = createRateLimiter(pooledUsage(db, config.logger));
  const app = await buildDataApp({
    deps,
    access: config.access,
    limiter,
    version: config.version,
    readTimeoutMs: config.readTimeoutMs,
    logger: config.logger,
    chainNetwork: async (chainId) => {
      try {
        return (await resolveEvmChain(db, chainId)).network;
      } catch {
        return undefined;
      }
    },
    extraRoutes: [
      ...(config.extraRoutes ?? []),
      // Aggregation needs a node to read validator sets and peers from. Without one the route
      // still exists (in the OpenAPI document too) and answers 503 like every other route whose
      // figures only the node has; a 404 would tell the client there is no such API.
      signatureAggregatorRoute(
        config.nodeUrl ? createSignatureAggregator({ nodeUrl: config.nodeUrl }) : NO_NODE_AGGREGATOR,
      ),
    ],
  });
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    url: `http://${joinHostPort(config.host, port)}`,
    port,
    app,
    async close() {
      await app.close();
      await limiter.close();
    },
  };
}
