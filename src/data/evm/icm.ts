/**
 * ICM (Teleporter) messages read from the rows the EVM indexer correlates across chains
 * (evm_icm_messages), shaped as the real service's Pending / Delivered /
 * DeliveredSourceNotIndexed messages. Lists are newest first on (sort_ts, message id): one index
 * range of the list key table (evm_icm_parties) or of the messages' time index, at any depth.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import type { EvmIcmMessageTable } from '../store/schema-evm.js';
import { cutPage } from '../store/keyset-page.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import { checksumAddress } from './abi.js';

type MessageRow = Selectable<EvmIcmMessageTable>;

export type IcmCursor = [number, string];

export interface IcmFilters {
  source?: string;
  destination?: string;
  /** Either end. */
  chain?: string;
  from?: string;
  to?: string;
  /** Sender or recipient (the by-address list). */
  address?: string;
}

/** A message id: 64 hex digits, with or without 0x; lower-case without 0x as stored. */
export function parseIcmMessageId(value: string): string {
  const m = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(value);
  if (!m) throw new InvalidParameterError(`invalid messageId "${value}": expected 32 bytes of hex`);
  return m[1].toLowerCase();
}

/** The filter's list key, in order of preference; the other filters are checked on the row. */
function keyOf(f: IcmFilters): string | undefined {
  if (f.address) return `addr:${f.address}`;
  if (f.from) return `from:${f.from}`;
  if (f.to) return `to:${f.to}`;
  if (f.source) return `src:${f.source}`;
  if (f.destination) return `dst:${f.destination}`;
  if (f.chain) return `chain:${f.chain}`;
  return undefined;
}

export async function listIcmMessages(
  db: Kysely<DataSchema>,
  args: { filters: IcmFilters; after?: IcmCursor; limit: number },
): Promise<{ rows: MessageRow[]; next?: IcmCursor }> {
  const f = args.filters;
  const key = keyOf(f);
  const after = args.after;
  let q = key
    ? db
        .selectFrom('evm_icm_parties as p')
        .innerJoin('evm_icm_messages as m', 'm.message_id', 'p.message_id')
        .selectAll('m')
        .where('p.key', '=', key)
    : db.selectFrom('evm_icm_messages as m').selectAll('m');
  const sortTs = key ? ('p.sort_ts' as const) : ('m.sort_ts' as const);
  const id = key ? ('p.message_id' as const) : ('m.message_id' as const);
  if (f.source) q = q.where('m.source_blockchain_id', '=', f.source);
  if (f.destination) q = q.where('m.destination_blockchain_id', '=', f.destination);
  if (f.from) q = q.where('m.from_addr', '=', f.from);
  if (f.to) q = q.where('m.to_addr', '=', f.to);
  const chain = f.chain;
  if (chain)
    q = q.where((eb) =>
      eb.or([eb('m.source_blockchain_id', '=', chain), eb('m.destination_blockchain_id', '=', chain)]),
    );
  const address = f.address;
  if (address) q = q.where((eb) => eb.or([eb('m.from_addr', '=', address), eb('m.to_addr', '=', address)]));
  if (after) q = q.where((eb) => eb(eb.refTuple(sortTs, id), '<', eb.tuple(after[0], after[1])));
  const rows = (await q
    .orderBy(sortTs, 'desc')
    .orderBy(id, 'desc')
    .limit(args.limit + 1)
    .execute()) as MessageRow[];
  return cutPage(rows, args.limit, (last): IcmCursor => [Number(last.sort_ts), last.message_id]);
}

export async function getIcmMessageRow(db: Kysely<DataSchema>, messageId: string): Promise<MessageRow> {
  const row = await db
    .selectFrom('evm_icm_messages')
    .selectAll()
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(`ICM message ${messageId} is not indexed`);
  return row;
}

const ZERO = '0x0000000000000000000000000000000000000000';

/**
 * Renders rows as the real service's messages: EVM chain ids from the indexed chains (empty when
 * an end is not indexed), fee token metadata from the source chain's contract rows.
 */
