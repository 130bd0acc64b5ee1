/**
 * Staking metrics (`GET /v2/networks/{network}/metrics/{metric}`, chainkit
 * metrics.networks.getStakingMetrics): per UTC day, how many validators or delegators of a subnet
 * (the Primary Network by default) were staking and with what weight, read from the stakers the
 * primary-network indexer keeps and, for an L1, its validations' weight history.
 *
 * A day's value is the state at its end (for the current day: now), a staker counting from its
 * start until its end or its removal. An L1's ACP-77 validators count as validators beside any
 * permissioned ones it kept (`l1-validations.ts`: each at its weight of the time, inactive ones
 * included, until its weight is set to 0); an L1 has no delegators. Days run from the first
 * staker's start to the current day, newest first, each day present (0 where nobody staked).
 * "Now" is the validation status clock of the chain-data service: the later of the wall clock and
 * the newest indexed P-chain block (the devnet clock can run ahead of the wall clock).
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { PRIMARY_NETWORK_ID } from '../../shared/networks.js';
import { bucketStart, nextBucket, previousBucket } from './buckets.js';
import { readL1ValidationSpans } from './l1-validations.js';

/** The real API's NetworkMetric enum. */
export const STAKING_METRICS = [
  'delegatorCount',
  'delegatorWeight',
  'validatorCount',
  'validatorWeight',
] as const;
export type StakingMetric = (typeof STAKING_METRICS)[number];

export interface StakingSeriesQuery {
  subnetId: string;
  metric: StakingMetric;
  /** Inclusive bounds on day starts (Unix seconds). */
  from?: number;
  to?: number;
  /** Start of the newest day of this page (from the previous page's cursor). */
  before?: number;
  limit: number;
  nowSeconds: number;
}

export async function readStakingSeries(
  db: Kysely<DataSchema>,
  q: StakingSeriesQuery,
): Promise<{ results: { timestamp: number; value: number }[]; next?: number }> {
  const kind = q.metric.startsWith('validator') ? 'validator' : 'delegator';
  const stakers = (
    await db
      .selectFrom('stakers')
      .select(['kind', 'amount_staked', 'start_ts', 'end_ts', 'removed_ts'])
      .where('subnet_id', '=', q.subnetId)
      .execute()
  ).map((s) => ({
    kind: s.kind,
    weight: BigInt(s.amount_staked),
    start: Number(s.start_ts),
    // A removed staker stops counting at its removal.
    end: s.removed_ts === null ? Number(s.end_ts) : Math.min(Number(s.end_ts), Number(s.removed_ts)),
  }));
  // The Primary Network has no L1 validators.
  if (q.subnetId !== PRIMARY_NETWORK_ID)
    for (const span of await readL1ValidationSpans(db, q.subnetId))
      stakers.push({ kind: 'validator', ...span });
  if (stakers.length === 0) return { results: [] };
  // The P-chain's blockchain id is the Primary Network's subnet id.
  const newestBlock = await db
    .selectFrom('blocks')
    .select((eb) => eb.fn.max('timestamp').as('t'))
    .where('chain_id', '=', PRIMARY_NETWORK_ID)
    .executeTakeFirst();
  const now = Math.max(q.nowSeconds, Number(newestBlock?.t ?? 0), ...stakers.map((s) => s.start));
  const firstDay = bucketStart('day', Math.min(...stakers.map((s) => s.start)));
  const lowest = Math.max(firstDay, q.from ?? -Infinity);
  let newest = bucketStart('day', now);
  if (q.to !== undefined) newest = Math.min(newest, bucketStart('day', q.to));
  if (q.before !== undefined) newest = Math.min(newest, q.before);
  const starts: number[] = [];
  for (let d = newest; d >= lowest && starts.length <= q.limit; d = previousBucket('day', d)) starts.push(d);
  const ofKind = stakers.filter((s) => s.kind === kind);
  const results = starts.slice(0, q.limit).map((day) => {
    // The last instant of the day, or now for the current day.
    const at = Math.min(nextBucket('day', day) - 1, now);
    const active = ofKind.filter((s) => s.start <= at && at < s.end);
    const value = q.metric.endsWith('Count')
      ? active.length
      : Number(active.reduce((sum, s) => sum + s.weight, 0n));
    return { timestamp: day, value };
  });
  return { results, next: starts.length > q.limit ? starts[q.limit] : undefined };
}
