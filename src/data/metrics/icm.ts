/**
 * ICM message counts (`GET /v2/icm/timeseries` and `GET /v2/icm/summary`, chainkit
 * metrics.chains.getICMTimeseries / getICMSummary), read from the messages the EVM indexer
 * correlates across the indexed chains (evm_icm_messages).
 *
 * A message counts once, at its list time (`sort_ts`): the block time of its send, or of its
 * receipt while the send is not indexed (the source chain is not one of ours). The store groups
 * the messages by (source, destination, UTC hour) in one query; every bucket of the API (hour,
 * day, week from Monday, month) is a whole number of UTC hours, so the hours fold into them
 * exactly.
 *
 * `groupBy` splits the counts by source and/or destination blockchain. A side that is not
 * grouped is named by its filter, or `all` when it is not filtered either.
 */
import { sql, type Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { bucketStart, previousBucket, type Span } from './buckets.js';
import { HOUR, WINDOW_HOURS, windowStart, type RollingWindow } from './windows.js';

export const ICM_GROUP_BY = [
  'srcBlockchainId',
  'destBlockchainId',
  'srcBlockchainId,destBlockchainId',
] as const;
export type IcmGroupBy = (typeof ICM_GROUP_BY)[number];

/** The name of a side that is neither grouped nor filtered. */
export const ALL_CHAINS = 'all';

export interface IcmCountFilter {
  source?: string;
  destination?: string;
}

export interface HourCount {
  src: string;
  dst: string;
  hour: number;
  n: number;
}

/** Message counts per (source, destination, UTC hour), oldest hour first. */
async function hourCounts(db: Kysely<DataSchema>, f: IcmCountFilter): Promise<HourCount[]> {
  const hour = sql<number>`sort_ts - (sort_ts % ${sql.lit(HOUR)})`;
  let q = db
    .selectFrom('evm_icm_messages')
    .select([
      'source_blockchain_id as src',
      'destination_blockchain_id as dst',
      hour.as('hour'),
      sql<number>`count(*)`.as('n'),
    ])
    .groupBy(['source_blockchain_id', 'destination_blockchain_id', hour]);
  if (f.source !== undefined) q = q.where('source_blockchain_id', '=', f.source);
  if (f.destination !== undefined) q = q.where('destination_blockchain_id', '=', f.destination);
  const rows = await q.execute();
  return rows
    .map((r) => ({ src: r.src, dst: r.dst, hour: Number(r.hour), n: Number(r.n) }))
    .sort((a, b) => a.hour - b.hour);
}

/** The pair a count is reported under, given the grouping and the filters. */
function labeller(groupBy: IcmGroupBy | undefined, f: IcmCountFilter) {
  const bySrc = groupBy?.includes('srcBlockchainId') ?? false;
  const byDst = groupBy?.includes('destBlockchainId') ?? false;
  return (c: { src: string; dst: string }) => ({
    src: bySrc ? c.src : (f.source ?? ALL_CHAINS),
    dst: byDst ? c.dst : (f.destination ?? ALL_CHAINS),
  });
}

export type IcmCursor = [timestamp: number, src: string, dst: string];

export interface IcmSeriesQuery {
  filter: IcmCountFilter;
  groupBy?: IcmGroupBy;
  span: Span;
  /** Inclusive bounds on bucket starts (Unix seconds). */
  from?: number;
  to?: number;
  /** The first entry of this page (from the previous page's cursor). */
  after?: IcmCursor;
  limit: number;
}

export interface IcmSeriesValue {
  timestamp: number;
  value: number;
  srcBlockchainId: string;
  destBlockchainId: string;
}

/**
 * A page of the series: every bucket from the first with a message to the last (as the chain
 * metrics, empty buckets as 0), newest first, and in each bucket one entry per group (every
 * group that has messages at all), by source then destination.
 */
export async function readIcmSeries(
  db: Kysely<DataSchema>,
  q: IcmSeriesQuery,
): Promise<{ results: IcmSeriesValue[]; next?: IcmCursor }> {
  const counts = await hourCounts(db, q.filter);
  if (counts.length === 0) return { results: [] };
  const label = labeller(q.groupBy, q.filter);
  const byBucket = new Map<string, number>();
  const groups = new Map<string, { src: string; dst: string }>();
  for (const c of counts) {
    const g = label(c);
    const key = JSON.stringify([g.src, g.dst]);
    groups.set(key, g);
    const at = JSON.stringify([bucketStart(q.span, c.hour), g.src, g.dst]);
    byBucket.set(at, (byBucket.get(at) ?? 0) + c.n);
  }
  const ordered = [...groups.values()].sort((a, b) => cmp(a.src, b.src) || cmp(a.dst, b.dst));
  const first = bucketStart(q.span, counts[0].hour);
  const lowest = Math.max(first, q.from ?? -Infinity);
  let newest = bucketStart(q.span, counts[counts.length - 1].hour);
  if (q.to !== undefined) newest = Math.min(newest, bucketStart(q.span, q.to));
  if (q.after !== undefined) newest = Math.min(newest, q.after[0]);

  const out: IcmSeriesValue[] = [];
  for (let s = newest; s >= lowest && out.length <= q.limit; s = previousBucket(q.span, s)) {
    for (const g of ordered) {
      // The cursor's bucket resumes at the cursor's group.
      if (q.after && s === q.after[0] && (cmp(g.src, q.after[1]) || cmp(g.dst, q.after[2])) < 0) continue;
      out.push({
        timestamp: s,
        value: byBucket.get(JSON.stringify([s, g.src, g.dst])) ?? 0,
        srcBlockchainId: g.src,
        destBlockchainId: g.dst,
      });
      if (out.length > q.limit) break;
    }
  }
  const nextItem = out.length > q.limit ? out[q.limit] : undefined;
  return {
    results: out.slice(0, q.limit),
    next: nextItem && [nextItem.timestamp, nextItem.srcBlockchainId, nextItem.destBlockchainId],
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export type IcmSummary = Record<RollingWindow, number> & {
  srcBlockchainId: string;
  destBlockchainId: string;
};

/**
 * Message counts over the rolling windows: whole UTC hours ending with the current one (that of
 * the later of `nowSeconds` and the newest message, as the devnet clock can run ahead of the
 * wall clock), and all time. The response holds one pair, so the counts are over every message
 * the filters keep; the pair is named as an ungrouped series names it.
 */
export async function readIcmSummary(
  db: Kysely<DataSchema>,
  filter: IcmCountFilter,
  nowSeconds: number,
): Promise<IcmSummary> {
  return icmSummaryOf(await hourCounts(db, filter), filter, nowSeconds);
}

/** The summary of hour counts (none: every window 0, the pair named all the same). */
export function icmSummaryOf(
  counts: readonly HourCount[],
  filter: IcmCountFilter,
  nowSeconds: number,
): IcmSummary {
  const newest = counts.length > 0 ? counts[counts.length - 1].hour : 0;
  const currentHour = Math.max(bucketStart('hour', nowSeconds), newest);
  const since = (from: number) => counts.reduce((s, c) => (c.hour >= from ? s + c.n : s), 0);
  const windows = Object.fromEntries(
    Object.entries(WINDOW_HOURS).map(([name, hours]) => [name, since(windowStart(currentHour, hours))]),
  ) as Record<keyof typeof WINDOW_HOURS, number>;
  const pair = labeller(undefined, filter)({ src: '', dst: '' });
  return {
    ...windows,
    allTime: since(-Infinity),
    srcBlockchainId: pair.src,
    destBlockchainId: pair.dst,
  };
}
