/**
 * Rolling-window chain metrics (`GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}`,
 * chainkit metrics.chains.getRollingWindowMetrics): one value per window — last hour, day, week,
 * month (30 days), 90 days, year (365 days) and all time — read from the same buckets and
 * distinct-member rows as the time series, so both agree.
 *
 * A window is made of whole UTC hours: the current hour and the ones before it (`lastDay` = 24
 * hour buckets). The current hour is that of the later of the wall clock and the newest indexed
 * bucket, as the devnet clock can run ahead of the wall clock. Distinct counts (active addresses,
 * senders, deployers) are distinct over the whole window, not sums of per-hour counts.
 *
 * Several chains (the reference's `total`, `mainnet` and `testnet`) are read as one: their buckets
 * add up, an address active on two of them counts once, and a maximum is the largest any of them
 * reached (the buckets keep no per-second counts to add up across chains).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import type { EvmMetricBucketTable } from '../store/schema-evm.js';
import { bucketStart } from './buckets.js';
import { HOUR, WINDOW_HOURS, windowStart, type RollingWindow } from './windows.js';

/** The real API's ChainRollingWindowMetric enum. */
export const ROLLING_WINDOW_METRICS = [
  'gasUsed',
  'txCount',
  'avgGps',
  'maxGps',
  'avgTps',
  'maxTps',
  'avgGasPrice',
  'maxGasPrice',
  'feesPaid',
  'contracts',
  'deployers',
  'activeAddresses',
  'activeSenders',
] as const;
export type RollingWindowMetric = (typeof ROLLING_WINDOW_METRICS)[number];

export type RollingWindowValues = Record<RollingWindow, number>;

type Bucket = Selectable<EvmMetricBucketTable>;
const WEI_PER_NAVAX = 1e9;
const WEI_PER_AVAX = 1e18;
/** Bucket kind of the distinct-member metrics in `evm_metric_members`. */
const MEMBER_KIND = { activeAddresses: 'a', activeSenders: 's', deployers: 'd' } as const;
type MemberMetric = keyof typeof MEMBER_KIND;
const isMemberMetric = (metric: RollingWindowMetric): metric is MemberMetric => metric in MEMBER_KIND;

export async function readRollingWindows(
  db: Kysely<DataSchema>,
  chains: number[],
  metric: RollingWindowMetric,
  nowSeconds: number,
): Promise<RollingWindowValues> {
  // No chain (`mainnet` on a devnet): every window is empty.
  if (chains.length === 0)
    return Object.fromEntries(
      [...Object.keys(WINDOW_HOURS), 'allTime'].map((w) => [w, 0]),
    ) as RollingWindowValues;
  const newest = await db
    .selectFrom('evm_metric_buckets')
    .select((eb) => eb.fn.max('bucket_start').as('last'))
    .where('chain', 'in', chains)
    .where('span', '=', 'hour')
    .executeTakeFirst();
  const currentHour = Math.max(bucketStart('hour', nowSeconds), Number(newest?.last ?? 0));
  const startOf = (hours: number) => windowStart(currentHour, hours);
  const out = {} as RollingWindowValues;

  if (isMemberMetric(metric)) {
    const kind = MEMBER_KIND[metric];
    const distinct = async (span: string, from?: number) => {
      let q = db
        .selectFrom('evm_metric_members')
        .select(sql<number>`count(distinct address)`.as('n'))
        .where('chain', 'in', chains)
        .where('span', '=', span)
        .where('kind', '=', kind);
      if (from !== undefined) q = q.where('bucket_start', '>=', from);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    };
    for (const [name, hours] of Object.entries(WINDOW_HOURS))
      out[name as RollingWindow] = await distinct('hour', startOf(hours));
    // Every address and deployer the chain ever had is kept under span `all`; senders are not,
    // so they are counted over the month buckets.
    out.allTime = kind === 's' ? await distinct('month') : await distinct('all');
    return out;
  }

  // The hour buckets of the longest window, and the month buckets for all time (fewer rows).
  const hours = await db
    .selectFrom('evm_metric_buckets')
    .selectAll()
    .where('chain', 'in', chains)
    .where('span', '=', 'hour')
    .where('bucket_start', '>=', startOf(WINDOW_HOURS.lastYear))
    .execute();
  const months = await db
    .selectFrom('evm_metric_buckets')
    .selectAll()
    .where('chain', 'in', chains)
    .where('span', '=', 'month')
    .execute();
  for (const [name, length] of Object.entries(WINDOW_HOURS)) {
    const from = startOf(length);
    out[name as RollingWindow] = aggregate(
      metric,
      hours.filter((b) => Number(b.bucket_start) >= from),
      length * HOUR,
    );
  }
  const first = months.length === 0 ? currentHour : firstStart(months, hours);
  out.allTime = aggregate(metric, months, currentHour + HOUR - first);
  return out;
}

function firstStart(months: Bucket[], hours: Bucket[]): number {
  // The first hour with activity (inside the first month) starts the all-time window.
  const monthStart = Math.min(...months.map((b) => Number(b.bucket_start)));
  const inHours = hours.map((b) => Number(b.bucket_start)).filter((s) => s >= monthStart);
  return inHours.length > 0 ? Math.min(...inHours) : monthStart;
}

/** One window's value from its buckets; rates are per second of the window. */
function aggregate(
  metric: Exclude<RollingWindowMetric, MemberMetric>,
  buckets: Bucket[],
  seconds: number,
): number {
  const sum = (f: (b: Bucket) => number) => buckets.reduce((s, b) => s + f(b), 0);
  const big = (f: (b: Bucket) => string) => buckets.reduce((s, b) => s + BigInt(f(b)), 0n);
  const max = (f: (b: Bucket) => number) => buckets.reduce((m, b) => Math.max(m, f(b)), 0);
  switch (metric) {
    case 'txCount':
      return sum((b) => Number(b.tx_count));
    case 'gasUsed':
      return sum((b) => Number(b.gas_used));
    case 'contracts':
      return sum((b) => Number(b.contracts));
    case 'avgTps':
      return sum((b) => Number(b.tx_count)) / seconds;
    case 'avgGps':
      return sum((b) => Number(b.gas_used)) / seconds;
    case 'maxTps':
      return max((b) => Number(b.max_tps));
    case 'maxGps':
      return max((b) => Number(b.max_gps));
    case 'avgGasPrice': {
      const txs = big((b) => String(b.tx_count));
      return txs > 0n ? Number(big((b) => b.gas_price_sum) / txs) / WEI_PER_NAVAX : 0;
    }
    case 'maxGasPrice':
      return (
        Number(buckets.reduce((m, b) => (BigInt(b.max_gas_price) > m ? BigInt(b.max_gas_price) : m), 0n)) /
        WEI_PER_NAVAX
      );
    case 'feesPaid':
      return Number(big((b) => b.fees_paid)) / WEI_PER_AVAX;
  }
}
