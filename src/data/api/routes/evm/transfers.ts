/**
 * The five `GET /v1/chains/{chainId}/addresses/{address}/transactions:list*` routes,
 * `…/transactions`, every transaction of the address with its transfers (listTransactions, and
 * `/v2/…/transactions`, the same with `tokenReputation`), and
 * `GET /v1/chains/{chainId}/tokens/{address}/transfers`, a token contract's transfers.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseEvmAddress, rangeCheck, resolveEvmChain } from '../../../evm/read-model.js';
import { addressTransactions } from '../../../evm/transaction-detail.js';
import { ERROR_RESPONSES, PageToken, SortOrder, pageSize, storedInteger } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import {
  Erc1155List,
  Erc20List,
  Erc721List,
  InternalList,
  NativeList,
  TransactionDetailsList,
  TransactionDetailsListV2,
  TransferList,
} from './schemas.js';

const Params = Type.Object({ chainId: Type.String(), address: Type.String() });
const Query = Type.Object(
  {
    startBlock: Type.Optional(storedInteger('inclusive')),
    endBlock: Type.Optional(storedInteger('exclusive')),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
  },
  { additionalProperties: false },
);

const ListQuery = Type.Object(
  { ...Query.properties, sortOrder: Type.Optional(SortOrder) },
  { additionalProperties: false },
);

const ListQueryV2 = Type.Object(
  {
    ...ListQuery.properties,
    // No spam list on a devnet: every token is kept either way.
    filterSpamTokens: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const KINDS = {
  listNative: {
    schema: NativeList,
    operationId: 'listNativeTransactions',
    summary: 'List native transactions',
  },
  listErc20: { schema: Erc20List, operationId: 'listErc20Transactions', summary: 'List ERC-20 transfers' },
  listErc721: {
    schema: Erc721List,
    operationId: 'listErc721Transactions',
    summary: 'List ERC-721 transfers',
  },
  listErc1155: {
    schema: Erc1155List,
    operationId: 'listErc1155Transactions',
    summary: 'List ERC-1155 transfers (a TransferBatch gives one transfer per token id)',
  },
  listInternals: {
    schema: InternalList,
    operationId: 'listInternalTransactions',
    summary: 'List internal transactions (value-moving calls and contract creations)',
  },
} as const;

/**
 * The chain, address and block range of an address list request, and the page-token scope that
 * binds a token to them and to `route` (the list and any ordering).
 */
async function listRequest(evm: EvmRouteDeps, request: FastifyRequest, route: unknown[]) {
  const p = request.params as Static<typeof Params>;
  const q = request.query as Static<typeof Query>;
  const chain = await resolveEvmChain(evm.db, p.chainId);
  const address = parseEvmAddress(p.address);
  const range = { startBlock: q.startBlock, endBlock: q.endBlock };
  rangeCheck(range);
  const scope = [
    route[0],
    Number(chain.evm_chain_id),
    address,
    range.startBlock ?? null,
    range.endBlock ?? null,
    ...route.slice(1),
  ];
  return { chain, address, range, scope };
}

type Cursor = [number, number] | [number, number, number];

export function transferRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    for (const [kind, meta] of Object.entries(KINDS) as [
      keyof typeof KINDS,
      (typeof KINDS)[keyof typeof KINDS],
    ][]) {
      app.get(
        `/v1/chains/:chainId/addresses/:address/transactions::${kind}`,
        {
          config: { computeUnits: WEIGHT.medium },
          schema: {
            tags: ['EVM Transactions'],
            operationId: meta.operationId,
            summary: meta.summary,
            params: Params,
            querystring: Query,
            response: { 200: meta.schema, ...ERROR_RESPONSES },
          },
        },
        async (request) => {
          const q = request.query as Static<typeof Query>;
          const { chain, address, range, scope } = await listRequest(evm, request, [kind]);
          const after = q.pageToken ? deps.tokens.open<Cursor>(scope, q.pageToken) : undefined;
          const args = { chain: Number(chain.evm_chain_id), address, ...range, after, limit: q.pageSize };
          const page =
            kind === 'listNative'
              ? await evm.read.listNative(args)
              : kind === 'listInternals'
                ? await evm.read.listInternals(args)
                : await evm.read.listTokenTransfers(
                    kind === 'listErc20' ? 'erc20' : kind === 'listErc721' ? 'erc721' : 'erc1155',
                    args,
                  );
          return {
            ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
            transactions: page.items,
          };
        },
      );
    }

    /** One page of the address's transactions as the v1 list builds it (both versions read it). */
    async function transactionsPage(request: FastifyRequest, route: string) {
      const q = request.query as Static<typeof ListQuery>;
      // Newest first unless asked, as every other EVM list.
      const order = q.sortOrder ?? 'desc';
      const { chain, address, range, scope } = await listRequest(evm, request, [route, order]);
      const after = q.pageToken ? deps.tokens.open<[number, number]>(scope, q.pageToken) : undefined;
      const page = await addressTransactions(evm.db, {
        chain: Number(chain.evm_chain_id),
        address,
        ...range,
        order,
        after,
        limit: q.pageSize,
      });
      return {
        ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
        transactions: page.items,
      };
    }

    app.get(
      '/v1/chains/:chainId/addresses/:address/transactions',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Transactions'],
          operationId: 'listTransactions',
          summary: 'List the transactions of an address with its transfers and internal transactions',
          params: Params,
          querystring: ListQuery,
          response: { 200: TransactionDetailsList, ...ERROR_RESPONSES },
        },
      },
      (request) => transactionsPage(request, 'transactions'),
    );

    app.get(
      '/v2/chains/:chainId/addresses/:address/transactions',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Transactions'],
          operationId: 'listTransactionsV2',
          summary: 'List the transactions of an address (v2: ERC-20 tokens carry tokenReputation)',
          params: Params,
          querystring: ListQueryV2,
          response: { 200: TransactionDetailsListV2, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        // Its own page-token scope: a v1 token does not continue a v2 walk, nor the reverse.
        const page = await transactionsPage(request, 'transactionsV2');
        return {
          ...page,
          transactions: page.transactions.map((t) => ({
            ...t,
            // No spam list and no reputation analysis on a devnet: every token is kept, unrated.
            erc20Transfers: t.erc20Transfers.map((e) => ({
              ...e,
              erc20Token: { ...e.erc20Token, tokenReputation: null },
            })),
          })),
        };
      },
    );

    app.get(
      '/v1/chains/:chainId/tokens/:address/transfers',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Transactions'],
          operationId: 'listTransfers',
          summary: "List a token contract's ERC-20, ERC-721 or ERC-1155 transfers",
          params: Params,
          querystring: Query,
          response: { 200: TransferList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const q = request.query as Static<typeof Query>;
        const { chain, address, range, scope } = await listRequest(evm, request, ['tokenTransfers']);
        const after = q.pageToken ? deps.tokens.open<Cursor>(scope, q.pageToken) : undefined;
        const page = await evm.read.tokenTransfers({
          chain: Number(chain.evm_chain_id),
          token: address,
          ...range,
          after,
          limit: q.pageSize,
        });
        return {
          ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
          transfers: page.items,
        };
      },
    );
  };
}
