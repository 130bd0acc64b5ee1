/**
 * Metric series over the buckets the indexer maintains: a page of consecutive buckets, newest
 * first, with empty periods filled in as zero, read in one range query per page.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import type { EvmMetricBucketTable } from '../store/schema-evm.js';
import { bucketSeconds, bucketStart, previousBucket, type Span } from './buckets.js';

/** The real API's ChainMetric enum, every value of which is computed here. */
export const METRICS = [
  'activeAddresses',
  'activeSenders',
  'cumulativeTxCount',
  'cumulativeAddresses',
  'cumulativeContracts',
  'cumulativeDeployers',
  'contracts',
  'deployers',
  'gasUsed',
  'txCount',
  'avgGps',
  'maxGps',
  'avgTps',
  'maxTps',
  'avgGasPrice',
  'maxGasPrice',
  'feesPaid',
] as const;
export type Metric = (typeof METRICS)[number];

type Bucket = Selectable<EvmMetricBucketTable>;

/** The bucket column each cumulative metric reads: totals up to the end of the bucket. */
const CUMULATIVE = {
  cumulativeTxCount: 'cumulative_tx_count',
  cumulativeAddresses: 'cumulative_addresses',
  cumulativeContracts: 'cumulative_contracts',
  cumulativeDeployers: 'cumulative_deployers',
} as const satisfies Partial<Record<Metric, keyof Bucket>>;
type CumulativeMetric = keyof typeof CUMULATIVE;

function isCumulative(metric: Metric): metric is CumulativeMetric {
  return metric in CUMULATIVE;
}

const WEI_PER_NAVAX = 1e9;
const WEI_PER_AVAX = 1e18;

/** One bucket's value. Gas prices are in nAVAX (gwei), fees in AVAX; rates per second. */
export function metricValue(
  metric: Exclude<Metric, CumulativeMetric>,
  b: Bucket | undefined,
  span: Span,
  start: number,
): number {
  const seconds = bucketSeconds(span, start);
  const n = (v: unknown) => Number(v ?? 0);
  switch (metric) {
    case 'activeAddresses':
      return n(b?.active_addresses);
    case 'activeSenders':
      return n(b?.active_senders);
    case 'contracts':
      return n(b?.contracts);
    case 'deployers':
      return n(b?.deployers);
    case 'gasUsed':
      return n(b?.gas_used);
    case 'txCount':
      return n(b?.tx_count);
    case 'avgTps':
      return n(b?.tx_count) / seconds;
    case 'avgGps':
      return n(b?.gas_used) / seconds;
    case 'maxTps':
      return n(b?.max_tps);
    case 'maxGps':
      return n(b?.max_gps);
    case 'avgGasPrice':
      return b && n(b.tx_count) > 0
        ? Number(BigInt(b.gas_price_sum) / BigInt(b.tx_count)) / WEI_PER_NAVAX
        : 0;
    case 'maxGasPrice':
      return b ? Number(BigInt(b.max_gas_price)) / WEI_PER_NAVAX : 0;
    case 'feesPaid':
      return b ? Number(BigInt(b.fees_paid)) / WEI_PER_AVAX : 0;
  }
}

export interface SeriesQuery {
  /** One EVM chain, or several read as one (the reference's `total`, `mainnet`, `testnet`). */
  chains: number[];
  metric: Metric;
  span: Span;
  /** Inclusive bounds on bucket starts (Unix seconds). */
  from?: number;
  to?: number;
  /** Start of the newest bucket of this page (from the previous page's cursor). */
  before?: number;
  limit: number;
}

export interface SeriesPage {
  results: { timestamp: number; value: number }[];
  /** Bucket start the next page begins with. */
  next?: number;
}

/** Member kinds (`evm_metric_members`) of the distinct counts: addresses, senders, deployers. */
const MEMBER_KIND = { activeAddresses: 'a', activeSenders: 's', deployers: 'd' } as const;
const CUMULATIVE_MEMBER_KIND = { cumulativeAddresses: 'a', cumulativeDeployers: 'd' } as const;

/**
 * A page of a chain's series; several chains read as one add up per bucket, count an address
 * active on two of them once (from the members of each bucket, also for the cumulative
 * addresses and deployers), and take the largest of their maxima (the buckets keep no
 * per-second counts to add up across chains).
 */
export async function readSeries(db: Kysely<DataSchema>, q: SeriesQuery): Promise<SeriesPage> {
  if (q.chains.length === 0) return { results: [] };
  const bounds = await db
    .selectFrom('evm_metric_buckets')
    .select((eb) => [eb.fn.min('bucket_start').as('first'), eb.fn.max('bucket_start').as('last')])
    .where('chain', 'in', q.chains)
    .where('span', '=', q.span)
    .executeTakeFirst();
  if (!bounds || bounds.first === null || bounds.last === null) return { results: [] };
  // Bucket timestamps are their starts: `from` and `to` bound them inclusively.
  const lowest = Math.max(Number(bounds.first), q.from ?? -Infinity);
  let newest = Number(bounds.last);
  if (q.to !== undefined) newest = Math.min(newest, bucketStart(q.span, q.to));
  if (q.before !== undefined) newest = Math.min(newest, q.before);
  const starts: number[] = [];
  for (let s = newest; s >= lowest && starts.length <= q.limit; s = previousBucket(q.span, s)) starts.push(s);
  const page = starts.slice(0, q.limit);
  if (page.length === 0) return { results: [] };
  const rows = await db
    .selectFrom('evm_metric_buckets')
    .selectAll()
    .where('chain', 'in', q.chains)
    .where('span', '=', q.span)
    .where('bucket_start', '>=', page[page.length - 1])
    .where('bucket_start', '<=', page[0])
    .execute();
  const metric = q.metric;
  const next = starts.length > q.limit ? starts[q.limit] : undefined;
  if (isCumulative(metric)) return { results: await cumulativeSeries(db, q, page, rows, metric), next };
  const byStart = mergeByStart(rows);
  const several = q.chains.length > 1;
  const distinct =
    several && metric in MEMBER_KIND
      ? await distinctMembers(db, q, page, MEMBER_KIND[metric as keyof typeof MEMBER_KIND])
      : undefined;
  const results = page.map((start) => ({
    timestamp: start,
    value: distinct ? (distinct.get(start) ?? 0) : metricValue(metric, byStart.get(start), q.span, start),
  }));
  return { results, next };
}

