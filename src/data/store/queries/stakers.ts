/** Validation periods of one node (validators), with their delegators and rewards. */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema, RewardTable, StakerTable } from '../schema.js';
import type { SortOrder } from './utxos.js';

export type StakerRow = Selectable<StakerTable>;

export type ValidationStatus = 'completed' | 'active' | 'pending' | 'removed';

/** Status of a validation period at `now` (Unix seconds). */
export function validationStatus(v: StakerRow, now: number): ValidationStatus {
  if (v.removed_tx) return 'removed';
  if (v.reward_tx || Number(v.end_ts) <= now) return 'completed';
  if (Number(v.start_ts) > now) return 'pending';
  return 'active';
}

export async function listValidations(
  db: Kysely<DataSchema>,
  q: {
    nodeId: string;
    sortOrder: SortOrder;
    afterSeq?: number;
    limit: number;
    status?: ValidationStatus;
    now: number;
  },
): Promise<{ rows: StakerRow[]; next?: number }> {
  // The status depends on the clock, so it is filtered after the keyset read; pages may then
  // hold fewer rows than asked, but each validation still appears exactly once.
  const rows: StakerRow[] = [];
  let after = q.afterSeq;
  for (;;) {
    let sel = db
      .selectFrom('stakers')
      .selectAll()
      .where('node_id', '=', q.nodeId)
      .where('kind', '=', 'validator');
    if (after !== undefined) sel = sel.where('seq', q.sortOrder === 'asc' ? '>' : '<', after);
    const batch = await sel
      .orderBy('seq', q.sortOrder)
      .limit(q.limit + 1)
      .execute();
    for (const r of batch) {
      if (!q.status || validationStatus(r, q.now) === q.status) rows.push(r);
      if (rows.length > q.limit) {
        const page = rows.slice(0, q.limit);
        return { rows: page, next: Number(page[page.length - 1].seq) };
      }
    }
    if (batch.length <= q.limit) return { rows };
    after = Number(batch[batch.length - 1].seq);
  }
}

export async function delegatorsOf(
  db: Kysely<DataSchema>,
  nodeId: string,
  subnetId: string,
  startTs: number,
  endTs: number,
): Promise<StakerRow[]> {
  return db
    .selectFrom('stakers')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('kind', '=', 'delegator')
    .where('subnet_id', '=', subnetId)
    .where('start_ts', '>=', startTs)
    .where('end_ts', '<=', endTs)
    .execute();
}

export async function rewardsOfStakingTxs(
  db: Kysely<DataSchema>,
  stakingTxs: string[],
): Promise<Selectable<RewardTable>[]> {
  if (stakingTxs.length === 0) return [];
  return db.selectFrom('rewards').selectAll().where('staking_tx', 'in', stakingTxs).execute();
}
