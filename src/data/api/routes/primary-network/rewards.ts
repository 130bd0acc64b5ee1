/** `GET /v1/networks/{network}/rewards`: paid staking rewards by addresses and/or node ids. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseRewardFilter, resolveNetwork } from '../../../networks.js';
import type { RewardCursor } from '../../../store/queries/rewards.js';
import { CURRENCIES } from '../../api-keys.js';
import {
  ERROR_RESPONSES,
  Network,
  StringEnum,
  PageToken,
  SortOrder,
  pageSize,
} from '../../schemas/common.js';
import { RewardList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });
const Query = Type.Object(
  {
    addresses: Type.Optional(Type.String({ minLength: 1 })),
    nodeIds: Type.Optional(Type.String({ minLength: 1 })),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    sortOrder: Type.Optional(SortOrder),
    currency: Type.Optional(StringEnum(CURRENCIES)),
  },
  { additionalProperties: false },
);

export default async function rewardsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/rewards',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network Rewards'],
        operationId: 'listHistoricalPrimaryNetworkRewards',
        summary: 'List paid staking rewards',
        params: Params,
        querystring: Query,
        response: { 200: RewardList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      const network = resolveNetwork(deps.network, params.network);
      const { addresses, nodeIds } = parseRewardFilter(network, q);
      const sortOrder = q.sortOrder ?? 'asc';
      const scope = ['rewards', addresses, nodeIds, sortOrder];
      const after = q.pageToken ? deps.tokens.open<RewardCursor>(scope, q.pageToken) : undefined;
      const { historicalRewards, next } = await deps.repo.rewards({
        addresses,
        nodeIds,
        sortOrder,
        after,
        limit: q.pageSize,
        currency: q.currency ?? 'usd',
      });
      return { ...(next ? { nextPageToken: deps.tokens.issue(scope, next) } : {}), historicalRewards };
    },
  );
}
