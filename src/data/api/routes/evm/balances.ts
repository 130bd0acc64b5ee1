/**
 * `balances:getNative` (the node's balance at the block, priced from the configured source),
 * `balances:listErc20` (the tokens the indexed transfers name, each at the node's `balanceOf` at
 * the block), `balances:listErc1155` (balances at the block from the indexed transfers),
 * `balances:listErc721` (the ERC-721 tokens held now, from the same transfers),
 * `balances:listCollectibles` (both NFT standards in one list).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseEvmAddress, resolveEvmChain, type ChainRow } from '../../../evm/read-model.js';
import { CURRENCIES, type Currency } from '../../api-keys.js';
import { ERROR_RESPONSES, PageToken, StringEnum, pageSize } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { callChainNode, erc20BalancesAt } from './node-rpc.js';
import { nativeTokenPrice } from './prices.js';
import {
  CollectibleBalanceList,
  Erc1155BalanceList,
  Erc20BalanceList,
  Erc721BalanceList,
  NativeBalanceResponse,
} from './schemas.js';

const Params = Type.Object({ chainId: Type.String(), address: Type.String() });
const BlockNumber = Type.String({
  pattern: '^[0-9]{1,15}$',
  description: 'decimal block number; default latest',
});
const NativeQuery = Type.Object(
  { blockNumber: Type.Optional(BlockNumber), currency: Type.Optional(StringEnum(CURRENCIES)) },
  { additionalProperties: false },
);
const Erc1155Query = Type.Object(
  {
    blockNumber: Type.Optional(BlockNumber),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(500, 10),
    contractAddress: Type.Optional(Type.String()),
    currency: Type.Optional(StringEnum(CURRENCIES)),
  },
  { additionalProperties: false },
);
const Erc721Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(500, 10),
    contractAddress: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const Erc20Query = Type.Object(
  {
    blockNumber: Type.Optional(BlockNumber),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(500, 10),
    // No spam list on a devnet: every token is kept either way.
    filterSpamTokens: Type.Optional(Type.Boolean({ default: true })),
    contractAddresses: Type.Optional(
      Type.String({ maxLength: 4300, description: 'comma-separated contract addresses' }),
    ),
    currency: Type.Optional(StringEnum(CURRENCIES)),
  },
  { additionalProperties: false },
);

/** The native balance at `blockNumber` (or latest), read from the chain's node. */
async function nativeBalance(
  chain: ChainRow,
  address: string,
  blockNumber: string | undefined,
  currency: Currency,
  prices: EvmRouteDeps['prices'],
) {
  const tag = blockNumber === undefined ? 'latest' : '0x' + BigInt(blockNumber).toString(16);
  const balance = BigInt(
    await callChainNode<string>(
      chain,
      'eth_getBalance',
      [address, tag],
      `the balance at block ${blockNumber}`,
    ),
  );
  const out: Record<string, unknown> = {
    name: chain.token_name,
    symbol: chain.token_symbol,
    decimals: Number(chain.token_decimals),
    chainId: String(chain.evm_chain_id),
    balance: balance.toString(),
  };
  const price = nativeTokenPrice(chain, currency, prices);
  if (price) {
    out.price = price;
    const units = Number(balance) / 10 ** Number(chain.token_decimals);
    out.balanceValue = { currencyCode: currency, value: Math.round(units * price.value * 1e6) / 1e6 };
  }
  return out;
}

/** What every balance route declares: its weight (medium, as the real service) and schemas. */
function routeOptions(operationId: string, summary: string, querystring: TSchema, response: TSchema) {
  return {
    config: { computeUnits: WEIGHT.medium },
    schema: {
      tags: ['EVM Balances'],
      operationId,
      summary,
      params: Params,
      querystring,
      response: { 200: response, ...ERROR_RESPONSES },
    },
  };
}

