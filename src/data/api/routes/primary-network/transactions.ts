/**
 * The primary network's transactions: `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions`
 * (a chain's transactions, filtered by addresses, types and time), `…/transactions/{txHash}` (one)
 * and `…/transactions:listStaking` (the P-chain's open staking transactions). Each answers in the
 * shape of its chain: PChainTransaction, XChainLinearTransaction, or the C-chain's atomic txs.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { NetworkIdentity } from '../../../../shared/networks.js';
import { InvalidParameterError } from '../../../internal/errors.js';
import { parseAddresses, parseCb58Id, resolveChain, resolveNetwork } from '../../../networks.js';
import type { TxCursor } from '../../../store/queries/pn-transactions.js';
import { chainInfo } from '../../repositories/format.js';
import {
  ERROR_RESPONSES,
  Network,
  PageToken,
  SortOrder,
  StringEnum,
  pageSize,
  storedInteger,
} from '../../schemas/common.js';
import {
  PChainTransactionList,
  PrimaryNetworkTransaction,
  PrimaryNetworkTransactionList,
} from '../../schemas/pn-transactions.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import { PRIMARY_NETWORK_TX_TYPES } from './asset-transactions.js';

/** Addresses per request: each is one index range of a page. */
const MAX_ADDRESSES = 64;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const Params = Type.Object({
  network: Network,
  blockchainId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'p-chain, x-chain, c-chain or a chain id',
  }),
});
const TxParams = Type.Object({ ...Params.properties, txHash: Type.String({ minLength: 1, maxLength: 64 }) });
const filters = {
  addresses: Type.Optional(
    Type.String({ minLength: 1, description: `comma-separated, at most ${MAX_ADDRESSES}` }),
  ),
  txTypes: Type.Optional(Type.Array(StringEnum(PRIMARY_NETWORK_TX_TYPES), { maxItems: 23 })),
  startTimestamp: Type.Optional(storedInteger()),
  endTimestamp: Type.Optional(storedInteger()),
  pageToken: Type.Optional(PageToken),
  pageSize: pageSize(100, 10),
  sortOrder: Type.Optional(SortOrder),
};
const Query = Type.Object(
  { ...filters, l1ValidationId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);
const StakingQuery = Type.Object(filters, { additionalProperties: false });
type ListQuery = Static<typeof StakingQuery>;

/** Bech32 addresses (any chain prefix) without prefix, and 0x addresses in lower case when allowed. */
function parseAddressFilter(network: NetworkIdentity, list: string | undefined, evm: boolean): string[] {
  if (list === undefined) return [];
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length > MAX_ADDRESSES)
    throw new InvalidParameterError(`at most ${MAX_ADDRESSES} addresses per request, got ${parts.length}`);
  const hex = parts.filter((p) => p.toLowerCase().startsWith('0x'));
  for (const h of hex) {
    if (!evm)
      throw new InvalidParameterError(`invalid address "${h}": EVM addresses are not accepted on this route`);
    if (!EVM_ADDRESS.test(h)) throw new InvalidParameterError(`invalid address "${h}"`);
  }
  const bech32 = parts.filter((p) => !p.toLowerCase().startsWith('0x'));
  return [
    ...new Set([
      ...(bech32.length > 0 || hex.length === 0
        ? parseAddresses(network, bech32.join(','), MAX_ADDRESSES)
        : []),
      ...hex.map((h) => h.toLowerCase()),
    ]),
  ].sort();
}

function listFilters(network: NetworkIdentity, q: ListQuery, evm: boolean) {
  if (q.startTimestamp !== undefined && q.endTimestamp !== undefined && q.startTimestamp > q.endTimestamp)
    throw new InvalidParameterError('startTimestamp must not be after endTimestamp');
  return {
    addresses: parseAddressFilter(network, q.addresses, evm),
    txTypes: q.txTypes ? [...new Set(q.txTypes)].sort() : undefined,
    startTimestamp: q.startTimestamp,
    endTimestamp: q.endTimestamp,
    // Latest first, as the route's name says.
    sortOrder: q.sortOrder ?? ('desc' as const),
  };
}

/** The page is sent as the handler builds it (a union of shapes: see the schema for each). */
const passThrough = () => (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data));

export default async function primaryNetworkTransactionsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/transactions',
    {
      config: { computeUnits: WEIGHT.xl },
      serializerCompiler: passThrough,
      schema: {
        tags: ['Primary Network Transactions'],
        operationId: 'listLatestPrimaryNetworkTransactions',
        summary: 'List latest transactions',
        params: Params,
        querystring: Query,
        response: { 200: PrimaryNetworkTransactionList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      const network = resolveNetwork(deps.network, params.network);
      const chain = resolveChain(network, params.blockchainId);
      const f = listFilters(network, q, true);
      // The P-chain txs that registered or changed the validation (conversion, registration,
      // weight, top-up, disable), as the indexer's L1 fee replay recorded them.
      const validationId =
        q.l1ValidationId === undefined ? undefined : parseCb58Id(q.l1ValidationId, 'l1ValidationId');
      const scope = [
        'pnTxs',
        chain.blockchainId,
        f.addresses,
        f.txTypes,
        validationId,
        f.startTimestamp,
        f.endTimestamp,
        f.sortOrder,
      ];
      const after = q.pageToken ? deps.tokens.open<TxCursor>(scope, q.pageToken) : undefined;
      const { transactions, next } = await deps.repo.transactions({
        chainId: chain.blockchainId,
        ...f,
        validationId,
        after,
        limit: q.pageSize,
      });
      return {
        ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
        transactions,
        chainInfo: chainInfo(chain.blockchainId, network, params.network),
      };
    },
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/transactions::listStaking',
    {
      config: { computeUnits: WEIGHT.xl },
      serializerCompiler: passThrough,
      schema: {
        tags: ['Primary Network Transactions'],
        operationId: 'listActivePrimaryNetworkStakingTransactions',
        summary: 'List staking transactions',
        params: Params,
        querystring: StakingQuery,
        response: { 200: PChainTransactionList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as ListQuery;
      const network = resolveNetwork(deps.network, params.network);
      const chain = resolveChain(network, params.blockchainId, ['p-chain']);
      const f = listFilters(network, q, false);
      const scope = ['pnStaking', f.addresses, f.txTypes, f.startTimestamp, f.endTimestamp, f.sortOrder];
      const after = q.pageToken ? deps.tokens.open<TxCursor>(scope, q.pageToken) : undefined;
      const { transactions, next } = await deps.repo.stakingTransactions({ ...f, after, limit: q.pageSize });
      return {
        ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
        transactions,
        chainInfo: chainInfo(chain.blockchainId, network, params.network),
      };
    },
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/transactions/:txHash',
    {
      config: { computeUnits: WEIGHT.medium },
      serializerCompiler: passThrough,
      schema: {
        tags: ['Primary Network Transactions'],
        operationId: 'getTxByHash',
        summary: 'Get transaction',
        params: TxParams,
        response: { 200: PrimaryNetworkTransaction, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof TxParams>;
      const network = resolveNetwork(deps.network, params.network);
      const chain = resolveChain(network, params.blockchainId);
      return deps.repo.transaction(chain.blockchainId, parseCb58Id(params.txHash, 'txHash'));
    },
  );
}
