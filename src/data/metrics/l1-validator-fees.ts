/**
 * L1 validator fee metrics (chainkit metrics.l1Validators.*): the ACP-77 continuous fee L1
 * validators paid per UTC day, as the primary-network indexer replays it from the P-chain's
 * blocks (`indexer/primary/l1-fees.ts`), in nAVAX:
 * - `/v2/validators/metrics/{metric}`: every L1 validation (`totalValidatorFeesDaily`,
 *   `totalCumulativeFeesDaily`, `totalPayingValidatorsDaily`);
 * - `/v2/validation/{l1ValidationId}/metrics/{metric}`: one validation;
 * - `/v2/validator/{nodeId}/metrics/{metric}`: every validation of one node;
 * - `/v2/subnet/{subnetId}/metrics/{metric}`: every validation of one L1.
 * Days run from the first day anything was paid to the last, newest first, each day present (0
 * where nothing was paid); a cumulative value counts every day before it, whatever the range.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { nextBucket } from './buckets.js';

export const L1_FEE_METRICS = {
  all: ['totalCumulativeFeesDaily', 'totalValidatorFeesDaily', 'totalPayingValidatorsDaily'],
  validation: ['validationCumulativeFeesDaily', 'validationFeesDaily'],
  node: ['perNodeCumulativeFeesPaid', 'perNodeDailyFeesPaid'],
  subnet: ['perSubnetDailyFeesPaid', 'perSubnetCumulativeFeesPaid', 'perSubnetPayingValidators'],
} as const;

export type L1FeeScope = keyof typeof L1_FEE_METRICS;
type Measure = 'daily' | 'cumulative' | 'paying';

/** What a metric name measures (every name of every scope). */
export function measureOf(metric: string): Measure {
  if (/Cumulative/.test(metric)) return 'cumulative';
  if (/Paying/.test(metric)) return 'paying';
  return 'daily';
}

export interface L1FeeQuery {
  scope: L1FeeScope;
  /** The validation, node or subnet id (not for `all`). */
  id?: string;
  metric: string;
  /** Inclusive bounds on day starts (Unix seconds). */
  from?: number;
  to?: number;
}

export async function readL1FeeSeries(
  db: Kysely<DataSchema>,
  q: L1FeeQuery,
): Promise<{ timestamp: number; value: number }[]> {
  let query = db.selectFrom('l1_validator_fees').select(['day', 'validation_id', 'fee']).orderBy('day');
  if (q.scope === 'validation') query = query.where('validation_id', '=', q.id!);
  if (q.scope === 'node') query = query.where('node_id', '=', q.id!);
  if (q.scope === 'subnet') query = query.where('subnet_id', '=', q.id!);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const days = new Map<number, { paid: bigint; payers: number }>();
  for (const r of rows) {
    const day = days.get(Number(r.day)) ?? { paid: 0n, payers: 0 };
    const fee = BigInt(r.fee);
    day.paid += fee;
    if (fee > 0n) day.payers++;
    days.set(Number(r.day), day);
  }
  const measure = measureOf(q.metric);
  const out: { timestamp: number; value: number }[] = [];
  let total = 0n;
  const last = Number(rows[rows.length - 1]!.day);
  for (let day = Number(rows[0]!.day); day <= last; day = nextBucket('day', day)) {
    const d = days.get(day);
    total += d?.paid ?? 0n;
    if ((q.from !== undefined && day < q.from) || (q.to !== undefined && day > q.to)) continue;
    const value =
      measure === 'cumulative' ? total : measure === 'paying' ? BigInt(d?.payers ?? 0) : (d?.paid ?? 0n);
    out.push({ timestamp: day, value: Number(value) });
  }
  return out.reverse();
}
