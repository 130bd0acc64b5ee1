/** `GET /v1/networks/{network}/l1Validators`: the validators of every L1, live from the node. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseCb58Id, parseNodeIdParam, resolveNetwork } from '../../../networks.js';
import type { L1ValidatorCursor } from '../../repositories/staking-stats.js';
import { ERROR_RESPONSES, Network, PageToken, pageSize } from '../../schemas/common.js';
import { L1ValidatorList } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });
const Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    l1ValidationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    includeInactiveL1Validators: Type.Optional(Type.Boolean()),
    nodeId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    subnetId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export default async function l1ValidatorsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/l1Validators',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'listL1Validators',
        summary: 'List L1 validators',
        params: Params,
        querystring: Query,
        response: { 200: L1ValidatorList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      resolveNetwork(deps.network, params.network);
      const filter = {
        subnetId: q.subnetId === undefined ? undefined : parseCb58Id(q.subnetId, 'subnetId'),
        nodeId: q.nodeId === undefined ? undefined : parseNodeIdParam(q.nodeId),
        validationId:
          q.l1ValidationId === undefined ? undefined : parseCb58Id(q.l1ValidationId, 'l1ValidationId'),
        includeInactive: q.includeInactiveL1Validators ?? false,
      };
      const scope = ['l1-validators', filter];
      const after = q.pageToken ? deps.tokens.open<L1ValidatorCursor>(scope, q.pageToken) : undefined;
      const { validators, blockHeight, next } = await deps.repo.l1Validators({
        ...filter,
        after,
        limit: q.pageSize,
      });
      return {
        ...(next ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
        validators,
        blockHeight,
      };
    },
  );
}
