/** Validation periods of one node (validators), with their delegators and rewards. */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DataSchema, RewardTable, StakerTable } from '../schema.js';
import type { SortOrder } from './utxos.js';
import { cutPage } from '../keyset-page.js';

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

/** Filters of the validator list that the store answers (every one is a column comparison). */
export interface ValidatorFilter {
  /** Substrings of node ids (cb58 characters only), any of which matches. */
  nodeIds: string[];
  subnetId?: string;
  status?: ValidationStatus;
  /** Bounds on `max(0, end_ts - now)`, in seconds. */
  minTimeRemaining?: number;
  maxTimeRemaining?: number;
  /** Bounds on the delegation fee in percent (validators without one never match). */
  minFeePercentage?: number;
  maxFeePercentage?: number;
}

/**
 * The validator list's orders: index order (`seq`), time remaining (the end time: every ended
 * validation has 0 left, and they follow in end order), delegation fee (validators without one,
 * permissioned subnet validators, first as -1); ties in index order.
 */
export type ValidatorOrder = 'blockIndex' | 'timeRemaining' | 'delegationFee';
const ORDER_KEY = {
  timeRemaining: sql<number>`end_ts`,
  delegationFee: sql<number>`coalesce(delegation_shares, -1)`,
} as const;

/** Where the next page of the validator list starts: the last row's sort key (not for blockIndex) and seq. */
export interface ValidatorCursor {
  key?: number;
  seq: number;
}

/**
 * One page of validation periods of every node, keyset on the order's key and `seq` (indexes
 * `stakers_by_kind`, `stakers_by_end`, `stakers_by_fee`), every filter in the query, so a page
 * costs the same wherever it starts. `validationStatus` is the one `validationStatus()` computes,
 * written as conditions on the same columns and `now`.
 */
export async function listAllValidations(
  db: Kysely<DataSchema>,
  q: ValidatorFilter & {
    sortBy?: ValidatorOrder;
    sortOrder: SortOrder;
    after?: ValidatorCursor;
    limit: number;
    now: number;
  },
): Promise<{ rows: StakerRow[]; next?: ValidatorCursor }> {
  const by = q.sortBy ?? 'blockIndex';
  const key = by === 'blockIndex' ? undefined : ORDER_KEY[by];
  const cmp = q.sortOrder === 'asc' ? '>' : '<';
  let sel = db.selectFrom('stakers').selectAll().where('kind', '=', 'validator');
  if (q.after !== undefined) {
    const { seq } = q.after;
    if (!key) sel = sel.where('seq', cmp, seq);
    else sel = sel.where(sql<boolean>`(${key}, seq) ${sql.raw(cmp)} (${q.after.key ?? 0}, ${seq})`);
  }
  if (q.subnetId !== undefined) sel = sel.where('subnet_id', '=', q.subnetId);
  if (q.nodeIds.length > 0)
    sel = sel.where((eb) => eb.or(q.nodeIds.map((n) => eb('node_id', 'like', `%${n}%`))));
  const now = q.now;
  switch (q.status) {
    case 'removed':
      sel = sel.where('removed_tx', 'is not', null);
      break;
    case 'completed':
      sel = sel
        .where('removed_tx', 'is', null)
        .where((eb) => eb.or([eb('reward_tx', 'is not', null), eb('end_ts', '<=', now)]));
      break;
    case 'pending':
    case 'active':
      sel = sel
        .where('removed_tx', 'is', null)
        .where('reward_tx', 'is', null)
        .where('end_ts', '>', now)
        .where('start_ts', q.status === 'pending' ? '>' : '<=', now);
      break;
  }
  if (q.minTimeRemaining !== undefined && q.minTimeRemaining > 0)
    sel = sel.where('end_ts', '>=', now + Math.ceil(q.minTimeRemaining));
  if (q.maxTimeRemaining !== undefined) sel = sel.where('end_ts', '<=', now + Math.floor(q.maxTimeRemaining));
  // delegation_shares is in parts per million: percent × 10 000.
  if (q.minFeePercentage !== undefined)
    sel = sel.where('delegation_shares', '>=', Math.ceil(q.minFeePercentage * 10_000));
  if (q.maxFeePercentage !== undefined)
    sel = sel.where('delegation_shares', '<=', Math.floor(q.maxFeePercentage * 10_000));
  if (key) sel = sel.orderBy(key, q.sortOrder);
  const rows = await sel
    .orderBy('seq', q.sortOrder)
    .limit(q.limit + 1)
    .execute();
  return cutPage(rows, q.limit, (last) => validatorCursor(last, by));
}

/** The cursor of a page of the validator list in `by` order that ends with `row`. */
export function validatorCursor(row: StakerRow, by: ValidatorOrder): ValidatorCursor {
  return {
    ...(by === 'timeRemaining' ? { key: Number(row.end_ts) } : {}),
    ...(by === 'delegationFee' ? { key: Number(row.delegation_shares ?? -1) } : {}),
    seq: Number(row.seq),
  };
}

export type DelegationStatus = 'completed' | 'active' | 'pending';

/**
 * One page of delegations of every node, keyset on `seq` (index `stakers_by_kind`); the status
 * is `validationStatus()` written as conditions on the row's columns and `now`.
 */
export async function listAllDelegations(
  db: Kysely<DataSchema>,
  q: {
    nodeIds: string[];
    /** Reward addresses as the rows hold them (bech32 without a chain prefix), any of which matches. */
    rewardAddresses: string[];
    status?: DelegationStatus;
    sortOrder: SortOrder;
    afterSeq?: number;
    limit: number;
    now: number;
  },
): Promise<{ rows: StakerRow[]; next?: number }> {
  let sel = db.selectFrom('stakers').selectAll().where('kind', '=', 'delegator');
  if (q.afterSeq !== undefined) sel = sel.where('seq', q.sortOrder === 'asc' ? '>' : '<', q.afterSeq);
  if (q.nodeIds.length > 0) sel = sel.where('node_id', 'in', q.nodeIds);
  if (q.rewardAddresses.length > 0)
    sel = sel.where((eb) =>
      eb.or(q.rewardAddresses.map((a) => eb('reward_addresses', 'like', `%${JSON.stringify(a)}%`))),
    );
  const now = q.now;
  if (q.status === 'completed')
    sel = sel.where((eb) => eb.or([eb('reward_tx', 'is not', null), eb('end_ts', '<=', now)]));
  else if (q.status)
    sel = sel
      .where('reward_tx', 'is', null)
      .where('end_ts', '>', now)
      .where('start_ts', q.status === 'pending' ? '>' : '<=', now);
  return seqPage(
    await sel
      .orderBy('seq', q.sortOrder)
      .limit(q.limit + 1)
      .execute(),
    q.limit,
  );
}

/** The validation period a delegation belongs to (same node and subnet, enclosing it). */
export async function validationOf(db: Kysely<DataSchema>, d: StakerRow): Promise<StakerRow | undefined> {
  return db
    .selectFrom('stakers')
    .selectAll()
    .where('node_id', '=', d.node_id)
    .where('kind', '=', 'validator')
    .where('subnet_id', '=', d.subnet_id)
    .where('start_ts', '<=', d.start_ts)
    .where('end_ts', '>=', d.end_ts)
    .orderBy('seq', 'desc')
    .executeTakeFirst();
}

/** A page of `limit` rows read with one more, and the keyset cursor when there is a next page. */
const seqPage = (rows: StakerRow[], limit: number) => cutPage(rows, limit, (last) => Number(last.seq));
