/**
 * `GET /v1/chains/{chainId}/nfts/collections/{address}/tokens`: a collection's tokens with
 * metadata; `.../tokens/{tokenId}` one of them (getTokenDetails); `POST .../tokens/{tokenId}:reindex`
 * makes the metadata fetcher read one token's metadata again (reindexNft).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseEvmAddress, resolveEvmChain } from '../../../evm/read-model.js';
import { ERROR_RESPONSES, PageToken, pageSize } from '../../schemas/common.js';
import { requestNftReindex } from '../../../nft/reindex.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { NftToken, NftTokenList } from './schemas.js';

const Params = Type.Object({ chainId: Type.String(), address: Type.String() });
const TokenParams = Type.Object({ chainId: Type.String(), address: Type.String(), tokenId: Type.String() });
const Query = Type.Object(
  { pageToken: Type.Optional(PageToken), pageSize: pageSize(100, 10) },
  { additionalProperties: false },
);

export function nftRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    app.get(
      '/v1/chains/:chainId/nfts/collections/:address/tokens',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['NFTs'],
          operationId: 'listTokens',
          summary: "List a collection's tokens with their metadata",
          params: Params,
          querystring: Query,
          response: { 200: NftTokenList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const q = request.query as Static<typeof Query>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        const contract = parseEvmAddress(p.address);
        const scope = ['collectionTokens', Number(chain.evm_chain_id), contract];
        const after = q.pageToken ? deps.tokens.open<string>(scope, q.pageToken) : undefined;
        const page = await evm.read.collectionTokens({
          chain: Number(chain.evm_chain_id),
          contract,
          after,
          limit: q.pageSize,
        });
        return {
          ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
          tokens: page.items,
        };
      },
    );

    app.get(
      '/v1/chains/:chainId/nfts/collections/:address/tokens/:tokenId',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['NFTs'],
          operationId: 'getTokenDetails',
          summary: 'Get one token of a collection with its metadata',
          params: TokenParams,
          response: { 200: NftToken, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof TokenParams>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        return evm.read.collectionToken({
          chain: Number(chain.evm_chain_id),
          contract: parseEvmAddress(p.address),
          tokenId: p.tokenId,
        });
      },
    );

    app.post(
      // A parameter ending in a literal colon needs its own pattern, else the colon and what
      // follows it stay in the parameter (`::` is the escaped colon).
      '/v1/chains/:chainId/nfts/collections/:address/tokens/:tokenId(^[^:/]+)::reindex',
      {
        config: { computeUnits: WEIGHT.small },
        schema: {
          tags: ['NFTs'],
          operationId: 'reindexNft',
          summary: "Reindex an NFT token's metadata (once a minute per token on a devnet)",
          params: TokenParams,
          response: { 201: Type.Null({ description: 'Reindex scheduled' }), ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const p = request.params as Static<typeof TokenParams>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        await requestNftReindex(evm.db, {
          chain: Number(chain.evm_chain_id),
          contract: parseEvmAddress(p.address),
          tokenId: p.tokenId,
        });
        return reply.code(201).send();
      },
    );
  };
}
