/**
 * `GET /v1/networks/{network}/blockchains`: blockchains created by CreateChainTx, in creation order;
 * `GET /v1/networks/{network}/blockchains/{blockchainId}`: one of them in the same shape; and
 * `GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}`: an X-chain asset.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseCb58Id, resolveChain, resolveNetwork } from '../../../networks.js';
import { ERROR_RESPONSES, Network, PageToken, SortOrder, pageSize } from '../../schemas/common.js';
import { Blockchain, BlockchainList, XChainAssetDetails } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network });
const OneParams = Type.Object({
  network: Network,
  blockchainId: Type.String({ minLength: 1, maxLength: 64 }),
});
const AssetParams = Type.Object({
  network: Network,
  blockchainId: Type.String({ minLength: 1, maxLength: 64, description: 'x-chain or an X-chain id' }),
  assetId: Type.String({ minLength: 1, maxLength: 64 }),
});
const Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(10000, 100),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export default async function blockchainsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/blockchains',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'listBlockchains',
        summary: 'List blockchains',
        params: Params,
        querystring: Query,
        response: { 200: BlockchainList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      resolveNetwork(deps.network, params.network);
      const sortOrder = q.sortOrder ?? 'asc';
      const scope = ['blockchains', sortOrder];
      const afterSeq = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
      const { blockchains, next } = await deps.repo.blockchains({ sortOrder, afterSeq, limit: q.pageSize });
      return {
        ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
        blockchains,
      };
    },
  );
  app.get(
    '/v1/networks/:network/blockchains/:blockchainId',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'getBlockchainById',
        summary: 'Get blockchain details by ID',
        params: OneParams,
        response: { 200: Blockchain, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof OneParams>;
      resolveNetwork(deps.network, params.network);
      return deps.repo.blockchain(parseCb58Id(params.blockchainId, 'blockchainId'));
    },
  );
  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/assets/:assetId',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network'],
        operationId: 'getAssetDetails',
        summary: 'Get asset details',
        params: AssetParams,
        response: { 200: XChainAssetDetails, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof AssetParams>;
      const network = resolveNetwork(deps.network, params.network);
      resolveChain(network, params.blockchainId, ['x-chain']);
      return deps.repo.asset(parseCb58Id(params.assetId, 'assetId'));
    },
  );
}
