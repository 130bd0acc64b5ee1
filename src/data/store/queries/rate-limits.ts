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

/** Adds each delta to its window's shared total and returns the totals, in the same order. */
export async function addRateLimitUsage(
  db: Kysely<DataSchema>,
  deltas: readonly UsageDelta[],
): Promise<number[]> {
  if (deltas.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const totals: number[] = [];
    for (const d of deltas) {
      const row = await trx
        .insertInto('rate_limit_usage')
        .values({ caller: d.caller, window: d.window, window_start: d.start, used: d.delta })
        .onConflict((oc) =>
          oc.columns(['caller', 'window', 'window_start']).doUpdateSet((eb) => ({
            used: eb('rate_limit_usage.used', '+', eb.ref('excluded.used')),
          })),
        )
        .returning('used')
        .executeTakeFirstOrThrow();
      totals.push(Number(row.used));
    }
    return totals;
  });
}

/** Drops windows that started before `beforeMs` (they can no longer limit anyone). */
export async function pruneRateLimitUsage(db: Kysely<DataSchema>, beforeMs: number): Promise<void> {
  await db.deleteFrom('rate_limit_usage').where('window_start', '<', beforeMs).execute();
}
