/**
 * Metric series over the buckets the indexer maintains: a page of consecutive buckets, newest
 * first, with empty periods filled in as zero, read in one range query per page.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import type { EvmMetricBucketTable } from '../store/schema-evm.js';
import { bucketSeconds, bucketStart, previousBucket, type Span } from './buckets.js';

export const METRICS = [
  'activeAddresses',
  'activeSenders',
  'cumulativeTxCount',
  'cumulativeContracts',
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

/** ChainMetric values of the real API this service does not compute (distinct counts over all time). */
export const UNSUPPORTED_METRICS = ['cumulativeAddresses', 'cumulativeDeployers'] as const;

type Bucket = Selectable<EvmMetricBucketTable>;

const WEI_PER_NAVAX = 1e9;
const WEI_PER_AVAX = 1e18;

/** One bucket's value. Gas prices are in nAVAX (gwei), fees in AVAX; rates per second. */
export function metricValue(
  metric: Metric,
  b: Bucket | undefined,
  span: Span,
  start: number,
  cumulative: number,
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
    case 'cumulativeTxCount':
    case 'cumulativeContracts':
      return cumulative;
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
  let cumulative = 0;
  if (q.metric === 'cumulativeTxCount' || q.metric === 'cumulativeContracts') {
    const column = q.metric === 'cumulativeTxCount' ? 'tx_count' : 'contracts';
    const total = await db
      .selectFrom('evm_metric_buckets')
      .select((eb) => eb.fn.sum<number>(column).as('total'))
      .where('chain', '=', q.chain)
      .where('span', '=', q.span)
      .where('bucket_start', '<=', page[0])
      .executeTakeFirst();
    cumulative = Number(total?.total ?? 0);
  }
  const results = page.map((start) => {
    const b = byStart.get(start);
    const value = metricValue(q.metric, b, q.span, start, cumulative);
    if (b) cumulative -= Number(q.metric === 'cumulativeContracts' ? b.contracts : b.tx_count);
    return { timestamp: start, value };
  });
  return { results, next: starts.length > q.limit ? starts[q.limit] : undefined };
}
