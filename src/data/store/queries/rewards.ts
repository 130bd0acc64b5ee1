/** Paid staking rewards of addresses or node ids, keyset on (seq, utxo id). */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema, RewardTable } from '../schema.js';
import { cutPage } from '../keyset-page.js';
import type { SortOrder } from './utxos.js';

export type RewardRow = Selectable<RewardTable>;
export interface RewardCursor {
  seq: number;
  id: string;
}

export async function listRewards(
  db: Kysely<DataSchema>,
  q: { addresses: string[]; nodeIds: string[]; sortOrder: SortOrder; after?: RewardCursor; limit: number },
): Promise<{ rows: RewardRow[]; next?: RewardCursor }> {
  const cmp = q.sortOrder === 'asc' ? '>' : '<';
  const keys: { seq: number; utxo_id: string }[] = [];
  if (q.addresses.length > 0) {
    let sel = db
      .selectFrom('reward_addresses')
      .select(['seq', 'utxo_id'])
      .distinct()
      .where('address', 'in', q.addresses);
    if (q.after)
      sel = sel.where((eb) => eb(eb.refTuple('seq', 'utxo_id'), cmp, eb.tuple(q.after!.seq, q.after!.id)));
    keys.push(
      ...(await sel
        .orderBy('seq', q.sortOrder)
        .orderBy('utxo_id', q.sortOrder)
        .limit(q.limit + 1)
        .execute()),
    );
  }
  if (q.nodeIds.length > 0) {
    let sel = db.selectFrom('rewards').select(['seq', 'utxo_id']).where('node_id', 'in', q.nodeIds);
    if (q.after)
      sel = sel.where((eb) => eb(eb.refTuple('seq', 'utxo_id'), cmp, eb.tuple(q.after!.seq, q.after!.id)));
    keys.push(
      ...(await sel
        .orderBy('seq', q.sortOrder)
        .orderBy('utxo_id', q.sortOrder)
        .limit(q.limit + 1)
        .execute()),
    );
  }
  const unique = [
    ...new Map(keys.map((k) => [k.utxo_id, { seq: Number(k.seq), utxo_id: k.utxo_id }])).values(),
  ];
  unique.sort((a, b) => {
    const c = a.seq - b.seq || (a.utxo_id < b.utxo_id ? -1 : a.utxo_id > b.utxo_id ? 1 : 0);
    return q.sortOrder === 'asc' ? c : -c;
  });
  const { rows: page, next } = cutPage(unique, q.limit, (last) => ({ seq: last.seq, id: last.utxo_id }));
  if (page.length === 0) return { rows: [] };
  const rows = await db
    .selectFrom('rewards')
    .selectAll()
    .where(
      'utxo_id',
      'in',
      page.map((k) => k.utxo_id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.utxo_id, r]));
  return { rows: page.map((k) => byId.get(k.utxo_id)!).filter(Boolean), next };
}
