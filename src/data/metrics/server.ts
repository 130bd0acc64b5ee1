/**
 * The metrics service: its own HTTP server (default port 9701), no authentication, metered per
 * client address with compute units (429 with retry-after when spent). It serves the legacy
 * `GET /v1/avg_tps/{chainId}` and the `GET /v2/chains/{chainId}/metrics/{metric}` the public
 * SDKs call and their rolling windows (`GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}`),
 * all read from the buckets the indexer maintains, the chains it has metrics of
 * (`GET /v2/chains`, `GET /v2/chains/{chainId}`), staking metrics from the indexed stakers and ICM
 * message counts (`GET /v2/icm/timeseries`, `GET /v2/icm/summary`) from the indexed messages, and
 * two Looking Glass lists: the addresses running validators during a time frame (from the
 * stakers) and the BTC.b bridgers (from the token transfers). Errors use the metrics body
 * `{message: [..], error, statusCode}`.
 */
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Logger } from '../../shared/logger.js';
import {
  InvalidPageTokenError,
  InvalidParameterError,
  NotFoundError,
  RateLimitedError,
} from '../internal/errors.js';
import { createPageTokens } from '../api/page-token.js';
import { pageTokenSecret } from '../store/queries/meta.js';
import { toStoreError } from '../store/database.js';
import { STATUS_TEXT } from '../api/plugins/errors.js';
import { createRateLimiter, ratelimitPolicy } from '../api/rate-limiter.js';
import { pooledUsage } from '../api/pooled-usage.js';
import { lazySchemaCompilers } from '../api/lazy-schema-compilers.js';
import { scaleTier, type Tier } from '../api/api-keys.js';
import { registerCors } from '../api/plugins/cors.js';
import { isOpenApiPath, registerOpenApi } from '../api/plugins/swagger.js';
import { PRIMARY_NETWORK_ID } from '../../shared/networks.js';
import type { DataSchema } from '../store/schema.js';
import { evmSource } from '../indexer/evm/write-batch.js';
import type { Span } from './buckets.js';
import { createUuidPageTokens } from './page-tokens.js';
import { METRICS, readSeries, type Metric } from './series.js';
import { readRollingWindows, ROLLING_WINDOW_METRICS, type RollingWindowMetric } from './rolling-window.js';
import { readStakingSeries, STAKING_METRICS, type StakingMetric } from './staking.js';
import { L1_FEE_METRICS, readL1FeeSeries } from './l1-validator-fees.js';
import { icmSummaryOf, readIcmSeries, readIcmSummary, type IcmCursor, type IcmGroupBy } from './icm.js';
import { readValidatorAddresses, type ValidatorAddressCursor } from './validator-addresses.js';
import { readBtcbBridgers, type BtcbCursor } from './btcb-bridged.js';
import {
  BtcbQuery,
  BtcbResponse,
  ChainsQuery,
  ERRORS,
  HealthCheck,
  IcmSeriesQuery,
  IcmSeriesResponse,
  IcmSummaryQuery,
  IcmSummaryResponse,
  L1FeeQuery,
  MetricsChain,
  RollingWindowResponse,
  StakingParams,
  StakingQuery,
  V1Params,
  V1Query,
  V1Response,
  V2Params,
  V2Query,
  V2Response,
  ValidatorAddressesParams,
  ValidatorAddressesQuery,
  ValidatorAddressesResponse,
} from './schemas.js';
import { parseCb58Id, parseNodeIdParam, resolveNetwork } from '../networks.js';
import type { NetworkIdentity } from '../../shared/networks.js';
import { DEFAULT_HTTP_READ_TIMEOUT_MS, fastifyReadTimeouts } from '../../shared/http-timeouts.js';
import { joinHostPort } from '../../shared/host-port.js';

/** The real metrics service's budget per client address. */
export const METRICS_PUBLISHED_TIER = { cuPerMinute: 8000, cuPerDay: 1_200_000 };

