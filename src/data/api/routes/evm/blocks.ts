/**
 * `GET /v1/chains/{chainId}/blocks` (newest first, keyset pages), `.../blocks/{blockId}`, the
 * block's transactions `.../blocks/{blockId}/transactions`, and the chain's latest transactions
 * `.../transactions`; the newest blocks and transactions across every indexed chain, `GET
 * /v1/blocks` and `GET /v1/transactions`.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  blockTransactions,
  getBlock,
  latestBlocks,
  latestBlocksAcrossChains,
  latestTransactions,
  latestTransactionsAcrossChains,
} from '../../../evm/blocks.js';
import { resolveEvmChain } from '../../../evm/read-model.js';
import { ERROR_RESPONSES, PageToken, StringEnum, pageSize } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import { NETWORKS, matchesNetwork } from './chains.js';
import type { EvmRouteDeps } from './deps.js';
import { EvmBlock, EvmBlockList, NativeList } from './schemas.js';

const ChainParams = Type.Object({ chainId: Type.String() });
const BlockParams = Type.Object({ chainId: Type.String(), blockId: Type.String() });
const ListQuery = Type.Object(
  { pageToken: Type.Optional(PageToken), pageSize: pageSize(100, 10) },
  { additionalProperties: false },
);

const BlockTxsQuery = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    // chainkit sends 0 unless told otherwise (the real service's default): 0 is a full page.
    pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 0, description: '0 to 100; 0 means 100' }),
  },
  { additionalProperties: false },
);
const LatestTxsQuery = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    status: Type.Optional(StringEnum(['failed', 'success'] as const)),
  },
  { additionalProperties: false },
);

const Network = Type.Optional(StringEnum(NETWORKS));
const AllChainsBlocksQuery = Type.Object(
  { pageToken: Type.Optional(PageToken), pageSize: pageSize(100, 10), network: Network },
  { additionalProperties: false },
);
const AllChainsTxsQuery = Type.Object(
  { ...LatestTxsQuery.properties, network: Network },
  { additionalProperties: false },
);

export function blockRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    /** A ListNativeTransactionsResponse, with the token of the next page when there is one. */
    const transactionPage = (scope: unknown[], page: { items: unknown[]; next?: [number, number] }) => ({
      ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
      transactions: page.items,
    });

    /**
     * The indexed chains a cross-chain list leaves out by the `network` filter, or undefined when
     * it keeps none.
     */
    const excludedBy = async (network: (typeof NETWORKS)[number] | undefined) => {
      const rows = await evm.read.chains();
      const kept = rows.filter((r) => matchesNetwork(r, network));
      if (rows.length > 0 && kept.length === 0) return undefined;
      return rows.filter((r) => !kept.includes(r)).map((r) => Number(r.evm_chain_id));
    };

    // chainkit also calls these lists by their earlier paths (data.evm.chains.listAllLatestBlocks,
    // listAllLatestTransactions), with the same parameters and answers: both paths serve them.
    for (const [path, operationId] of [
      ['/v1/blocks', 'listLatestBlocksAllChains'],
      ['/v1/chains/allBlocks', 'listAllLatestBlocks'],
    ] as const)
      app.get(
        path,
        {
          config: { computeUnits: WEIGHT.small },
          schema: {
            tags: ['EVM Blocks'],
            operationId,
            ...(path === '/v1/blocks' ? {} : { deprecated: true }),
            summary: 'List the latest blocks across every indexed EVM chain',
            querystring: AllChainsBlocksQuery,
            response: { 200: EvmBlockList, ...ERROR_RESPONSES },
          },
        },
        async (request) => {
          const q = request.query as Static<typeof AllChainsBlocksQuery>;
          const scope = ['blocksAllChains', q.network ?? null];
          const after = q.pageToken
            ? deps.tokens.open<[number, number, number]>(scope, q.pageToken)
            : undefined;
          const exclude = await excludedBy(q.network);
          if (!exclude) return { blocks: [] };
          const page = await latestBlocksAcrossChains(evm.db, { exclude, after, limit: q.pageSize });
          return {
            ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
            blocks: page.items,
          };
        },
      );

    for (const [path, operationId] of [
      ['/v1/transactions', 'listLatestTransactionsAllChains'],
      ['/v1/chains/allTransactions', 'listAllLatestTransactions'],
    ] as const)
      app.get(
        path,
        {
          config: { computeUnits: WEIGHT.medium },
          schema: {
            tags: ['EVM Transactions'],
            operationId,
            ...(path === '/v1/transactions' ? {} : { deprecated: true }),
            summary: 'List the latest transactions across every indexed EVM chain, newest first',
            querystring: AllChainsTxsQuery,
            response: { 200: NativeList, ...ERROR_RESPONSES },
          },
        },
        async (request) => {
          const q = request.query as Static<typeof AllChainsTxsQuery>;
          const scope = ['transactionsAllChains', q.network ?? null, q.status ?? null];
          const after = q.pageToken
            ? deps.tokens.open<[number, number, number, number]>(scope, q.pageToken)
            : undefined;
          const exclude = await excludedBy(q.network);
          if (!exclude) return { transactions: [] };
          const page = await latestTransactionsAcrossChains(evm.db, {
            exclude,
            status: q.status,
            after,
            limit: q.pageSize,
          });
          return {
            ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
            transactions: page.items,
          };
        },
      );

    app.get(
      '/v1/chains/:chainId/blocks',
      {
        config: { computeUnits: WEIGHT.small },
        schema: {
          tags: ['EVM Blocks'],
          operationId: 'getLatestBlocks',
          summary: 'List the latest blocks',
          params: ChainParams,
          querystring: ListQuery,
          response: { 200: EvmBlockList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof ChainParams>;
        const q = request.query as Static<typeof ListQuery>;
        const chain = Number((await resolveEvmChain(evm.db, p.chainId)).evm_chain_id);
        const scope = ['blocks', chain];
        const after = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
        const page = await latestBlocks(evm.db, { chain, after, limit: q.pageSize });
        return {
          ...(page.next !== undefined ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
          blocks: page.items,
        };
      },
    );

    app.get(
      '/v1/chains/:chainId/blocks/:blockId',
      {
        config: { computeUnits: WEIGHT.small },
        schema: {
          tags: ['EVM Blocks'],
          operationId: 'getBlock',
          summary: 'Get a block by number or hash',
          params: BlockParams,
          response: { 200: EvmBlock, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof BlockParams>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        return getBlock(evm.db, Number(chain.evm_chain_id), p.blockId);
      },
    );

    app.get(
      '/v1/chains/:chainId/blocks/:blockId/transactions',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Blocks'],
          operationId: 'getTransactionsForBlock',
          summary: 'List the transactions of a block, in block order',
          params: BlockParams,
          querystring: BlockTxsQuery,
          response: { 200: NativeList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof BlockParams>;
        const q = request.query as Static<typeof BlockTxsQuery>;
        const chain = Number((await resolveEvmChain(evm.db, p.chainId)).evm_chain_id);
        const scope = ['blockTransactions', chain, p.blockId.toLowerCase()];
        const after = q.pageToken ? deps.tokens.open<[number, number]>(scope, q.pageToken) : undefined;
        const page = await blockTransactions(evm.db, {
          chain,
          blockId: p.blockId,
          after,
          limit: q.pageSize || 100,
        });
        return transactionPage(scope, page);
      },
    );

    app.get(
      '/v1/chains/:chainId/transactions',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Transactions'],
          operationId: 'listLatestTransactions',
          summary: 'List the latest transactions of the chain, newest first',
          params: ChainParams,
          querystring: LatestTxsQuery,
          response: { 200: NativeList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof ChainParams>;
        const q = request.query as Static<typeof LatestTxsQuery>;
        const chain = Number((await resolveEvmChain(evm.db, p.chainId)).evm_chain_id);
        const scope = ['latestTransactions', chain, q.status ?? null];
        const after = q.pageToken ? deps.tokens.open<[number, number]>(scope, q.pageToken) : undefined;
        const page = await latestTransactions(evm.db, {
          chain,
          status: q.status,
          after,
          limit: q.pageSize,
        });
        return transactionPage(scope, page);
      },
    );
  };
}
