/**
 * ICM message counts from the indexed messages: `GET /v2/icm/timeseries` (per time bucket) and
 * `GET /v2/icm/summary` (per rolling window).
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { parseCb58Id } from '../../networks.js';
import type { DataSchema } from '../../store/schema.js';
import type { Span } from '../buckets.js';
import { icmSummaryOf, readIcmSeries, readIcmSummary, type IcmCursor, type IcmGroupBy } from '../icm.js';
import { chainItem, chainRows } from '../indexed-chains.js';
import {
  ERRORS,
  IcmSeriesQuery,
  IcmSeriesResponse,
  IcmSummaryQuery,
  IcmSummaryResponse,
} from '../schemas.js';
import type { MetricsRouteDeps } from './deps.js';
import { checkTimeRange } from './time-range.js';

/**
 * The ICM routes' filters: blockchain ids checked (cb58, 32 bytes), and whether the `network`
 * keeps any indexed chain (this service indexes one network: the messages are all of it, or
 * none). Every filter is optional in the reference document; without one, every indexed
 * message counts (the total of the one network served).
 */
async function icmFilter(db: Kysely<DataSchema>, q: Static<typeof IcmSummaryQuery>) {
  const filter = {
    source: q.srcBlockchainId === undefined ? undefined : parseCb58Id(q.srcBlockchainId, 'srcBlockchainId'),
    destination:
      q.destBlockchainId === undefined ? undefined : parseCb58Id(q.destBlockchainId, 'destBlockchainId'),
  };
  const want = q.network === undefined ? undefined : q.network === 'mainnet' ? 'mainnet' : 'testnet';
  const kept =
    want === undefined || (await chainRows(db).execute()).map(chainItem).some((c) => c.network === want);
  return { filter, kept };
}

export default async function icmRoutes(app: FastifyInstance, { db, now, signedPage }: MetricsRouteDeps) {
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
      const { filter, kept } = await icmFilter(db, q);
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
      const { filter, kept } = await icmFilter(db, q);
      const nowSeconds = Math.floor(now() / 1000);
      // A network without indexed chains has no messages: the same names, every count 0.
      return {
        result: kept ? await readIcmSummary(db, filter, nowSeconds) : icmSummaryOf([], filter, nowSeconds),
      };
    },
  );
}
