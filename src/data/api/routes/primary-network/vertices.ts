/**
 * X-chain vertices: `GET …/blockchains/{x-chain}/vertices`, `…/vertices/{vertexHash}` and
 * `…/vertices:listByHeight`. The X-chain has been a chain of blocks since Cortina and this
 * network never had a DAG, so the lists are empty and no vertex is found.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../internal/errors.js';
import { parseCb58Id, resolveChain, resolveNetwork } from '../../../networks.js';
import { chainInfo } from '../../repositories/format.js';
import { ERROR_RESPONSES, Network, PageToken, SortOrder, pageSize } from '../../schemas/common.js';
import { XChainVertex, XChainVertexList } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const BlockchainId = Type.String({ minLength: 1, maxLength: 64, description: 'x-chain or the X-chain id' });
const Params = Type.Object({ network: Network, blockchainId: BlockchainId });
const OneParams = Type.Object({
  network: Network,
  blockchainId: BlockchainId,
  vertexHash: Type.String({ minLength: 1, maxLength: 64 }),
});
const Query = Type.Object(
  { pageToken: Type.Optional(PageToken), pageSize: pageSize(100, 10) },
  { additionalProperties: false },
);
const HeightQuery = Type.Object(
  {
    vertexHeight: Type.Integer({ minimum: 0 }),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export default async function verticesRoute(app: FastifyInstance, deps: RouteDeps) {
  function xChain(params: { network: string; blockchainId: string }) {
    const network = resolveNetwork(deps.network, params.network);
    const chain = resolveChain(network, params.blockchainId, ['x-chain']);
    return { chain, info: chainInfo(chain.blockchainId, network, params.network) };
  }
  /** No page of an empty list continues: any token is one this service never issued. */
  function refuseToken(scope: unknown[], token?: string) {
    if (token) deps.tokens.open<unknown>(scope, token);
  }

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/vertices',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network Vertices'],
        operationId: 'listLatestXChainVertices',
        summary: 'List the latest X-chain vertices (none since Cortina)',
        params: Params,
        querystring: Query,
        response: { 200: XChainVertexList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { info, chain } = xChain(request.params as Static<typeof Params>);
      refuseToken(['vertices', chain.blockchainId], (request.query as Static<typeof Query>).pageToken);
      return { vertices: [], chainInfo: info };
    },
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/vertices/:vertexHash',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network Vertices'],
        operationId: 'getVertexByHash',
        summary: 'Get an X-chain vertex by hash (none since Cortina)',
        params: OneParams,
        response: { 200: XChainVertex, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof OneParams>;
      xChain(params);
      const hash = parseCb58Id(params.vertexHash, 'vertexHash');
      throw new NotFoundError(`no vertex ${hash}: the X-chain of this network has blocks, not vertices`);
    },
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/vertices::listByHeight',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network Vertices'],
        operationId: 'getVertexByHeight',
        summary: 'List X-chain vertices at a height (none since Cortina)',
        params: Params,
        querystring: HeightQuery,
        response: { 200: XChainVertexList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { info, chain } = xChain(request.params as Static<typeof Params>);
      const q = request.query as Static<typeof HeightQuery>;
      refuseToken(['vertices-at', chain.blockchainId, q.vertexHeight, q.sortOrder ?? 'asc'], q.pageToken);
      return { vertices: [], chainInfo: info };
    },
  );
}
