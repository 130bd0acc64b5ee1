/**
 * The metrics service as a fastify app: its error bodies (`{message: [..], error, statusCode}`),
 * CORS, the OpenAPI document, metering per client address with compute units (429 with
 * retry-after when spent; each route's weight is set here), then one plugin per route group in
 * routes/. Everything it needs arrives in `MetricsAppOptions`; it listens on nothing itself
 * (server.ts does), so tests can inject requests into it.
 */
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from '../../shared/logger.js';
import type { NetworkIdentity } from '../../shared/networks.js';
import { DEFAULT_HTTP_READ_TIMEOUT_MS, fastifyReadTimeouts } from '../../shared/http-timeouts.js';
import { scaleTier, type Tier } from '../api/api-keys.js';
import { lazySchemaCompilers } from '../api/lazy-schema-compilers.js';
import { createPageTokens } from '../api/page-token.js';
import { registerCors } from '../api/plugins/cors.js';
import { STATUS_TEXT } from '../api/plugins/errors.js';
import { isOpenApiPath, registerOpenApi } from '../api/plugins/swagger.js';
import { pooledUsage } from '../api/pooled-usage.js';
import { createRateLimiter, rateLimitHeaders } from '../api/rate-limiter.js';
import {
  InvalidPageTokenError,
  InvalidParameterError,
  NotFoundError,
  RateLimitedError,
} from '../internal/errors.js';
import { toStoreError } from '../store/database.js';
import { pageTokenSecret } from '../store/queries/meta.js';
import type { DataSchema } from '../store/schema.js';
import { createUuidPageTokens } from './page-tokens.js';
import { createSignedPage } from './signed-page.js';
import avgTpsRoute from './routes/avg-tps.js';
import btcbBridgedRoute, { BTCB_PATH } from './routes/btcb-bridged.js';
import chainMetricsRoutes from './routes/chain-metrics.js';
import chainsRoutes from './routes/chains.js';
import type { MetricsRouteDeps } from './routes/deps.js';
import healthRoutes, { HEALTH_PATH, LIVE_PATH } from './routes/health.js';
import icmRoutes from './routes/icm.js';
import l1ValidatorFeesRoutes from './routes/l1-validator-fees.js';
import stakingRoute from './routes/staking.js';
import validatorAddressesRoute, { VALIDATOR_ADDRESSES_PATH } from './routes/validator-addresses.js';
import { logRequestFailure } from '../internal/request-log.js';

/** The real metrics service's budget per client address. */
export const METRICS_PUBLISHED_TIER = { cuPerMinute: 8000, cuPerDay: 1_200_000 };

export interface MetricsAppOptions {
  db: Kysely<DataSchema>;
  /** Budget per client address (default: METRICS_PUBLISHED_TIER × DEVNET_TIER_SCALE). */
  tier?: Omit<Tier, 'name'>;
  /** Compute units per request (the metrics route's execution weight: small = 20). */
  costPerRequest?: number;
  /** Page size of the legacy v1 listing. */
  v1PageSize?: number;
  now?: () => number;
  logger?: Logger;
  /** Version named in the OpenAPI document. */
  version?: string;
  /** The indexed network: which `{network}` the staking metrics answer (any, when not given). */
  network?: NetworkIdentity;
  /** How long a client may take to send a request, in ms (default 30 s; 0: none). */
  readTimeoutMs?: number;
}

/** Served free of charge, as the reference marks them (`x-execution-weight: free`). */
const UNCHARGED = new Set([HEALTH_PATH, LIVE_PATH]);

/** Served for 1 CU, as the reference marks them (`free`). */
const FREE_PATHS = new Set(['/v2/chains', '/v2/chains/:chainId']);
/** Marked `large` by the reference: 500 CU on the metrics scale, 25 times a `small` request. */
const LARGE_PATHS = new Set<string>([VALIDATOR_ADDRESSES_PATH, BTCB_PATH]);
const LARGE_PER_SMALL = 25;

/**
 * The route groups, in the order they are registered (which is also the order the OpenAPI
 * document lists their paths in).
 */
const ROUTES: FastifyPluginAsync<MetricsRouteDeps>[] = [
  chainsRoutes,
  healthRoutes,
  avgTpsRoute,
  chainMetricsRoutes,
  stakingRoute,
  icmRoutes,
  validatorAddressesRoute,
  l1ValidatorFeesRoutes,
  btcbBridgedRoute,
];

