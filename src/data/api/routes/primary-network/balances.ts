/** `GET /v1/networks/{network}/blockchains/{blockchainId}/balances`, at an optional blockTimestamp. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseAddresses, reportedNetworkName, resolveChain, resolveNetwork } from '../../../networks.js';
import { ERROR_RESPONSES, Network, storedInteger } from '../../schemas/common.js';
import { Balances } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network, blockchainId: Type.String({ minLength: 1, maxLength: 64 }) });
const Query = Type.Object(
  {
    blockTimestamp: Type.Optional(storedInteger('Unix seconds; default now')),
    addresses: Type.String({ minLength: 1, description: 'comma-separated addresses' }),
  },
  { additionalProperties: false },
);

export default async function balancesRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/balances',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network Balances'],
        operationId: 'getBalancesByAddresses',
        summary: 'Balances of addresses by category, at a point in time',
        params: Params,
        querystring: Query,
        response: { 200: Balances, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      const network = resolveNetwork(deps.network, params.network);
      const chain = resolveChain(network, params.blockchainId);
      const addresses = parseAddresses(network, q.addresses, 256);
      const balances = await deps.repo.balances(chain.blockchainId, addresses, q.blockTimestamp);
      return {
        balances,
        chainInfo: {
          chainName: chain.alias,
          network: reportedNetworkName(params.network),
        },
      };
    },
  );
}