export function balanceRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::getNative',
      routeOptions('getNativeBalance', 'Native token balance at a block', NativeQuery, NativeBalanceResponse),
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const q = request.query as Static<typeof NativeQuery>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        const address = parseEvmAddress(p.address);
        return {
          nativeTokenBalance: await nativeBalance(
            chain,
            address,
            q.blockNumber,
            q.currency ?? 'usd',
            evm.prices,
          ),
        };
      },
    );

    /**
     * The two token balance lists: the balances at `blockNumber` from the indexed transfers, and
     * the native balance at that same block. Without blockNumber that is the newest indexed
     * block, so the two halves of the answer agree.
     */
    const tokenBalanceList = async (
      kind: 'erc20' | 'erc721' | 'erc1155',
      p: Static<typeof Params>,
      q: { blockNumber?: string; pageToken?: string; pageSize: number; currency?: Currency },
      contracts: string[] | undefined,
    ) => {
      const chain = await resolveEvmChain(evm.db, p.chainId);
      const address = parseEvmAddress(p.address);
      const chainId = Number(chain.evm_chain_id);
      const requested = q.blockNumber !== undefined ? Number(q.blockNumber) : undefined;
      const scope = [`list-${kind}-balances`, chainId, address, requested ?? null, contracts ?? null];
      // The cursor carries the block the listing reads: without blockNumber, the next pages stay
      // at the newest block of the first page's time, however far the chain has moved since (the
      // token was bound to that head, so a new block made every later page a 400).
      const cursor = q.pageToken
        ? deps.tokens.open<[string, string, number | null]>(scope, q.pageToken)
        : undefined;
      const blockNumber = requested ?? cursor?.[2] ?? (await evm.read.head(chainId));
      const after = cursor ? ([cursor[0], cursor[1]] as [string, string]) : undefined;
      const args = { chain: chainId, address, blockNumber, contracts, after, limit: q.pageSize };
      const tag = blockNumber === undefined ? 'latest' : '0x' + blockNumber.toString(16);
      const page =
        kind === 'erc20'
          ? await evm.read.erc20Balances({
              ...args,
              chainBalances: (tokens) => erc20BalancesAt(chain, address, tokens, tag),
            })
          : kind === 'erc721'
            ? await evm.read.erc721Balances(args)
            : await evm.read.erc1155Balances(args);
      return {
        ...(page.next
          ? { nextPageToken: deps.tokens.issue(scope, [...page.next, blockNumber ?? null]) }
          : {}),
        nativeTokenBalance: await nativeBalance(
          chain,
          address,
          blockNumber === undefined ? undefined : String(blockNumber),
          q.currency ?? 'usd',
          evm.prices,
        ),
        [`${kind}TokenBalances`]: page.items,
      };
    };

    /** The NFT balance lists: one contract at most (`contractAddress`). */
    const nftBalanceList = (kind: 'erc721' | 'erc1155') => async (request: FastifyRequest) => {
      const q = request.query as Static<typeof Erc1155Query>;
      const contract = q.contractAddress ? parseEvmAddress(q.contractAddress, 'contractAddress') : undefined;
      return tokenBalanceList(
        kind,
        request.params as Static<typeof Params>,
        q,
        contract ? [contract] : undefined,
      );
    };

    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::listErc1155',
      routeOptions('listErc1155Balances', 'ERC-1155 balances at a block', Erc1155Query, Erc1155BalanceList),
      nftBalanceList('erc1155'),
    );

    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::listErc721',
      routeOptions('listErc721Balances', 'ERC-721 tokens held', Erc721Query, Erc721BalanceList),
      nftBalanceList('erc721'),
    );

    /**
     * ERC-721 and ERC-1155 holdings in one list, in (contract, token id) order, at the newest
     * indexed block of the first page (the cursor keeps it, as in the lists above).
     */
    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::listCollectibles',
      routeOptions(
        'listCollectibleBalances',
        'ERC-721 and ERC-1155 tokens held',
        Erc721Query,
        CollectibleBalanceList,
      ),
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const q = request.query as Static<typeof Erc721Query>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        const address = parseEvmAddress(p.address);
        const contract = q.contractAddress
          ? parseEvmAddress(q.contractAddress, 'contractAddress')
          : undefined;
        const chainId = Number(chain.evm_chain_id);
        const scope = ['list-collectible-balances', chainId, address, contract ?? null];
        const cursor = q.pageToken
          ? deps.tokens.open<[string, string, string, number | null]>(scope, q.pageToken)
          : undefined;
        const blockNumber = cursor ? (cursor[3] ?? undefined) : await evm.read.head(chainId);
        const page = await evm.read.collectibleBalances({
          chain: chainId,
          address,
          blockNumber,
          contracts: contract ? [contract] : undefined,
          after: cursor?.slice(0, 3) as string[] | undefined,
          limit: q.pageSize,
        });
        return {
          ...(page.next
            ? { nextPageToken: deps.tokens.issue(scope, [...page.next, blockNumber ?? null]) }
            : {}),
          collectibleBalances: page.items,
        };
      },
    );

    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::listErc20',
      routeOptions('listErc20Balances', 'ERC-20 balances at a block', Erc20Query, Erc20BalanceList),
      async (request) => {
        const q = request.query as Static<typeof Erc20Query>;
        // A comma-separated list; sorted and deduplicated so equal filters share page tokens.
        const contracts = q.contractAddresses
          ? [
              ...new Set(
                q.contractAddresses.split(',').map((a) => parseEvmAddress(a.trim(), 'contractAddresses')),
              ),
            ].sort()
          : undefined;
        return tokenBalanceList('erc20', request.params as Static<typeof Params>, q, contracts);
      },
    );
  };
}
