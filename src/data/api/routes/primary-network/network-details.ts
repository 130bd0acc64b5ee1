/** `GET /v1/networks/{network}`: counts and stake of the active validators and delegators. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { resolveNetwork } from '../../../networks.js';
import { ERROR_RESPONSES, Network } from '../../schemas/common.js';
import { NetworkDetails } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });

export default async function networkDetailsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network'],
        operationId: 'getNetworkDetails',
        summary: 'Validator and delegator totals of the primary network',
        params: Params,
        response: { 200: NetworkDetails, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      resolveNetwork(deps.network, (request.params as Static<typeof Params>).network);
      return deps.repo.networkDetails();
    },
  );
}
