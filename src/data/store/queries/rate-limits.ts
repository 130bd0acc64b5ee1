/**
 * Compute units spent per caller and window, shared by every API process on one database, so
 * replicas behind a load balancer enforce one budget between them instead of one each.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../schema.js';

export interface UsageDelta {
  caller: string;
  /** `m` (one minute) or `d` (one day). */
  window: 'm' | 'd';
  /** Window start, ms since the epoch. */
  start: number;
  /** Units spent here since the last report (0 only reads the total). */
  delta: number;
}

/** Rows per upsert statement (four parameters each, well within either database's limit). */
const ROWS_PER_STATEMENT = 500;

/**
 * Adds each delta to its window's shared total and returns the totals, in the same order. One
 * multi-row upsert per 500 windows: a sync costs a statement, not one per caller.
 */
export async function addRateLimitUsage(
  db: Kysely<DataSchema>,
  deltas: readonly UsageDelta[],
): Promise<number[]> {
  if (deltas.length === 0) return [];
  const keyOf = (caller: string, window: string, start: number) => `${window}|${start}|${caller}`;
  // One row per window: PostgreSQL refuses an upsert that touches the same row twice.
  const merged = new Map<string, UsageDelta>();
  for (const d of deltas) {
    const key = keyOf(d.caller, d.window, d.start);
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, delta: seen.delta + d.delta } : d);
  }
  const rows = [...merged.values()];
  const totals = new Map<string, number>();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const part = rows.slice(i, i + ROWS_PER_STATEMENT);
      const answered = await trx
        .insertInto('rate_limit_usage')
        .values(
          part.map((d) => ({ caller: d.caller, window: d.window, window_start: d.start, used: d.delta })),
        )
        .onConflict((oc) =>
          oc.columns(['caller', 'window', 'window_start']).doUpdateSet((eb) => ({
            used: eb('rate_limit_usage.used', '+', eb.ref('excluded.used')),
          })),
        )
        .returning(['caller', 'window', 'window_start', 'used'])
        .execute();
      // RETURNING promises no order: rows are matched back by their key.
      for (const r of answered) totals.set(keyOf(r.caller, r.window, Number(r.window_start)), Number(r.used));
    }
  });
  return deltas.map((d) => totals.get(keyOf(d.caller, d.window, d.start))!);
}

/** Drops windows that started before `beforeMs` (they can no longer limit anyone). */
export async function pruneRateLimitUsage(db: Kysely<DataSchema>, beforeMs: number): Promise<void> {
  await db.deleteFrom('rate_limit_usage').where('window_start', '<', beforeMs).execute();
}
