/**
 * Primary-network transactions of one chain (P, X, or the C-chain's atomic txs), in time order,
 * keyset-paginated on (timestamp, seq). A page reads one index range per address, or per
 * transaction type without addresses, each at most `limit + 1` rows long, and merges them: its
 * cost does not grow with its depth. Index ranges: `transaction_addresses` (chain, address, ts,
 * seq), `transactions_by_type_time` and `transactions_by_time`.
 */
import type { Kysely } from 'kysely';
import { cutPage } from '../keyset-page.js';
import type { DataSchema } from '../schema.js';
import type { TransactionRow } from './transactions.js';
import type { SortOrder } from './utxos.js';

/** Position after the last row of a page. */
export interface TxCursor {
  ts: number;
  seq: number;
}

export interface ChainTxQuery {
  chainId: string;
  /** bech32 without chain prefix, or lower-case 0x EVM addresses; empty for every transaction. */
  addresses: string[];
  txTypes?: string[];
  /** cb58 L1 validation id: only the txs that registered or changed it (`l1_validator_tx_details`). */
  validationId?: string;
  startTimestamp?: number;
  endTimestamp?: number;
  sortOrder: SortOrder;
  after?: TxCursor;
  limit: number;
}

interface Key {
  ts: number;
  seq: number;
  tx_hash: string;
}

function compareKeys(a: Key, b: Key, order: SortOrder): number {
  const c = a.ts - b.ts || a.seq - b.seq;
  return order === 'asc' ? c : -c;
}

/** One page of a chain's transactions and the cursor of the next. */
export async function listChainTransactions(
  db: Kysely<DataSchema>,
  q: ChainTxQuery,
): Promise<{ rows: TransactionRow[]; next?: TxCursor }> {
  const cmp = q.sortOrder === 'asc' ? '>' : '<';
  const types = q.txTypes && q.txTypes.length > 0 ? q.txTypes : undefined;
  /** The time window, the cursor, the order and the length every range shares. */
  const bounded = (sel: any, ts: 'ts' | 'timestamp'): Promise<Key[]> => {
    if (q.validationId !== undefined)
      sel = sel.where(
        'tx_hash',
        'in',
        db
          .selectFrom('l1_validator_tx_details')
          .select('tx_hash')
          .where('validation_id', '=', q.validationId),
      );
    if (q.startTimestamp !== undefined) sel = sel.where(ts, '>=', q.startTimestamp);
    if (q.endTimestamp !== undefined) sel = sel.where(ts, '<=', q.endTimestamp);
    if (q.after) {
      const { ts: t, seq } = q.after;
      sel = sel.where((eb: any) => eb(eb.refTuple(ts, 'seq'), cmp, eb.tuple(t, seq)));
    }
    return sel
      .orderBy(ts, q.sortOrder)
      .orderBy('seq', q.sortOrder)
      .limit(q.limit + 1)
      .execute();
  };
  const ranges =
    q.addresses.length > 0
      ? q.addresses.map((address) => {
          let sel = db
            .selectFrom('transaction_addresses')
            .select(['ts', 'seq', 'tx_hash'])
            .where('chain_id', '=', q.chainId)
            .where('address', '=', address);
          if (types) sel = sel.where('tx_type', 'in', types);
          return bounded(sel, 'ts');
        })
      : (types ?? [undefined]).map((type) => {
          let sel = db
            .selectFrom('transactions')
            .select(['timestamp as ts', 'seq', 'tx_hash'])
            .where('chain_id', '=', q.chainId);
          if (type !== undefined) sel = sel.where('tx_type', '=', type);
          return bounded(sel, 'timestamp');
        });
  // Merge the ranges; a transaction reached through several addresses counts once.
  const bySeq = new Map<number, Key>();
  for (const part of await Promise.all(ranges))
    for (const k of part)
      bySeq.set(Number(k.seq), { ts: Number(k.ts), seq: Number(k.seq), tx_hash: k.tx_hash });
  const merged = [...bySeq.values()].sort((a, b) => compareKeys(a, b, q.sortOrder));
  const { rows: keys, next } = cutPage(merged.slice(0, q.limit + 1), q.limit, (k) => ({
    ts: k.ts,
    seq: k.seq,
  }));
  return {
    rows: await transactionsByHash(
      db,
      keys.map((k) => k.tx_hash),
    ),
    next,
  };
}

