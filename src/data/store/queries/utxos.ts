/**
 * UTXO list of a set of addresses on one chain, keyset-paginated on (sort key, utxo id): each
 * page is one index range of `utxo_addresses`, so page 10,000 costs what page 1 costs.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { DataSchema, UtxoTable } from '../schema.js';
import { cutPage } from '../keyset-page.js';
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

/** A page row: the response document's columns plus its position (sort key). */
type PageRow = UtxoDocRow & { key: number | string };

const DOC_COLUMNS = [
  'u.asset_id',
  'u.block_height',
  'u.staked',
  'u.consuming_tx',
  'u.consuming_height',
  'u.consuming_ts',
  'u.credentials',
  'u.doc',
] as const;

/**
 * One index range of `utxo_addresses` with the documents joined, in one statement (a key query
 * then a document query costs nearly twice as much on SQLite).
 */
async function pageRows(db: Kysely<DataSchema>, q: UtxoListQuery, spent: number): Promise<PageRow[]> {
  const column = q.sortBy === 'amount' ? 'amount' : 'ts';
  const cmp = q.sortOrder === 'asc' ? '>' : '<';
  // One address lists each output once (the primary key is chain, address, utxo). An output
  // owned by several of the listed addresses appears once per address: those keys are folded
  // (DISTINCT) before the join, so the fold never compares documents.
  const several = q.addresses.length > 1;
  const build = () => {
    const range = <T extends SelectQueryBuilder<DataSchema & { a: DataSchema['utxo_addresses'] }, 'a', any>>(
      sel: T,
    ): T => {
      let out = sel
        .where('a.chain_id', '=', q.chainId)
        .where('a.address', 'in', q.addresses)
        .where('a.spent', '=', spent);
      if (q.minAmount) out = out.where('a.amount', '>=', q.minAmount);
      if (q.after) {
        const { key, id } = q.after;
        out = out.where((eb) => eb(eb.refTuple(`a.${column}`, 'a.utxo_id'), cmp, eb.tuple(key as any, id)));
      }
      return out as T;
    };
    if (!several) {
      let sel = range(
        db
          .selectFrom('utxo_addresses as a')
          .innerJoin('utxos as u', 'u.utxo_id', 'a.utxo_id')
          .select(['a.utxo_id', `a.${column} as key`, ...DOC_COLUMNS]),
      );
      if (q.assetId) sel = sel.where('u.asset_id', '=', q.assetId);
      return sel
        .orderBy(`a.${column}`, q.sortOrder)
        .orderBy('a.utxo_id', q.sortOrder)
        .limit(q.limit + 1);
    }
    let keys = range(
      db
        .selectFrom('utxo_addresses as a')
        .select(['a.utxo_id', `a.${column} as key`])
        .distinct(),
    );
    if (q.assetId) {
      const assetId = q.assetId;
      keys = keys.where((eb) =>
        eb.exists(
          eb
            .selectFrom('utxos as x')
            .select('x.utxo_id')
            .whereRef('x.utxo_id', '=', 'a.utxo_id')
            .where('x.asset_id', '=', assetId),
        ),
      );
    }
    const page = keys
      .orderBy(`a.${column}`, q.sortOrder)
      .orderBy('a.utxo_id', q.sortOrder)
      .limit(q.limit + 1)
      .as('k');
    return db
      .selectFrom(page)
      .innerJoin('utxos as u', 'u.utxo_id', 'k.utxo_id')
      .select(['k.utxo_id', 'k.key', ...DOC_COLUMNS])
      .orderBy('k.key', q.sortOrder)
      .orderBy('k.utxo_id', q.sortOrder);
  };
  // Parameters in the order the builder above binds them.
  const params: unknown[] = [q.chainId, ...q.addresses, spent];
  if (q.minAmount) params.push(q.minAmount);
  if (q.after) params.push(q.after.key, q.after.id);
  if (q.assetId) params.push(q.assetId);
  params.push(q.limit + 1);
  const shape = `utxo-page:${column}:${cmp}:${q.addresses.length}:${!!q.minAmount}:${!!q.after}:${!!q.assetId}`;
  // Documents are JSON text and the other columns ids and numbers: the page may come packed.
  return (await cachedRows(db, shape, params, build, { pack: PAGE_ORDER[q.sortOrder] })) as PageRow[];
}

function compare(a: PageRow, b: PageRow, order: SortOrder): number {
  const ka = a.key;
  const kb = b.key;
  let c = ka < kb ? -1 : ka > kb ? 1 : a.utxo_id < b.utxo_id ? -1 : a.utxo_id > b.utxo_id ? 1 : 0;
  if (order === 'desc') c = -c;
  return c;
}

/** Page order, for a page read back packed (sqlite.ts). */
const PAGE_ORDER = {
  asc: { compare: (a: PageRow, b: PageRow) => compare(a, b, 'asc') },
  desc: { compare: (a: PageRow, b: PageRow) => compare(a, b, 'desc') },
};

/** One page of UTXOs (as rendered documents plus their mutable columns) and the next cursor. */
export async function listUtxos(
  db: Kysely<DataSchema>,
  q: UtxoListQuery,
): Promise<{ rows: UtxoDocRow[]; next?: UtxoCursor }> {
  // Unspent and spent outputs are two index ranges; includeSpent merges them in order.
  const parts = q.includeSpent
    ? [...(await pageRows(db, q, 0)), ...(await pageRows(db, q, 1))].sort((a, b) =>
        compare(a, b, q.sortOrder),
      )
    : await pageRows(db, q, 0);
  const { rows, next } = cutPage(parts, q.limit, (last) => ({ key: last.key, id: last.utxo_id }));
  if (rows.length === 0) return { rows: [] };
  // Rows indexed before documents existed are rendered from their columns.
  const missing = rows.filter((r) => !r.doc).map((r) => r.utxo_id);
  if (missing.length > 0) {
    const full = await db.selectFrom('utxos').selectAll().where('utxo_id', 'in', missing).execute();
    const docs = new Map(full.map((r) => [r.utxo_id, renderUtxoDocument(r)]));
    for (const r of rows) if (!r.doc) r.doc = docs.get(r.utxo_id) ?? null;
  }
  return { rows, next };
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
