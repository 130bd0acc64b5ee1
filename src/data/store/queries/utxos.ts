/**
 * UTXO list of a set of addresses on one chain, keyset-paginated on (sort key, utxo id): each
 * page is one index range of `utxo_addresses`, so page 10,000 costs what page 1 costs.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema, UtxoTable } from '../schema.js';

export type UtxoSortBy = 'timestamp' | 'amount';
export type SortOrder = 'asc' | 'desc';

/** Position after the last row of a page: its sort key and utxo id. */
export interface UtxoCursor {
  key: number | string;
  id: string;
}

export interface UtxoListQuery {
  chainId: string;
  addresses: string[];
  assetId?: string;
  /** Padded amount key (amounts.ts). */
  minAmount?: string;
  includeSpent: boolean;
  sortBy: UtxoSortBy;
  sortOrder: SortOrder;
  after?: UtxoCursor;
  limit: number;
}

export type UtxoRow = Selectable<UtxoTable>;

interface KeyRow {
  utxo_id: string;
  key: number | string;
}

async function keysPage(db: Kysely<DataSchema>, q: UtxoListQuery, spent: number): Promise<KeyRow[]> {
  const column = q.sortBy === 'amount' ? 'amount' : 'ts';
  const cmp = q.sortOrder === 'asc' ? '>' : '<';
  let sel = db
    .selectFrom('utxo_addresses as a')
    .select(['a.utxo_id', `a.${column} as key`])
    .distinct()
    .where('a.chain_id', '=', q.chainId)
    .where('a.address', 'in', q.addresses)
    .where('a.spent', '=', spent);
  if (q.minAmount) sel = sel.where('a.amount', '>=', q.minAmount);
  if (q.after) {
    const { key, id } = q.after;
    sel = sel.where((eb) => eb(eb.refTuple(`a.${column}`, 'a.utxo_id'), cmp, eb.tuple(key as any, id)));
  }
  if (q.assetId) {
    const assetId = q.assetId;
    sel = sel.where((eb) =>
      eb.exists(
        eb
          .selectFrom('utxos as u')
          .select('u.utxo_id')
          .whereRef('u.utxo_id', '=', 'a.utxo_id')
          .where('u.asset_id', '=', assetId),
      ),
    );
  }
  const rows = await sel
    .orderBy(`a.${column}`, q.sortOrder)
    .orderBy('a.utxo_id', q.sortOrder)
    .limit(q.limit + 1)
    .execute();
  return rows as KeyRow[];
}

function compare(a: KeyRow, b: KeyRow, order: SortOrder): number {
  const ka = a.key;
  const kb = b.key;
  let c = ka < kb ? -1 : ka > kb ? 1 : a.utxo_id < b.utxo_id ? -1 : a.utxo_id > b.utxo_id ? 1 : 0;
  if (order === 'desc') c = -c;
  return c;
}

/** One page of UTXOs and the cursor of the next page (absent on the last page). */
export async function listUtxos(
  db: Kysely<DataSchema>,
  q: UtxoListQuery,
): Promise<{ rows: UtxoRow[]; next?: UtxoCursor }> {
  // Unspent and spent outputs are two index ranges; includeSpent merges them in order.
  const parts = q.includeSpent
    ? [...(await keysPage(db, q, 0)), ...(await keysPage(db, q, 1))].sort((a, b) =>
        compare(a, b, q.sortOrder),
      )
    : await keysPage(db, q, 0);
  const page = parts.slice(0, q.limit);
  const more = parts.length > q.limit;
  if (page.length === 0) return { rows: [] };
  const full = await db
    .selectFrom('utxos')
    .selectAll()
    .where(
      'utxo_id',
      'in',
      page.map((k) => k.utxo_id),
    )
    .execute();
  const byId = new Map(full.map((r) => [r.utxo_id, r]));
  const rows = page.map((k) => byId.get(k.utxo_id)!).filter(Boolean);
  const last = page[page.length - 1];
  return { rows, next: more ? { key: last.key, id: last.utxo_id } : undefined };
}

/** Every UTXO of the addresses that existed at `ts` (created at or before, not spent by then). */
export async function utxosAt(
  db: Kysely<DataSchema>,
  chainId: string,
  addresses: string[],
  ts: number,
): Promise<UtxoRow[]> {
  return db
    .selectFrom('utxos as u')
    .selectAll('u')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('utxo_addresses as a')
          .select('a.utxo_id')
          .whereRef('a.utxo_id', '=', 'u.utxo_id')
          .where('a.chain_id', '=', chainId)
          .where('a.address', 'in', addresses),
      ),
    )
    .where('u.block_ts', '<=', ts)
    .where((eb) => eb.or([eb('u.consuming_ts', 'is', null), eb('u.consuming_ts', '>', ts)]))
    .execute();
}

/** Outputs a transaction created, in output order. */
export async function utxosCreatedBy(db: Kysely<DataSchema>, txHashes: string[]): Promise<UtxoRow[]> {
  if (txHashes.length === 0) return [];
  return db
    .selectFrom('utxos')
    .selectAll()
    .where('tx_hash', 'in', txHashes)
    .where('reward_type', 'is', null)
    .orderBy('output_index')
    .execute();
}

/** Outputs a transaction consumed. */
export async function utxosConsumedBy(db: Kysely<DataSchema>, txHashes: string[]): Promise<UtxoRow[]> {
  if (txHashes.length === 0) return [];
  return db.selectFrom('utxos').selectAll().where('consuming_tx', 'in', txHashes).execute();
}
