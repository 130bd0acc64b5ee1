/**
 * Looking Glass: `GET /v2/chains/43114/btcb/bridged:getAddresses`, the BTC.b bridgers above a
 * threshold, from the indexed token transfers.
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../internal/errors.js';
import { readBtcbBridgers, type BtcbCursor } from '../btcb-bridged.js';
import { BtcbQuery, BtcbResponse, ERRORS } from '../schemas.js';
import type { MetricsRouteDeps } from './deps.js';

export const BTCB_PATH = '/v2/chains/43114/btcb/bridged::getAddresses';

export default async function btcbBridgedRoute(app: FastifyInstance, { db, signedPage }: MetricsRouteDeps) {
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
}
