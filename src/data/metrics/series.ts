/**
 * Metric series over the buckets the indexer maintains: a page of consecutive buckets, newest
 * first, with empty periods filled in as zero, read in one range query per page.
 */
import type { Kysely, Selectable } from 'kysely';
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
  chain: number;
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

export async function readSeries(db: Kysely<DataSchema>, q: SeriesQuery): Promise<SeriesPage> {
  const bounds = await db
    .selectFrom('evm_metric_buckets')
    .select((eb) => [eb.fn.min('bucket_start').as('first'), eb.fn.max('bucket_start').as('last')])
    .where('chain', '=', q.chain)
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
    .where('chain', '=', q.chain)
    .where('span', '=', q.span)
    .where('bucket_start', '>=', page[page.length - 1])
    .where('bucket_start', '<=', page[0])
    .execute();
  const byStart = new Map(rows.map((r) => [Number(r.bucket_start), r]));
  const metric = q.metric;
  const results = isCumulative(metric)
    ? await cumulativeValues(db, q, page, byStart, CUMULATIVE[metric])
    : page.map((start) => ({
        timestamp: start,
        value: metricValue(metric, byStart.get(start), q.span, start),
      }));
  return { results, next: starts.length > q.limit ? starts[q.limit] : undefined };
}

/**
 * A cumulative metric over a page (bucket starts, newest first): the stored total of each
 * bucket; a period without a bucket keeps the total of the last bucket before it, read once.
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
    .where('chain', '=', q.chain)
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
