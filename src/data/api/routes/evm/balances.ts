/**
 * `balances:getNative` (the node's balance at the block, priced from the configured source) and
 * `balances:listErc1155` (balances at the block from the indexed transfers).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseEvmAddress, resolveEvmChain, type ChainRow } from '../../../evm/read-model.js';
import { CURRENCIES, type Currency } from '../../api-keys.js';
import { ERROR_RESPONSES, PageToken, StringEnum, pageSize } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { callChainNode } from './node-rpc.js';
import { nativeTokenPrice } from './prices.js';
import { Erc1155BalanceList, NativeBalanceResponse } from './schemas.js';

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

export function balanceRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::getNative',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Balances'],
          operationId: 'getNativeBalance',
          summary: 'Native token balance at a block',
          params: Params,
          querystring: NativeQuery,
          response: { 200: NativeBalanceResponse, ...ERROR_RESPONSES },
        },
      },
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

    app.get(
      '/v1/chains/:chainId/addresses/:address/balances::listErc1155',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Balances'],
          operationId: 'listErc1155Balances',
          summary: 'ERC-1155 balances at a block',
          params: Params,
          querystring: Erc1155Query,
          response: { 200: Erc1155BalanceList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const q = request.query as Static<typeof Erc1155Query>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        const address = parseEvmAddress(p.address);
        const contract = q.contractAddress
          ? parseEvmAddress(q.contractAddress, 'contractAddress')
          : undefined;
        const chainId = Number(chain.evm_chain_id);
        // Without blockNumber the balances are as of the newest indexed block, and the native
        // balance is read at that same block so the two halves of the answer agree.
        const blockNumber =
          q.blockNumber !== undefined ? Number(q.blockNumber) : await evm.read.head(chainId);
        const scope = ['listErc1155', chainId, address, blockNumber ?? null, contract ?? null];
        const after = q.pageToken ? deps.tokens.open<[string, string]>(scope, q.pageToken) : undefined;
        const page = await evm.read.erc1155Balances({
          chain: chainId,
          address,
          blockNumber,
          contracts: contract ? [contract] : undefined,
          after,
          limit: q.pageSize,
        });
        return {
          ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
          nativeTokenBalance: await nativeBalance(
            chain,
            address,
            blockNumber === undefined ? undefined : String(blockNumber),
            q.currency ?? 'usd',
            evm.prices,
          ),
          erc1155TokenBalances: page.items,
        };
      },
    );
  };
}
