/** `GET /v1/avax/supply`: the P-chain's current supply (from the node) with staking totals. */
import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSES } from '../../schemas/common.js';
import { AvaxSupply } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

export default async function supplyRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/avax/supply',
    {
      config: { computeUnits: WEIGHT.free },
      schema: {
        tags: ['Avax Supply'],
        operationId: 'getAvaxSupply',
        summary: 'AVAX supply, staked and paid rewards, in AVAX',
        response: { 200: AvaxSupply, ...ERROR_RESPONSES },
      },
    },
    async () => deps.repo.supply(),
  );
}