/** Transaction rows in the order of `hashes`. */
export async function transactionsByHash(
  db: Kysely<DataSchema>,
  hashes: string[],
): Promise<TransactionRow[]> {
  if (hashes.length === 0) return [];
  const rows = await db.selectFrom('transactions').selectAll().where('tx_hash', 'in', hashes).execute();
  const byHash = new Map(rows.map((r) => [r.tx_hash, r]));
  return hashes.map((h) => byHash.get(h)).filter((r): r is TransactionRow => r !== undefined);
}

/** One transaction of a chain, or undefined. */
export async function chainTransaction(
  db: Kysely<DataSchema>,
  chainId: string,
  txHash: string,
): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('tx_hash', '=', txHash)
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
}

/** The list's filters on the P-chain (addresses in bech32 only), judged at `now`. */
export type StakingTxQuery = Omit<ChainTxQuery, 'chainId'> & { pChainId: string; now: number };

/**
 * Staking transactions whose period is open at `now` (active or pending: no reward or removal
 * yet and not past their end), in time order. The open periods are one range of index
 * `stakers_open`; the addresses match an output the tx consumed or created, or a reward owner.
 */
export async function listOpenStakingTransactions(
  db: Kysely<DataSchema>,
  q: StakingTxQuery,
): Promise<{ rows: TransactionRow[]; next?: TxCursor }> {
  const cmp = q.sortOrder === 'asc' ? '>' : '<';
  let sel = db
    .selectFrom('stakers as s')
    .innerJoin('transactions as t', 't.tx_hash', 's.tx_hash')
    .select(['t.timestamp as ts', 't.seq', 't.tx_hash'])
    .where('s.reward_tx', 'is', null)
    .where('s.removed_tx', 'is', null)
    .where('s.end_ts', '>', q.now)
    .where('t.chain_id', '=', q.pChainId);
  if (q.txTypes && q.txTypes.length > 0) sel = sel.where('t.tx_type', 'in', q.txTypes);
  if (q.startTimestamp !== undefined) sel = sel.where('t.timestamp', '>=', q.startTimestamp);
  if (q.endTimestamp !== undefined) sel = sel.where('t.timestamp', '<=', q.endTimestamp);
  if (q.addresses.length > 0) {
    const addresses = q.addresses;
    sel = sel.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('transaction_addresses as ta')
            .select('ta.seq')
            .where('ta.chain_id', '=', q.pChainId)
            .where('ta.address', 'in', addresses)
            .whereRef('ta.ts', '=', 't.timestamp')
            .whereRef('ta.seq', '=', 't.seq'),
        ),
        ...addresses.map((a) => eb('s.reward_addresses', 'like', `%${JSON.stringify(a)}%`)),
      ]),
    );
  }
  if (q.after) {
    const { ts, seq } = q.after;
    sel = sel.where((eb) => eb(eb.refTuple('t.timestamp', 't.seq'), cmp, eb.tuple(ts, seq)));
  }
  const keys = await sel
    .orderBy('t.timestamp', q.sortOrder)
    .orderBy('t.seq', q.sortOrder)
    .limit(q.limit + 1)
    .execute();
  const { rows, next } = cutPage(keys, q.limit, (k) => ({ ts: Number(k.ts), seq: Number(k.seq) }));
  return {
    rows: await transactionsByHash(
      db,
      rows.map((k) => k.tx_hash),
    ),
    next,
  };
}