/** The buckets of several chains with the same start as one: sums, and the largest maxima. */
function mergeByStart(rows: Bucket[]): Map<number, Bucket> {
  const out = new Map<number, Bucket>();
  const big = (a: string, b: string) => (BigInt(a) + BigInt(b)).toString();
  const bigMax = (a: string, b: string) => (BigInt(a) > BigInt(b) ? a : b);
  for (const r of rows) {
    const start = Number(r.bucket_start);
    const b = out.get(start);
    if (!b) {
      out.set(start, { ...r });
      continue;
    }
    b.tx_count = Number(b.tx_count) + Number(r.tx_count);
    b.gas_used = Number(b.gas_used) + Number(r.gas_used);
    b.contracts = Number(b.contracts) + Number(r.contracts);
    b.fees_paid = big(b.fees_paid, r.fees_paid);
    b.gas_price_sum = big(b.gas_price_sum, r.gas_price_sum);
    b.max_gas_price = bigMax(b.max_gas_price, r.max_gas_price);
    b.max_tps = Math.max(Number(b.max_tps), Number(r.max_tps));
    b.max_gps = Math.max(Number(b.max_gps), Number(r.max_gps));
  }
  return out;
}

/** Distinct members of a kind in each bucket of the page, over every chain of the query. */
async function distinctMembers(
  db: Kysely<DataSchema>,
  q: SeriesQuery,
  page: number[],
  kind: 'a' | 's' | 'd',
): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('evm_metric_members')
    .select(['bucket_start', sql<number>`count(distinct address)`.as('n')])
    .where('chain', 'in', q.chains)
    .where('span', '=', q.span)
    .where('kind', '=', kind)
    .where('bucket_start', '>=', page[page.length - 1])
    .where('bucket_start', '<=', page[0])
    .groupBy('bucket_start')
    .execute();
  return new Map(rows.map((r) => [Number(r.bucket_start), Number(r.n)]));
}

/**
 * A cumulative metric over a page (bucket starts, newest first). One chain, or transactions and
 * contracts of several: each chain's stored totals, a period without a bucket keeping the last
 * total before it, added up. Addresses and deployers of several chains: those whose first bucket
 * on any of them starts at or before the bucket.
 */
async function cumulativeSeries(
  db: Kysely<DataSchema>,
  q: SeriesQuery,
  page: number[],
  rows: Bucket[],
  metric: CumulativeMetric,
): Promise<{ timestamp: number; value: number }[]> {
  if (q.chains.length > 1 && metric in CUMULATIVE_MEMBER_KIND) {
    const kind = CUMULATIVE_MEMBER_KIND[metric as keyof typeof CUMULATIVE_MEMBER_KIND];
    const firsts = await db
      .selectFrom(
        db
          .selectFrom('evm_metric_members')
          .select(['address', sql<number>`min(bucket_start)`.as('first')])
          .where('chain', 'in', q.chains)
          .where('span', '=', q.span)
          .where('kind', '=', kind)
          .where('bucket_start', '<=', page[0])
          .groupBy('address')
          .as('f'),
      )
      .select(['f.first', sql<number>`count(*)`.as('n')])
      .groupBy('f.first')
      .execute();
    return page.map((start) => ({
      timestamp: start,
      value: firsts.filter((f) => Number(f.first) <= start).reduce((sum, f) => sum + Number(f.n), 0),
    }));
  }
  const totals = new Map<number, number>(page.map((start) => [start, 0]));
  for (const chain of q.chains) {
    const byStart = new Map(
      rows.filter((r) => Number(r.chain) === chain).map((r) => [Number(r.bucket_start), r]),
    );
    for (const v of await cumulativeValues(db, { ...q, chains: [chain] }, page, byStart, CUMULATIVE[metric]))
      totals.set(v.timestamp, totals.get(v.timestamp)! + v.value);
  }
  return page.map((start) => ({ timestamp: start, value: totals.get(start)! }));
}

/**
 * A cumulative metric of one chain over a page (bucket starts, newest first): the stored total of
 * each bucket; a period without a bucket keeps the total of the last bucket before it, read once.
 */
async function cumulativeValues(
  db: Kysely<DataSchema>,
  q: SeriesQuery,
  page: number[],
  byStart: Map<number, Bucket>,
  column: (typeof CUMULATIVE)[CumulativeMetric],
): Promise<{ timestamp: number; value: number }[]> {
  const before = await db
    .selectFrom('evm_metric_buckets')
    .select(column)
    .where('chain', '=', q.chains[0])
    .where('span', '=', q.span)
    .where('bucket_start', '<', page[page.length - 1])
    .orderBy('bucket_start', 'desc')
    .limit(1)
    .executeTakeFirst();
  let carried = Number(before?.[column] ?? 0);
  const out: { timestamp: number; value: number }[] = [];
  for (let i = page.length - 1; i >= 0; i--) {
    const b = byStart.get(page[i]);
    if (b) carried = Number(b[column]);
    out.push({ timestamp: page[i], value: carried });
  }
  return out.reverse();
}
