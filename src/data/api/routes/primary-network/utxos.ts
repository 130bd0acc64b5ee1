/**
 * `POST /v1/networks/{network}/blockchains/{blockchainId}/utxos` (UTXOs v2: addresses in the
 * body, pages up to 1024) and the v1 `GET` of the same path (addresses in the query, pages up
 * to 100).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  parseAddresses,
  parseCb58Id,
  reportedNetworkName,
  resolveChain,
  resolveNetwork,
} from '../../../networks.js';
import type { UtxoCursor } from '../../../store/queries/utxos.js';
import {
  ERROR_RESPONSES,
  Network,
  StringEnum,
  PageToken,
  SortOrder,
  pageSize,
} from '../../schemas/common.js';
import { UtxoList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const Params = Type.Object({ network: Network, blockchainId: Type.String({ minLength: 1, maxLength: 64 }) });
const filters = {
  pageToken: Type.Optional(PageToken),
  assetId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'X-chain only' })),
  minUtxoAmount: Type.Optional(Type.Number({ minimum: 0 })),
  includeSpent: Type.Optional(Type.Boolean()),
  sortBy: Type.Optional(StringEnum(['timestamp', 'amount'] as const)),
  sortOrder: Type.Optional(SortOrder),
};
const QueryV2 = Type.Object({ ...filters, pageSize: pageSize(1024, 10) }, { additionalProperties: false });
const QueryV1 = Type.Object(
  { ...filters, pageSize: pageSize(100, 10), addresses: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
const Body = Type.Object({
  addresses: Type.String({ minLength: 1, description: 'comma-separated addresses' }),
});

type Query = Static<typeof QueryV2> & { addresses?: string };

export default async function utxosRoute(app: FastifyInstance, deps: RouteDeps) {
  async function list(params: Static<typeof Params>, query: Query, addressList: string) {
    const network = resolveNetwork(deps.network, params.network);
    const chain = resolveChain(network, params.blockchainId);
    const addresses = parseAddresses(network, addressList);
    const assetId = query.assetId === undefined ? undefined : parseCb58Id(query.assetId, 'assetId');
    const sortBy = query.sortBy ?? 'timestamp';
    const sortOrder = query.sortOrder ?? 'asc';
    const includeSpent = query.includeSpent ?? false;
    const scope = [
      'utxos',
      chain.blockchainId,
      addresses,
      assetId,
      query.minUtxoAmount,
      includeSpent,
      sortBy,
      sortOrder,
    ];
    const after = query.pageToken ? deps.tokens.open<UtxoCursor>(scope, query.pageToken) : undefined;
    const { utxos, next } = await deps.repo.utxos({
      chainId: chain.blockchainId,
      addresses,
      assetId,
      minUtxoAmount: query.minUtxoAmount,
      includeSpent,
      sortBy,
      sortOrder,
      after,
      limit: query.pageSize!,
    });
    // The page is assembled as JSON text: each UTXO arrives already serialized.
    const chainInfo = {
      chainName: chain.alias,
      network: reportedNetworkName(params.network),
    };
    const token = next ? `"nextPageToken":${JSON.stringify(deps.tokens.issue(scope, next))},` : '';
    return `{${token}"utxos":[${utxos.join(',')}],"chainInfo":${JSON.stringify(chainInfo)}}`;
  }

  app.post(
    '/v1/networks/:network/blockchains/:blockchainId/utxos',
    {
      config: { computeUnits: WEIGHT.xl },
      // The handler returns the page as JSON text (utxo-document.ts); the union schema documents
      // it, and the serializer passes text through instead of re-validating each item.
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
      schema: {
        tags: ['Primary Network UTXOs'],
        operationId: 'getUtxosByAddressesV2',
        summary: 'List UTXOs of addresses (v2: addresses in the body, larger pages)',
        params: Params,
        querystring: QueryV2,
        body: Body,
        response: { 200: UtxoList, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof Body>;
      reply.type('application/json; charset=utf-8');
      return list(request.params as Static<typeof Params>, request.query as Query, body.addresses);
    },
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/utxos',
    {
      config: { computeUnits: WEIGHT.xl },
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
      schema: {
        tags: ['Primary Network UTXOs'],
        operationId: 'getUtxosByAddresses',
        summary: 'List UTXOs of addresses (v1)',
        params: Params,
        querystring: QueryV1,
        response: { 200: UtxoList, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const query = request.query as Query;
      reply.type('application/json; charset=utf-8');
      return list(request.params as Static<typeof Params>, query, query.addresses!);
    },
  );
}
