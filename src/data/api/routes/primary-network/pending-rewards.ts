/** `GET /v1/networks/{network}/rewards:listPending`: rewards still to come, by addresses and/or node ids. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseRewardFilter, resolveNetwork } from '../../../networks.js';
import { ERROR_RESPONSES, Network, PageToken, SortOrder, pageSize } from '../../schemas/common.js';
import { PendingRewardList } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });
const Query = Type.Object(
  {
    addresses: Type.Optional(Type.String({ minLength: 1 })),
    nodeIds: Type.Optional(Type.String({ minLength: 1 })),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export default async function pendingRewardsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/rewards::listPending',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network Rewards'],
        operationId: 'listPendingPrimaryNetworkRewards',
        summary: 'List the staking rewards still to be paid',
        params: Params,
        querystring: Query,
        response: { 200: PendingRewardList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      const network = resolveNetwork(deps.network, params.network);
      const { addresses, nodeIds } = parseRewardFilter(network, q);
      const sortOrder = q.sortOrder ?? 'asc';
      const scope = ['pending-rewards', addresses, nodeIds, sortOrder];
      const afterSeq = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
      const { pendingRewards, next } = await deps.repo.pendingRewards({
        addresses,
        nodeIds,
        sortOrder,
        afterSeq,
        limit: q.pageSize,
      });
      return {
        ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
        pendingRewards,
      };
    },
  );
}
