/**
 * Looking Glass: `GET /v2/subnets/{subnetId}/validators:getAddresses`, the addresses running
 * validators during a time frame, from the indexed stakers.
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseCb58Id, resolveNetwork } from '../../networks.js';
import {
  ERRORS,
  ValidatorAddressesParams,
  ValidatorAddressesQuery,
  ValidatorAddressesResponse,
} from '../schemas.js';
import { readValidatorAddresses, type ValidatorAddressCursor } from '../validator-addresses.js';
import type { MetricsRouteDeps } from './deps.js';
import { checkTimeRange } from './time-range.js';

export const VALIDATOR_ADDRESSES_PATH = '/v2/subnets/:subnetId/validators::getAddresses';

export default async function validatorAddressesRoute(
  app: FastifyInstance,
  { db, network, signedPage }: MetricsRouteDeps,
) {
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
      if (network && q.network !== undefined) resolveNetwork(network, q.network);
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
}
