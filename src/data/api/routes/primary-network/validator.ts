/** `GET /v1/networks/{network}/validators/{nodeId}`: every validation period of one node. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseNodeIdParam, resolveNetwork } from '../../../networks.js';
import {
  ERROR_RESPONSES,
  Network,
  StringEnum,
  PageToken,
  SortOrder,
  pageSize,
} from '../../schemas/common.js';
import { ValidatorList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network, nodeId: Type.String({ minLength: 1, maxLength: 80 }) });
const Status = StringEnum(['completed', 'active', 'pending', 'removed'] as const);
const Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    validationStatus: Type.Optional(Status),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export default async function validatorRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/validators/:nodeId',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'getSingleValidatorDetails',
        summary: 'Validation periods of one node',
        params: Params,
        querystring: Query,
        response: { 200: ValidatorList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      resolveNetwork(deps.network, params.network);
      const nodeId = parseNodeIdParam(params.nodeId);
      const sortOrder = q.sortOrder ?? 'asc';
      const scope = ['validator', nodeId, q.validationStatus, sortOrder];
      const afterSeq = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
      const { validators, next } = await deps.repo.validators({
        nodeId,
        sortOrder,
        afterSeq,
        limit: q.pageSize,
        status: q.validationStatus,
      });
      return { ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}), validators };
    },
  );
}
