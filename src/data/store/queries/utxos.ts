/**
 * UTXO list of a set of addresses on one chain, keyset-paginated on (sort key, utxo id): each
 * page is one index range of `utxo_addresses`, so page 10,000 costs what page 1 costs.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema, UtxoTable } from '../schema.js';
import { cachedRows } from '../query-cache.js';
import { renderUtxoDocument, type UtxoDocRow } from '../utxo-document.js';

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
  const build = () => {
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
    return sel
      .orderBy(`a.${column}`, q.sortOrder)
      .orderBy('a.utxo_id', q.sortOrder)
      .limit(q.limit + 1);
  };
  // Parameters in the order the builder above binds them.
  const params: unknown[] = [q.chainId, ...q.addresses, spent];
  if (q.minAmount) params.push(q.minAmount);
  if (q.after) params.push(q.after.key, q.after.id);
  if (q.assetId) params.push(q.assetId);
  params.push(q.limit + 1);
  const shape = `utxo-keys:${column}:${cmp}:${q.addresses.length}:${!!q.minAmount}:${!!q.after}:${!!q.assetId}`;
  return (await cachedRows(db, shape, params, build)) as KeyRow[];
}

function compare(a: KeyRow, b: KeyRow, order: SortOrder): number {
  const ka = a.key;
  const kb = b.key;
  let c = ka < kb ? -1 : ka > kb ? 1 : a.utxo_id < b.utxo_id ? -1 : a.utxo_id > b.utxo_id ? 1 : 0;
  if (order === 'desc') c = -c;
  return c;
}

const DOC_COLUMNS = [
  'utxo_id',
  'asset_id',
  'staked',
  'consuming_tx',
  'consuming_height',
  'consuming_ts',
  'credentials',
  'doc',
] as const;

/** One page of UTXOs (as rendered documents plus their mutable columns) and the next cursor. */
export async function listUtxos(
  db: Kysely<DataSchema>,
  q: UtxoListQuery,
): Promise<{ rows: UtxoDocRow[]; next?: UtxoCursor }> {
  // Unspent and spent outputs are two index ranges; includeSpent merges them in order.
  const parts = q.includeSpent
    ? [...(await keysPage(db, q, 0)), ...(await keysPage(db, q, 1))].sort((a, b) =>
        compare(a, b, q.sortOrder),
      )
    : await keysPage(db, q, 0);
  const page = parts.slice(0, q.limit);
  const more = parts.length > q.limit;
  if (page.length === 0) return { rows: [] };
  const ids = page.map((k) => k.utxo_id);
  const found = (await cachedRows(db, `utxo-docs:${ids.length}`, ids, () =>
    db.selectFrom('utxos').select(DOC_COLUMNS).where('utxo_id', 'in', ids),
  )) as UtxoDocRow[];
  // Rows indexed before documents existed are rendered from their columns.
  const missing = found.filter((r) => !r.doc).map((r) => r.utxo_id);
  if (missing.length > 0) {
    const full = await db.selectFrom('utxos').selectAll().where('utxo_id', 'in', missing).execute();
    const docs = new Map(full.map((r) => [r.utxo_id, renderUtxoDocument(r)]));
    for (const r of found) if (!r.doc) r.doc = docs.get(r.utxo_id) ?? null;
  }
  const byId = new Map(found.map((r) => [r.utxo_id, r]));
  const rows = ids.map((id) => byId.get(id)!).filter(Boolean);
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
