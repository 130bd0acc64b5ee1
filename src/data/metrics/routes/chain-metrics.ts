/**
 * The v2 chain metrics the public SDKs call: `GET /v2/chains/{chainId}/metrics/{metric}` (a series
 * over the indexer's buckets) and `GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}`, of
 * one EVM chain or of one of the reference's aggregates.
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../internal/errors.js';
import type { Span } from '../buckets.js';
import { AGGREGATES, chainsOf } from '../indexed-chains.js';
import { readRollingWindows, ROLLING_WINDOW_METRICS, type RollingWindowMetric } from '../rolling-window.js';
import { ERRORS, RollingWindowResponse, V2Params, V2Query, V2Response } from '../schemas.js';
import { METRICS, readSeries, type Metric } from '../series.js';
import type { MetricsRouteDeps } from './deps.js';
import { checkTimeRange } from './time-range.js';

export default async function chainMetricsRoutes(
  app: FastifyInstance,
  { db, now, signedPage }: MetricsRouteDeps,
) {
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
      const chains = await chainsOf(db, p.chainId);
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
        await chainsOf(db, p.chainId),
        p.metric as RollingWindowMetric,
        Math.floor(now() / 1000),
      );
      return { result };
    },
  );
}
