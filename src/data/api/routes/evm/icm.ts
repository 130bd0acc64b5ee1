/**
 * ICM (Teleporter) messages: `GET /v1/icm/messages/{messageId}`, `GET /v1/icm/messages` and
 * `GET /v1/icm/addresses/{address}/messages` (chainkit data.icm.get, list, listByAddress), over
 * the messages the EVM indexer correlates across the indexed chains.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  getIcmMessageRow,
  listIcmMessages,
  parseIcmMessageId,
  renderIcmMessages,
  type IcmCursor,
  type IcmFilters,
} from '../../../evm/icm.js';
import { parseEvmAddress, resolveEvmChain } from '../../../evm/read-model.js';
import type { DataSchema } from '../../../store/schema.js';
import type { Kysely } from 'kysely';
import { parseCb58Id } from '../../../networks.js';
import { ERROR_RESPONSES, PageToken, StringEnum, pageSize } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import { NETWORKS, matchesNetwork } from './chains.js';
import type { EvmRouteDeps } from './deps.js';

const Opt = Type.Optional;

/** Pending, Delivered and DeliveredSourceNotIndexed in one object: `status` tells which. */
export const IcmMessage = Type.Object({
  messageId: Type.String(),
  icmContractAddress: Type.String(),
  sourceBlockchainId: Type.String(),
  destinationBlockchainId: Type.String(),
  sourceEvmChainId: Type.String(),
  destinationEvmChainId: Type.String(),
  messageNonce: Type.String(),
  from: Type.String(),
  to: Type.String(),
  data: Opt(Type.String()),
  messageExecuted: Type.Boolean(),
  receipts: Type.Array(
    Type.Object({ receivedMessageNonce: Type.String(), relayerRewardAddress: Type.String() }),
  ),
  receiptDelivered: Type.Boolean(),
  rewardDetails: Type.Object({
    address: Type.String(),
    name: Type.String(),
    symbol: Type.String(),
    decimals: Type.Number(),
    logoUri: Opt(Type.String()),
    ercType: StringEnum(['ERC-20'] as const),
    value: Type.String(),
  }),
  sourceTransaction: Opt(
    Type.Object({ txHash: Type.String(), timestamp: Type.Number(), gasSpent: Type.String() }),
  ),
  destinationTransaction: Opt(
    Type.Object({
      txHash: Type.String(),
      timestamp: Type.Number(),
      gasSpent: Type.String(),
      rewardRedeemer: Type.String(),
      delivererAddress: Type.String(),
    }),
  ),
  status: StringEnum(['pending', 'delivered', 'delivered_source_not_indexed'] as const),
});

const IcmMessageList = Type.Object({
  nextPageToken: Opt(Type.String()),
  messages: Type.Array(IcmMessage),
});

const Network = Opt(StringEnum(NETWORKS));
const ListQuery = Type.Object(
  {
    pageToken: Opt(PageToken),
    pageSize: pageSize(100, 10),
    sourceBlockchainId: Opt(Type.String()),
    destinationBlockchainId: Opt(Type.String()),
    blockchainId: Opt(Type.String()),
    to: Opt(Type.String()),
    from: Opt(Type.String()),
    network: Network,
  },
  { additionalProperties: false },
);
const AddressQuery = Type.Object(
  { pageToken: Opt(PageToken), pageSize: pageSize(100, 10), network: Network },
  { additionalProperties: false },
);
const IdParams = Type.Object({ messageId: Type.String() });
const AddressParams = Type.Object({ address: Type.String() });

/** A chain filter: a cb58 blockchain id (indexed or not) or the EVM chain id of an indexed chain. */
async function chainFilter(
  db: Kysely<DataSchema>,
  value: string | undefined,
  what: string,
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (/^\d{1,15}$/.test(value)) return (await resolveEvmChain(db, value)).blockchain_id;
  return parseCb58Id(value, what);
}

export function icmRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    /** False when the `network` filter keeps none of the indexed chains (the list is empty). */
    const networkKeeps = async (network: (typeof NETWORKS)[number] | undefined) =>
      !network || (await evm.read.chains()).some((r) => matchesNetwork(r, network));

    const page = async (
      scope: unknown[],
      filters: IcmFilters,
      q: { pageToken?: string; pageSize: number; network?: (typeof NETWORKS)[number] },
    ) => {
      const after = q.pageToken ? deps.tokens.open<IcmCursor>(scope, q.pageToken) : undefined;
      if (!(await networkKeeps(q.network))) return { messages: [] };
      const result = await listIcmMessages(evm.db, { filters, after, limit: q.pageSize });
      return {
        ...(result.next ? { nextPageToken: deps.tokens.issue(scope, result.next) } : {}),
        messages: await renderIcmMessages(evm.db, result.rows),
      };
    };

    app.get(
      '/v1/icm/messages/:messageId',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['Interchain Messaging'],
          operationId: 'getIcmMessage',
          summary: 'Get an ICM message by its Teleporter message id',
          params: IdParams,
          response: { 200: IcmMessage, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof IdParams>;
        const row = await getIcmMessageRow(evm.db, parseIcmMessageId(p.messageId));
        return (await renderIcmMessages(evm.db, [row]))[0];
      },
    );

    app.get(
      '/v1/icm/messages',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['Interchain Messaging'],
          operationId: 'listIcmMessages',
          summary: 'List ICM messages, newest first',
          querystring: ListQuery,
          response: { 200: IcmMessageList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const q = request.query as Static<typeof ListQuery>;
        const filters: IcmFilters = {
          source: await chainFilter(evm.db, q.sourceBlockchainId, 'sourceBlockchainId'),
          destination: await chainFilter(evm.db, q.destinationBlockchainId, 'destinationBlockchainId'),
          chain: await chainFilter(evm.db, q.blockchainId, 'blockchainId'),
          from: q.from === undefined ? undefined : parseEvmAddress(q.from, 'from'),
          to: q.to === undefined ? undefined : parseEvmAddress(q.to, 'to'),
        };
        const scope = [
          'icmMessages',
          filters.source ?? null,
          filters.destination ?? null,
          filters.chain ?? null,
          filters.from ?? null,
          filters.to ?? null,
          q.network ?? null,
        ];
        return page(scope, filters, q);
      },
    );

    app.get(
      '/v1/icm/addresses/:address/messages',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['Interchain Messaging'],
          operationId: 'listIcmMessagesByAddress',
          summary: 'List the ICM messages an address sent or was sent, newest first',
          params: AddressParams,
          querystring: AddressQuery,
          response: { 200: IcmMessageList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof AddressParams>;
        const q = request.query as Static<typeof AddressQuery>;
        const address = parseEvmAddress(p.address);
        return page(['icmMessagesByAddress', address, q.network ?? null], { address }, q);
      },
    );
  };
}