export interface MetricsServiceOptions {
  db: Kysely<DataSchema>;
  host: string;
  port: number;
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

export interface RunningMetricsService {
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** Served free of charge, as the reference marks them (`x-execution-weight: free`). */
const HEALTH_PATH = '/v2/health-check';
const LIVE_PATH = '/v2/live-check';
const UNCHARGED = new Set([HEALTH_PATH, LIVE_PATH]);

/** Served for 1 CU, as the reference marks them (`free`). */
const FREE_PATHS = new Set(['/v2/chains', '/v2/chains/:chainId']);
const VALIDATOR_ADDRESSES_PATH = '/v2/subnets/:subnetId/validators::getAddresses';
const BTCB_PATH = '/v2/chains/43114/btcb/bridged::getAddresses';
/** Marked `large` by the reference: 500 CU on the metrics scale, 25 times a `small` request. */
const LARGE_PATHS = new Set<string>([VALIDATOR_ADDRESSES_PATH, BTCB_PATH]);
const LARGE_PER_SMALL = 25;

/** The reference's chainId values that name a set of chains rather than one. */
const AGGREGATES = new Set(['total', 'mainnet', 'testnet']);

/** A time range whose end is before its start is refused rather than answered empty. */
function checkTimeRange(q: { startTimestamp?: number; endTimestamp?: number }): void {
  if (q.startTimestamp !== undefined && q.endTimestamp !== undefined && q.endTimestamp < q.startTimestamp)
    throw new InvalidParameterError('endTimestamp must not be before startTimestamp');
}

function body(statusCode: number, message: string) {
  return { message: [message], error: STATUS_TEXT[statusCode] ?? STATUS_TEXT[500], statusCode };
}

export async function buildMetricsApp(options: MetricsServiceOptions): Promise<FastifyInstance> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const tier: Tier = { name: 'metrics', ...(options.tier ?? scaleTier(METRICS_PUBLISHED_TIER)) };
  const cost = options.costPerRequest ?? 20;
  // Budgets are pooled in the store (as the REST service's are), so metrics processes on one
  // database enforce one budget per client address between them.
  const limiter = createRateLimiter({ now, ...pooledUsage(db, options.logger) });
  const uuidTokens = createUuidPageTokens(db, now);
  // v2 keyset cursors use the data service's signed page tokens (secret shared through the store).
  const signedTokens = createPageTokens(await pageTokenSecret(db));
  const v1PageSize = options.v1PageSize ?? 30;

