/**
 * The chain-data REST service as a fastify plugin tree: error mapping, API keys and rate limits,
 * the OpenAPI document, then one plugin per route. Everything it needs arrives in `AppOptions`;
 * it opens nothing itself, so tests and the bench build it around any store.
 */
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Logger } from '../../shared/logger.js';
import type { ApiAccessConfig } from './api-keys.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { registerAccessControl, type ChainNetworkLookup } from './plugins/access.js';
import { registerCors } from './plugins/cors.js';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.js';
import { registerOpenApi } from './plugins/swagger.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RouteDeps } from './routes/deps.js';
import healthRoute from './routes/health.js';
import assetTransactionsRoute from './routes/primary-network/asset-transactions.js';
import balancesRoute from './routes/primary-network/balances.js';
import blockchainsRoute from './routes/primary-network/blockchains.js';
import rewardsRoute from './routes/primary-network/rewards.js';
import subnetsRoute from './routes/primary-network/subnets.js';
import utxosRoute from './routes/primary-network/utxos.js';
import validatorRoute from './routes/primary-network/validator.js';
import validatorsRoute from './routes/primary-network/validators.js';
import delegatorsRoute from './routes/primary-network/delegators.js';
import liveCheckRoute from './routes/live-check.js';
import addressActivityRoute from './routes/primary-network/address-activity.js';
import primaryNetworkBlocksRoute from './routes/primary-network/blocks.js';
import l1ValidatorsRoute from './routes/primary-network/l1-validators.js';
import networkDetailsRoute from './routes/primary-network/network-details.js';
import pendingRewardsRoute from './routes/primary-network/pending-rewards.js';
import supplyRoute from './routes/primary-network/supply.js';
import verticesRoute from './routes/primary-network/vertices.js';
import primaryNetworkTransactionsRoute from './routes/primary-network/transactions.js';
import { DEFAULT_HTTP_READ_TIMEOUT_MS, fastifyReadTimeouts } from '../../shared/http-timeouts.js';

export interface AppOptions {
  deps: RouteDeps;
  access: ApiAccessConfig;
  limiter: RateLimiter;
  version: string;
  /** How long a client may take to send a request, in ms (default 30 s; 0: none). */
  readTimeoutMs?: number;
  logger?: Logger;
  /** The network of an indexed EVM chain, for API keys restricted to some networks. */
  chainNetwork?: ChainNetworkLookup;
  /** Further route plugins (e.g. the signature aggregator), registered after the built-in ones. */
  extraRoutes?: FastifyPluginAsync<RouteDeps>[];
}

const ROUTES: FastifyPluginAsync<RouteDeps>[] = [
  healthRoute,
  utxosRoute,
  assetTransactionsRoute,
  subnetsRoute,
  blockchainsRoute,
  balancesRoute,
  rewardsRoute,
  validatorRoute,
  validatorsRoute,
  delegatorsRoute,
  primaryNetworkTransactionsRoute,
  liveCheckRoute,
  primaryNetworkBlocksRoute,
  verticesRoute,
  networkDetailsRoute,
  addressActivityRoute,
  pendingRewardsRoute,
  l1ValidatorsRoute,
  supplyRoute,
];

export async function buildDataApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Requests are not logged one by one; failures are logged by the error handler.
    logger: false,
    // Fastify waits for a request body for ever by default: a client trickling one held its
    // connection open indefinitely.
    ...fastifyReadTimeouts(options.readTimeoutMs ?? DEFAULT_HTTP_READ_TIMEOUT_MS),
    bodyLimit: 1 << 20,
    return503OnClosing: true,
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false },
    },
    schemaController: { compilersFactory: lazySchemaCompilers() },
    frameworkErrors,
  });
  registerErrorHandling(app, options.logger);
  // Before access control: a browser's preflight carries no key and is not metered.
  registerCors(app);
  registerAccessControl(app, options.access, options.limiter, options.deps.network, options.chainNetwork);
  await registerOpenApi(app, {
    title: 'Flurry chain-data API',
    version: options.version,
    description:
      'Primary-network UTXOs, balances, asset transactions, subnets, validators and rewards, indexed from an Avalanche-compatible node.',
    apiKeys: true,
  });
  for (const route of [...ROUTES, ...(options.extraRoutes ?? [])]) await app.register(route, options.deps);
  return app;
}
