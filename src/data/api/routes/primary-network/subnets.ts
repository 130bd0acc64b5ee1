/**
 * `GET /v1/networks/{network}/subnets`: subnets with blockchains, ownership and L1 details; and
 * `GET /v1/networks/{network}/subnets/{subnetId}`: one of them in the same shape.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseCb58Id, resolveNetwork } from '../../../networks.js';
import { ERROR_RESPONSES, Network, PageToken, SortOrder, pageSize } from '../../schemas/common.js';
import { Subnet, SubnetList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });
const OneParams = Type.Object({ network: Network, subnetId: Type.String({ minLength: 1, maxLength: 64 }) });
const Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(10000, 100),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export default async function subnetsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/subnets',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'listSubnets',
        summary: 'List subnets',
        params: Params,
        querystring: Query,
        response: { 200: SubnetList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      resolveNetwork(deps.network, params.network);
      const sortOrder = q.sortOrder ?? 'asc';
      const scope = ['subnets', sortOrder];
      const afterSeq = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
      const { subnets, next } = await deps.repo.subnets({ sortOrder, afterSeq, limit: q.pageSize });
      return { ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}), subnets };
    },
  );
  app.get(
    '/v1/networks/:network/subnets/:subnetId',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'getSubnetById',
        summary: 'Get one subnet by id',
        params: OneParams,
        response: { 200: Subnet, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof OneParams>;
      resolveNetwork(deps.network, params.network);
      return deps.repo.subnet(parseCb58Id(params.subnetId, 'subnetId'));
    },
  );
}