function body(statusCode: number, message: string) {
  return { message: [message], error: STATUS_TEXT[statusCode] ?? STATUS_TEXT[500], statusCode };
}

export async function buildMetricsApp(options: MetricsAppOptions): Promise<FastifyInstance> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const tier: Tier = { name: 'metrics', ...(options.tier ?? scaleTier(METRICS_PUBLISHED_TIER)) };
  const cost = options.costPerRequest ?? 20;
  // Budgets are pooled in the store (as the REST service's are), so metrics processes on one
  // database enforce one budget per client address between them.
  const limiter = createRateLimiter({ now, ...pooledUsage(db, options.logger) });
  const uuidTokens = createUuidPageTokens(db, now);
  // v2 keyset cursors use the data service's signed page tokens (secret shared through the store).
  const signedPage = createSignedPage(createPageTokens(await pageTokenSecret(db)));
  const app = Fastify({
    logger: false,
    ...fastifyReadTimeouts(options.readTimeoutMs ?? DEFAULT_HTTP_READ_TIMEOUT_MS),
    ajv: { customOptions: { coerceTypes: true, useDefaults: true } },
    schemaController: { compilersFactory: lazySchemaCompilers() },
    // Malformed URLs and over-long path params are refused before routing: same body as the rest.
    frameworkErrors: (err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      reply.status(400).type('application/json; charset=utf-8').send(body(400, err.message));
    },
  });

  // A last report on shutdown, so nothing spent is lost.
  app.addHook('onClose', () => limiter.close());

  app.setErrorHandler((err: FastifyError, request, reply) => {
    let status = 500;
    let message = 'Internal Server Error';
    if (err.validation) {
      status = 400;
      const v = err.validation[0];
      const name =
        (v.params as { missingProperty?: string })?.missingProperty ?? v.instancePath.replace(/^\//, '');
      const allowed = (v.params as { allowedValues?: unknown[] })?.allowedValues;
      message = `${err.validationContext}${name ? '.' + name : ''} ${allowed ? `must be one of ${allowed.join(', ')}` : v.message}`;
    } else if (err instanceof RateLimitedError) {
      status = 429;
      message = err.message;
      reply.header('retry-after', String(err.retryAfterSeconds));
    } else if (err instanceof InvalidParameterError || err instanceof InvalidPageTokenError) {
      status = 400;
      message = err.message;
    } else if (err instanceof NotFoundError) {
      status = 404;
      message = err.message;
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode === 404 ? 404 : 400;
      message = err.message;
    } else if (toStoreError(err).retryable) {
      // The database went away or does not answer: unavailable for now, as the REST service says.
      status = 503;
      message = 'the data store is unavailable; retry later';
    }
    logRequestFailure(options.logger, err, status, request.url, 'metrics request failed');
    reply.status(status).type('application/json; charset=utf-8').send(body(status, message));
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send(body(404, `Cannot ${request.method} ${request.url.split('?')[0]}`));
  });
  // Before metering: a browser's preflight is answered free of charge.
  registerCors(app);
  // Before the routes, so the document lists them; it and its page are served unmetered.
  await registerOpenApi(app, {
    title: 'Flurry metrics API',
    version: options.version ?? '0.0.0',
    description:
      'Metrics of on-chain activity of the indexed EVM chains (C-chain and Subnet-EVM L1s), computed from the indexer’s time buckets.',
  });
  app.addHook('onRequest', async (request, reply) => {
    if (UNCHARGED.has(request.routeOptions.url ?? '') || isOpenApiPath(request.routeOptions.url)) return;
    // Its own callers in the shared usage table: the REST service meters `anon:<ip>` separately.
    const route = request.routeOptions.url ?? '';
    const charge = limiter.charge(
      `metrics|anon:${request.ip}`,
      tier,
      FREE_PATHS.has(route) ? 1 : LARGE_PATHS.has(route) ? cost * LARGE_PER_SMALL : cost,
    );
    reply.headers(rateLimitHeaders(charge, tier));
    if (!charge.allowed) {
      throw new RateLimitedError(
        `rate limit exceeded: ${charge.limit} compute units per window`,
        charge.resetSeconds,
      );
    }
  });

  const deps: MetricsRouteDeps = {
    db,
    now,
    network: options.network,
    uuidTokens,
    v1PageSize: options.v1PageSize ?? 30,
    signedPage,
  };
  for (const route of ROUTES) await app.register(route, deps);
  return app;
}
