/** X-chain transactions that moved or created an asset, newest first, keyset on seq. */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema, TransactionTable } from '../schema.js';

export interface AssetTxQuery {
  assetId: string;
  txTypes?: string[];
  startTimestamp?: number;
  endTimestamp?: number;
  /** seq of the last row of the previous page. */
  afterSeq?: number;
  limit: number;
}

export type TransactionRow = Selectable<TransactionTable>;

export async function listAssetTransactions(
  db: Kysely<DataSchema>,
  q: AssetTxQuery,
): Promise<{ rows: TransactionRow[]; next?: number }> {
  let sel = db.selectFrom('asset_transactions').select(['seq', 'tx_hash']).where('asset_id', '=', q.assetId);
  if (q.txTypes && q.txTypes.length > 0) sel = sel.where('tx_type', 'in', q.txTypes);
  if (q.startTimestamp !== undefined) sel = sel.where('timestamp', '>=', q.startTimestamp);
  if (q.endTimestamp !== undefined) sel = sel.where('timestamp', '<=', q.endTimestamp);
  if (q.afterSeq !== undefined) sel = sel.where('seq', '<', q.afterSeq);
  const keys = await sel
    .orderBy('seq', 'desc')
    .limit(q.limit + 1)
    .execute();
  const page = keys.slice(0, q.limit);
  if (page.length === 0) return { rows: [] };
  const rows = await db
    .selectFrom('transactions')
    .selectAll()
    .where(
      'tx_hash',
      'in',
      page.map((k) => k.tx_hash),
    )
    .execute();
  const byHash = new Map(rows.map((r) => [r.tx_hash, r]));
  return {
    rows: page.map((k) => byHash.get(k.tx_hash)!).filter(Boolean),
    next: keys.length > q.limit ? Number(page[page.length - 1].seq) : undefined,
  };
}
