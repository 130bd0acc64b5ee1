/**
 * The legacy `GET /v1/avg_tps/{chainId}`: a chain's average transactions per second per day, from
 * the indexer's buckets, paged with 24 h UUID tokens, and when its indexer last ran.
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { evmSource } from '../../indexer/evm/write-batch.js';
import { chainOf } from '../indexed-chains.js';
import { ERRORS, V1Params, V1Query, V1Response } from '../schemas.js';
import { readSeries } from '../series.js';
import type { MetricsRouteDeps } from './deps.js';

export default async function avgTpsRoute(
  app: FastifyInstance,
  { db, uuidTokens, v1PageSize }: MetricsRouteDeps,
) {
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
      const { chain, blockchainId } = await chainOf(db, p.chainId);
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
}
