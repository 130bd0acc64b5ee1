/**
 * ICM (Teleporter) messages: `GET /v1/icm/messages/{messageId}`, `GET /v1/icm/messages` and
 * `GET /v1/icm/addresses/{address}/messages` (chainkit data.icm.get, list, listByAddress), over
 * the messages the EVM indexer correlates across the indexed chains. Each is also served at its
 * earlier `/v1/teleporter/…` path, which chainkit (data.teleporter.*) and glacier-sdk
 * (TeleporterService) still call: the same answers and page tokens, marked deprecated.
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

/**
 * The message at the deprecated `/v1/teleporter/…` paths: the Teleporter schemas name the
 * contract `teleporterContractAddress`, except the list's `delivered_source_not_indexed` member,
 * which the reference document (and chainkit's zod schema after it) takes from the ICM schema,
 * `icmContractAddress`. Both are written, so every status parses on either reading.
 */
const TeleporterMessage = Type.Object(
  Object.fromEntries(
    Object.entries(IcmMessage.properties).flatMap(([key, schema]) =>
      key === 'icmContractAddress'
        ? [
            ['teleporterContractAddress', schema],
            [key, schema],
          ]
        : [[key, schema]],
    ),
  ),
);
const TeleporterMessageList = Type.Object({
  nextPageToken: Opt(Type.String()),
  messages: Type.Array(TeleporterMessage),
});
type Rendered = Awaited<ReturnType<typeof renderIcmMessages>>[number];
const asTeleporter = (m: Rendered) => ({ ...m, teleporterContractAddress: m.icmContractAddress });

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
      teleporter: boolean,
    ) => {
      const after = q.pageToken ? deps.tokens.open<IcmCursor>(scope, q.pageToken) : undefined;
      if (!(await networkKeeps(q.network))) return { messages: [] };
      const result = await listIcmMessages(evm.db, { filters, after, limit: q.pageSize });
      return {
        ...(result.next ? { nextPageToken: deps.tokens.issue(scope, result.next) } : {}),
        messages: (await renderIcmMessages(evm.db, result.rows)).map((m) =>
          teleporter ? asTeleporter(m) : m,
        ),
      };
    };

    /** The route's current path and its deprecated Teleporter path, with their operation ids. */
    const both = (path: string, operationId: string, oldOperationId: string) =>
      [
        { path: `/v1/icm/${path}`, operationId, deprecated: false, teleporter: false },
        { path: `/v1/teleporter/${path}`, operationId: oldOperationId, deprecated: true, teleporter: true },
      ] as const;

    for (const { path, operationId, deprecated, teleporter } of both(
      'messages/:messageId',
      'getIcmMessage',
      'getTeleporterMessage',
    ))
      app.get(
        path,
        {
          config: { computeUnits: WEIGHT.medium },
          schema: {
            tags: ['Interchain Messaging'],
            operationId,
            ...(deprecated ? { deprecated } : {}),
            summary: 'Get an ICM message by its Teleporter message id',
            params: IdParams,
            response: { 200: teleporter ? TeleporterMessage : IcmMessage, ...ERROR_RESPONSES },
          },
        },
        async (request) => {
          const p = request.params as Static<typeof IdParams>;
          const row = await getIcmMessageRow(evm.db, parseIcmMessageId(p.messageId));
          const [message] = await renderIcmMessages(evm.db, [row]);
          return teleporter ? asTeleporter(message) : message;
        },
      );

    for (const { path, operationId, deprecated, teleporter } of both(
      'messages',
      'listIcmMessages',
      'listTeleporterMessages',
    ))
      app.get(
        path,
        {
          config: { computeUnits: WEIGHT.medium },
          schema: {
            tags: ['Interchain Messaging'],
            operationId,
            ...(deprecated ? { deprecated } : {}),
            summary: 'List ICM messages, newest first',
            querystring: ListQuery,
            response: { 200: teleporter ? TeleporterMessageList : IcmMessageList, ...ERROR_RESPONSES },
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
          return page(scope, filters, q, teleporter);
        },
      );

    for (const { path, operationId, deprecated, teleporter } of both(
      'addresses/:address/messages',
      'listIcmMessagesByAddress',
      'listTeleporterMessagesByAddress',
    ))
      app.get(
        path,
        {
          config: { computeUnits: WEIGHT.medium },
          schema: {
            tags: ['Interchain Messaging'],
            operationId,
            ...(deprecated ? { deprecated } : {}),
            summary: 'List the ICM messages an address sent or was sent, newest first',
            params: AddressParams,
            querystring: AddressQuery,
            response: { 200: teleporter ? TeleporterMessageList : IcmMessageList, ...ERROR_RESPONSES },
          },
        },
        async (request) => {
          const p = request.params as Static<typeof AddressParams>;
          const q = request.query as Static<typeof AddressQuery>;
          const address = parseEvmAddress(p.address);
          return page(['icmMessagesByAddress', address, q.network ?? null], { address }, q, teleporter);
        },
      );
  };
}