export async function renderIcmMessages(db: Kysely<DataSchema>, rows: MessageRow[]) {
  if (rows.length === 0) return [];
  const chains = new Map(
    (await db.selectFrom('evm_chains').select(['blockchain_id', 'evm_chain_id']).execute()).map((c) => [
      c.blockchain_id,
      String(c.evm_chain_id),
    ]),
  );
  const tokens = [...new Set(rows.filter((r) => r.fee_token !== ZERO).map((r) => r.fee_token))];
  const meta = new Map<string, { name: string | null; symbol: string | null; decimals: number | null }>();
  if (tokens.length > 0)
    for (const c of await db
      .selectFrom('evm_contracts')
      .select(['chain', 'address', 'name', 'symbol', 'decimals'])
      .where('address', 'in', tokens)
      .execute())
      meta.set(`${c.chain}:${c.address}`, c);
  return rows.map((r) => {
    const token = meta.get(`${r.src_chain}:${r.fee_token}`);
    const base = {
      messageId: r.message_id,
      icmContractAddress: checksumAddress(r.contract),
      sourceBlockchainId: r.source_blockchain_id,
      destinationBlockchainId: r.destination_blockchain_id,
      sourceEvmChainId: chains.get(r.source_blockchain_id) ?? '',
      destinationEvmChainId: chains.get(r.destination_blockchain_id) ?? '',
      messageNonce: r.message_nonce,
      from: checksumAddress(r.from_addr),
      to: checksumAddress(r.to_addr),
      data: r.data,
      messageExecuted: Number(r.executed) === 1,
      receipts: (JSON.parse(r.receipts) as [string, string][]).map(([nonce, relayer]) => ({
        receivedMessageNonce: nonce,
        relayerRewardAddress: checksumAddress(relayer),
      })),
      receiptDelivered: Number(r.receipt_delivered) === 1,
      rewardDetails: {
        address: checksumAddress(r.fee_token),
        name: token?.name ?? '',
        symbol: token?.symbol ?? '',
        decimals: Number(token?.decimals ?? 0),
        ercType: 'ERC-20' as const,
        value: r.fee_amount,
      },
    };
    const source =
      r.src_tx_hash !== null
        ? {
            sourceTransaction: {
              txHash: r.src_tx_hash,
              timestamp: Number(r.src_ts),
              gasSpent: r.src_gas ?? '0',
            },
          }
        : {};
    if (r.dst_tx_hash === null) return { ...base, ...source, status: 'pending' as const };
    const destinationTransaction = {
      txHash: r.dst_tx_hash,
      timestamp: Number(r.dst_ts),
      gasSpent: r.dst_gas ?? '0',
      rewardRedeemer: checksumAddress(r.reward_redeemer ?? ZERO),
      delivererAddress: checksumAddress(r.deliverer ?? ZERO),
    };
    return r.src_tx_hash !== null
      ? { ...base, ...source, destinationTransaction, status: 'delivered' as const }
      : { ...base, destinationTransaction, status: 'delivered_source_not_indexed' as const };
  });
}

/**
 * TeleporterMessageInfo of a transaction: the first message (by id) it sent, else the first it
 * delivered; the other end named by its blockchain id.
 */
export async function icmMessageInfoOfTx(db: Kysely<DataSchema>, chain: number, txHash: string) {
  for (const side of ['src', 'dst'] as const) {
    const row = await db
      .selectFrom('evm_icm_messages')
      .select(['message_id', 'source_blockchain_id', 'destination_blockchain_id'])
      .where(`${side}_chain`, '=', chain)
      .where(`${side}_tx_hash`, '=', txHash)
      .orderBy('message_id')
      .limit(1)
      .executeTakeFirst();
    if (row)
      return side === 'src'
        ? {
            teleporterMessageId: row.message_id,
            direction: 'SOURCE_TRANSACTION' as const,
            destinationChainId: row.destination_blockchain_id,
          }
        : {
            teleporterMessageId: row.message_id,
            direction: 'DESTINATION_TRANSACTION' as const,
            sourceChainId: row.source_blockchain_id,
          };
  }
  return undefined;
}