  /**
   * One keyset page behind a signed token: the cursor of the request's token (refused unless the
   * same query issued it), the page read from there, and `nextPageToken` when another page exists.
   */
  async function signedPage<C, P extends { next?: C }>(
    scope: readonly unknown[],
    pageToken: string | undefined,
    read: (cursor?: C) => Promise<P>,
  ): Promise<Omit<P, 'next'> & { nextPageToken?: string }> {
    // The scope's JSON text is the token scope, as the routes issued it before this helper.
    const scopeText = JSON.stringify(scope);
    const cursor = pageToken ? signedTokens.open<C>(scopeText, pageToken) : undefined;
    const { next, ...rest } = await read(cursor);
    return { ...(next !== undefined ? { nextPageToken: signedTokens.issue(scopeText, next) } : {}), ...rest };
  }
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
    if (status >= 500) options.logger?.error({ err, url: request.url }, 'metrics request failed');
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
    reply.header('ratelimit-policy', ratelimitPolicy(charge, tier));
    reply.header('ratelimit-limit', String(charge.limit));
    reply.header('ratelimit-remaining', String(charge.remaining));
    if (!charge.allowed) {
      reply.header('ratelimit-reset', String(charge.resetSeconds));
      throw new RateLimitedError(
        `rate limit exceeded: ${charge.limit} compute units per window`,
        charge.resetSeconds,
      );
    }
  });

  /**
   * The chains a v2 series or rolling window covers: one EVM chain, or the reference's aggregates
   * `total` (every indexed chain), `mainnet` and `testnet` (the indexed chains of that kind of
   * network; a local devnet's count as `testnet`, as `/v2/chains` reports them).
   */
  async function chainsOf(value: string): Promise<number[]> {
    if (!AGGREGATES.has(value)) return [(await chainOf(value)).chain];
    let q = db.selectFrom('evm_chains').select('evm_chain_id');
    if (value !== 'total') q = q.where('is_testnet', '=', value === 'testnet' ? 1 : 0);
    return (await q.execute()).map((r) => Number(r.evm_chain_id));
  }

  async function chainOf(value: string): Promise<{ chain: number; blockchainId: string }> {
    if (AGGREGATES.has(value))
      throw new InvalidParameterError(
        `chainId "${value}" (aggregate over chains) is not served here: name one EVM chain id`,
      );
    let q = db.selectFrom('evm_chains').select(['evm_chain_id', 'blockchain_id']);
    if (/^\d{1,15}$/.test(value)) q = q.where('evm_chain_id', '=', Number(value));
    else if (/^[1-9A-HJ-NP-Za-km-z]{20,60}$/.test(value)) q = q.where('blockchain_id', '=', value);
    else throw new InvalidParameterError(`chainId must be an EVM chain id, got "${value}"`);
    const row = await q.executeTakeFirst();
    if (!row) throw new NotFoundError(`chain ${value} is not indexed by this service`);
    return { chain: Number(row.evm_chain_id), blockchainId: row.blockchain_id };
  }

  /** A chain as the metrics API's Chain: a local devnet counts as a test network. */
  const chainItem = (r: {
    evm_chain_id: number;
    blockchain_id: string;
    subnet_id: string;
    name: string;
    is_testnet: number;
  }) => ({
    evmChainId: Number(r.evm_chain_id),
    // The reference's aliases are snake_case (`c_chain`); an L1's is made from its name.
    chainName:
      r.subnet_id === PRIMARY_NETWORK_ID
        ? 'c_chain'
        : r.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '_')
            .replace(/^_|_$/g, ''),
    blockchainId: r.blockchain_id,
    subnetId: r.subnet_id,
    network: Number(r.is_testnet) === 1 ? ('testnet' as const) : ('mainnet' as const),
  });
  const chainRows = () =>
    db
      .selectFrom('evm_chains')
      .select(['evm_chain_id', 'blockchain_id', 'subnet_id', 'name', 'is_testnet'])
      .orderBy('evm_chain_id');

  app.get(
    '/v2/chains',
    {
      schema: {
        tags: ['EVM Chains'],
        operationId: 'listChains',
        summary: 'Get a list of supported blockchains',
        querystring: ChainsQuery,
        response: {
          200: Type.Object({ nextPageToken: Type.Optional(Type.String()), chains: Type.Array(MetricsChain) }),
          ...ERRORS,
        },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ChainsQuery>;
      // Every chain fits one page: a token can only come from elsewhere.
      if (q.pageToken !== undefined) throw new InvalidPageTokenError('invalid pageToken');
      const want = q.network === undefined ? undefined : q.network === 'mainnet' ? 'mainnet' : 'testnet';
      const chains = (await chainRows().execute()).map(chainItem);
      return { chains: chains.filter((c) => want === undefined || c.network === want) };
    },
  );

  app.get(
    '/v2/chains/:chainId',
    {
      schema: {
        tags: ['EVM Chains'],
        operationId: 'getChain',
        summary: 'Get chain information for supported blockchain',
        params: V1Params,
        response: { 200: MetricsChain, ...ERRORS },
      },
    },
    async (request) => {
      const { chain } = await chainOf((request.params as Static<typeof V1Params>).chainId);
      return chainItem(await chainRows().where('evm_chain_id', '=', chain).executeTakeFirstOrThrow());
    },
  );

  // The reference metrics API's health check: the store answers (503 with the failure when not).
  app.get(
    HEALTH_PATH,
    {
      schema: {
        tags: ['Health Check'],
        operationId: 'metrics-health-check',
        summary: 'Get the health of the service',
        response: { 200: HealthCheck, 503: HealthCheck },
      },
    },
    async (_request, reply) => {
      try {
        await db.selectFrom('checkpoints').select('source').limit(1).execute();
        const up = { database: { status: 'up' } };
        return { status: 'ok' as const, info: up, error: {}, details: up };
      } catch (err) {
        const down = { database: { status: 'down', message: (err as Error).message } };
        return reply.status(503).send({ status: 'error', info: {}, error: down, details: down });
      }
    },
  );

  // The reference's liveness probe (chainkit metrics.liveCheck): the process answers, nothing
  // else is asked (the health check reads the store).
  const liveCheck = {
    tags: ['Health Check'],
    operationId: 'metrics-live-check',
    summary: 'Get the liveliness of the service',
    response: { 200: HealthCheck },
  };
  app.get(LIVE_PATH, { schema: liveCheck }, async () => ({
    status: 'ok' as const,
    info: {},
    error: {},
    details: {},
  }));

  app.get(
    '/v1/avg_tps/:chainId',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getAvgTps',
        summary: 'Average transactions per second of a chain, per day (legacy v1)',
        params: V1Params,
        querystring: V1Query,
        response: { 200: V1Response, ...ERRORS },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof V1Params>;
      const q = request.query as Static<typeof V1Query>;
      const { chain, blockchainId } = await chainOf(p.chainId);
      const scope = `avg_tps:${chain}`;
      const before = q.pageToken ? await uuidTokens.open(scope, q.pageToken) : undefined;
      const page = await readSeries(db, {
        chains: [chain],
        metric: 'avgTps',
        span: 'day',
        before,
        limit: v1PageSize,
      });
      const checkpoint = await db
        .selectFrom('checkpoints')
        .select('updated_at_ms')
        .where('source', '=', evmSource(blockchainId))
        .executeTakeFirst();
      return {
        results: page.results,
        status: 200,
        lastRun: Math.floor(Number(checkpoint?.updated_at_ms ?? 0) / 1000),
        ...(page.next !== undefined ? { nextPageToken: await uuidTokens.issue(scope, page.next) } : {}),
      };
    },
  );

  app.get(
    '/v2/chains/:chainId/metrics/:metric',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getEvmChainMetrics',
        summary: 'Get metrics for EVM chains',
        params: V2Params,
        querystring: V2Query,
        response: { 200: V2Response, ...ERRORS },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof V2Params>;
      const q = request.query as Static<typeof V2Query>;
      if (!(METRICS as readonly string[]).includes(p.metric))
        throw new InvalidParameterError(`metric must be one of ${METRICS.join(', ')}`);
      const chains = await chainsOf(p.chainId);
      checkTimeRange(q);
      const span: Span = q.timeInterval ?? 'day';
      // A token of a chain serves whichever of its ids the next request names.
      const scope = [
        'v2',
        AGGREGATES.has(p.chainId) ? p.chainId : chains[0],
        p.metric,
        span,
        q.startTimestamp ?? null,
        q.endTimestamp ?? null,
      ];
      return signedPage(scope, q.pageToken, (before?: number) =>
        readSeries(db, {
          chains,
          metric: p.metric as Metric,
          span,
          from: q.startTimestamp,
          to: q.endTimestamp,
          before,
          limit: q.pageSize,
        }),
      );
    },
  );

  app.get(
    '/v2/chains/:chainId/rollingWindowMetrics/:metric',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getEvmChainRollingWindowMetrics',
        summary: 'Get rolling window metrics for EVM chains',
        params: V2Params,
        response: { 200: RollingWindowResponse, ...ERRORS },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof V2Params>;
      if (!(ROLLING_WINDOW_METRICS as readonly string[]).includes(p.metric))
        throw new InvalidParameterError(`metric must be one of ${ROLLING_WINDOW_METRICS.join(', ')}`);
      const result = await readRollingWindows(
        db,
        await chainsOf(p.chainId),
        p.metric as RollingWindowMetric,
        Math.floor(now() / 1000),
      );
      return { result };
    },
  );

  app.get(
    '/v2/networks/:network/metrics/:metric',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getStakingMetrics',
        summary: 'Get staking metrics for a given subnet',
        params: StakingParams,
        querystring: StakingQuery,
        response: { 200: V2Response, ...ERRORS },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof StakingParams>;
      const q = request.query as Static<typeof StakingQuery>;
      if (!['mainnet', 'fuji', 'testnet'].includes(p.network))
        throw new InvalidParameterError('network must be one of mainnet, fuji, testnet');
      // A local devnet answers as a test network, as the chain-data service does.
      if (options.network) resolveNetwork(options.network, p.network === 'testnet' ? 'fuji' : p.network);
      if (!(STAKING_METRICS as readonly string[]).includes(p.metric))
        throw new InvalidParameterError(`metric must be one of ${STAKING_METRICS.join(', ')}`);
      const subnetId = parseCb58Id(q.subnetId, 'subnetId');
      checkTimeRange(q);
      const scope = ['staking', p.metric, subnetId, q.startTimestamp ?? null, q.endTimestamp ?? null];
      return signedPage(scope, q.pageToken, (before?: number) =>
        readStakingSeries(db, {
          subnetId,
          metric: p.metric as StakingMetric,
          from: q.startTimestamp,
          to: q.endTimestamp,
          before,
          limit: q.pageSize,
          nowSeconds: Math.floor(now() / 1000),
        }),
      );
    },
  );
  /**
   * The ICM routes' filters: blockchain ids checked (cb58, 32 bytes), and whether the `network`
   * keeps any indexed chain (this service indexes one network: the messages are all of it, or
   * none). Every filter is optional in the reference document; without one, every indexed
   * message counts (the total of the one network served).
   */
  async function icmFilter(q: Static<typeof IcmSummaryQuery>) {
    const filter = {
      source: q.srcBlockchainId === undefined ? undefined : parseCb58Id(q.srcBlockchainId, 'srcBlockchainId'),
      destination:
        q.destBlockchainId === undefined ? undefined : parseCb58Id(q.destBlockchainId, 'destBlockchainId'),
    };
    const want = q.network === undefined ? undefined : q.network === 'mainnet' ? 'mainnet' : 'testnet';
    const kept =
      want === undefined || (await chainRows().execute()).map(chainItem).some((c) => c.network === want);
    return { filter, kept };
  }

  app.get(
    '/v2/icm/timeseries',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getICMTimeseries',
        summary: 'Get ICM timeseries metrics',
        querystring: IcmSeriesQuery,
        response: { 200: IcmSeriesResponse, ...ERRORS },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof IcmSeriesQuery>;
      const { filter, kept } = await icmFilter(q);
      checkTimeRange(q);
      const span: Span = q.timeInterval ?? 'day';
      const scope = [
        'icm',
        filter.source ?? null,
        filter.destination ?? null,
        q.groupBy ?? null,
        q.network ?? null,
        span,
        q.startTimestamp ?? null,
        q.endTimestamp ?? null,
      ];
      return signedPage(scope, q.pageToken, async (after?: IcmCursor) =>
        kept
          ? readIcmSeries(db, {
              filter,
              groupBy: q.groupBy as IcmGroupBy | undefined,
              span,
              from: q.startTimestamp,
              to: q.endTimestamp,
              after,
              limit: q.pageSize,
            })
          : { results: [], next: undefined },
      );
    },
  );

  app.get(
    '/v2/icm/summary',
    {
      schema: {
        tags: ['Chain Metrics'],
        operationId: 'getICMSummary',
        summary: 'Get ICM summary metrics',
        querystring: IcmSummaryQuery,
        response: { 200: IcmSummaryResponse, ...ERRORS },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof IcmSummaryQuery>;
      const { filter, kept } = await icmFilter(q);
      const nowSeconds = Math.floor(now() / 1000);
      // A network without indexed chains has no messages: the same names, every count 0.
      return {
        result: kept ? await readIcmSummary(db, filter, nowSeconds) : icmSummaryOf([], filter, nowSeconds),
      };
    },
  );
  app.get(
    VALIDATOR_ADDRESSES_PATH,
    {
      schema: {
        tags: ['Looking Glass'],
        operationId: 'getValidatorsByDateRange',
        summary: 'Get addresses running validators during a given time frame',
        params: ValidatorAddressesParams,
        querystring: ValidatorAddressesQuery,
        response: { 200: ValidatorAddressesResponse, ...ERRORS },
      },
    },
    async (request) => {
      const p = request.params as Static<typeof ValidatorAddressesParams>;
      const q = request.query as Static<typeof ValidatorAddressesQuery>;
      const subnetId = parseCb58Id(p.subnetId, 'subnetId');
      // A local devnet answers as a test network, as the staking metrics do.
      if (options.network && q.network !== undefined)
        resolveNetwork(options.network, q.network === 'testnet' ? 'fuji' : q.network);
      checkTimeRange(q);
      const scope = ['validators:getAddresses', subnetId, q.startTimestamp ?? null, q.endTimestamp ?? null];
      return signedPage(scope, q.pageToken, (after?: ValidatorAddressCursor) =>
        readValidatorAddresses(db, {
          subnetId,
          from: q.startTimestamp,
          to: q.endTimestamp,
          after,
          limit: q.pageSize,
        }),
      );
    },
  );
  // L1 validator fees, one route per scope (all validations, one validation, node or L1).
  const L1_FEE_ROUTES = [
    { scope: 'all', path: '/v2/validators/metrics/:metric', operationId: 'getTotalL1ValidatorMetrics' },
    {
      scope: 'validation',
      path: '/v2/validation/:l1ValidationId/metrics/:metric',
      operationId: 'getMetricsByValidationId',
      param: 'l1ValidationId',
      parse: (v: string) => parseCb58Id(v, 'l1ValidationId'),
    },
    {
      scope: 'node',
      path: '/v2/validator/:nodeId/metrics/:metric',
      operationId: 'getMetricsByNodeId',
      param: 'nodeId',
      parse: parseNodeIdParam,
    },
    {
      scope: 'subnet',
      path: '/v2/subnet/:subnetId/metrics/:metric',
      operationId: 'getMetricsBySubnetId',
      param: 'subnetId',
      parse: (v: string) => parseCb58Id(v, 'subnetId'),
    },
  ] as const;
  for (const route of L1_FEE_ROUTES) {
    const param = 'param' in route ? route.param : undefined;
    const params = Type.Object({
      ...(param ? { [param]: Type.String({ maxLength: 100 }) } : {}),
      metric: Type.String(),
    });
    app.get(
      route.path,
      {
        schema: {
          tags: ['L1 Validator Metrics'],
          operationId: route.operationId,
          summary: `L1 validator fees paid per day (${route.scope === 'all' ? 'every validation' : `one ${route.scope}`}), in nAVAX`,
          params,
          querystring: L1FeeQuery,
          response: { 200: V2Response, ...ERRORS },
        },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        const q = request.query as Static<typeof L1FeeQuery>;
        const metrics: readonly string[] = L1_FEE_METRICS[route.scope];
        if (!metrics.includes(p.metric!))
          throw new InvalidParameterError(`metric must be one of ${metrics.join(', ')}`);
        const id = 'parse' in route && param ? route.parse(p[param]!) : undefined;
        checkTimeRange(q);
        const results = await readL1FeeSeries(db, {
          scope: route.scope,
          id,
          metric: p.metric!,
          from: q.startTimestamp,
          to: q.endTimestamp,
        });
        return { results };
      },
    );
  }
  app.get(
    BTCB_PATH,
    {
      schema: {
        tags: ['Looking Glass'],
        operationId: 'getAddressesByBtcbBridged',
        summary: 'Get addresses by BTCb bridged balance',
        querystring: BtcbQuery,
        response: { 200: BtcbResponse, ...ERRORS },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof BtcbQuery>;
      if (!/^\d+$/.test(q.threshold))
        throw new InvalidParameterError(
          `threshold must be a non-negative integer amount (satoshis), got "${q.threshold}"`,
        );
      const threshold = BigInt(q.threshold);
      return signedPage(['btcb', threshold.toString()], q.pageToken, (after?: BtcbCursor) =>
        readBtcbBridgers(db, { threshold, after, limit: q.pageSize }),
      );
    },
  );
  return app;
}

export async function startMetricsService(options: MetricsServiceOptions): Promise<RunningMetricsService> {
  const app = await buildMetricsApp(options);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${joinHostPort(options.host, port)}`,
    port,
    app,
    async close() {
      await app.close();
    },
  };
}
