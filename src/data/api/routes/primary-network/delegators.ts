/** `GET /v1/networks/{network}/delegators`: delegations to every node, filtered and paged. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseAddresses, parseNodeIdList, resolveNetwork } from '../../../networks.js';
import {
  ERROR_RESPONSES,
  Network,
  StringEnum,
  PageToken,
  SortOrder,
  pageSize,
} from '../../schemas/common.js';
import { DelegatorList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });
const Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    rewardAddresses: Type.Optional(Type.String({ minLength: 1, description: 'comma separated, at most 64' })),
    sortOrder: Type.Optional(SortOrder),
    delegationStatus: Type.Optional(StringEnum(['completed', 'active', 'pending'] as const)),
    nodeIds: Type.Optional(Type.String({ minLength: 1, description: 'comma separated, at most 64' })),
  },
  { additionalProperties: false },
);

export default async function delegatorsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/delegators',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'listDelegators',
        summary: 'Delegations to every node',
        params: Params,
        querystring: Query,
        response: { 200: DelegatorList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      const network = resolveNetwork(deps.network, params.network);
      const rewardAddresses = q.rewardAddresses
        ? [...parseAddresses(network, q.rewardAddresses, 64)].sort()
        : [];
      const nodeIds = q.nodeIds ? parseNodeIdList(q.nodeIds) : [];
      const sortOrder = q.sortOrder ?? 'asc';
      const scope = ['delegators', nodeIds, rewardAddresses, q.delegationStatus, sortOrder];
      const afterSeq = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
      const { delegators, next } = await deps.repo.allDelegators({
        nodeIds,
        rewardAddresses,
        status: q.delegationStatus,
        sortOrder,
        afterSeq,
        limit: q.pageSize,
      });
      return { ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}), delegators };
    },
  );
}
