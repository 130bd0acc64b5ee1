/**
 * When each indexer source last heard from its node, kept in `meta` as `heartbeat:<source>` (ms
 * since the epoch). Checkpoints only move when blocks arrive, so on a quiet chain they cannot tell
 * a live indexer from a dead one; the heartbeat can, and the health check reads it — also from an
 * API process that runs apart from the indexer (`flurry api` beside `flurry indexer`).
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../schema.js';
import { setMeta } from './meta.js';

const PREFIX = 'heartbeat:';

/** How often a live source records its heartbeat. */
export const HEARTBEAT_EVERY_MS = 5_000;

/** A source silent this long (a dozen missed heartbeats) is reported down by the health check. */
export const HEARTBEAT_STALE_MS = 60_000;

export async function writeHeartbeat(db: Kysely<DataSchema>, source: string, at: number): Promise<void> {
  await setMeta(db, PREFIX + source, String(at));
}

/** Source → when it last heard from the node (ms). */
export async function readHeartbeats(db: Kysely<DataSchema>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('meta')
    .select(['key', 'value'])
    .where('key', 'like', `${PREFIX}%`)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.key.slice(PREFIX.length), Number(r.value)]));
}

/**
 * A source's heartbeat: call it whenever the node answered; it writes at most once every
 * `everyMs`, in the background. A failed write (the store is away) is simply retried at the next
 * call: the outage shows in the health check through the store itself.
 */
export function createHeartbeat(
  db: Kysely<DataSchema>,
  source: string,
  options: { everyMs?: number; now?: () => number } = {},
): () => void {
  const everyMs = options.everyMs ?? HEARTBEAT_EVERY_MS;
  const now = options.now ?? Date.now;
  let last = -Infinity;
  let writing = false;
  return () => {
    const t = now();
    if (writing || t - last < everyMs) return;
    writing = true;
    last = t;
    writeHeartbeat(db, source, t)
      .catch(() => (last = -Infinity))
      .finally(() => (writing = false));
  };
}
