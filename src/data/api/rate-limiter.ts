/**
 * Compute-unit budgets per caller (an API key, or the client address for anonymous calls), in a
 * fixed one-minute window and a fixed one-day window, as the real service meters them.
 *
 * A request is decided from what this process knows, so charging never waits on the database.
 * With a shared usage store, the process reports what it spent every `syncMs` and learns every
 * replica's total for the callers it served, so replicas on one database enforce one budget
 * between them — exceeding it by at most what the others spent within one sync interval.
 */
import type { Tier } from './api-keys.js';

export interface Charge {
  allowed: boolean;
  /** Budget of the window that decides (the minute window unless the day is spent). */
  limit: number;
  remaining: number;
  /** Seconds until that window resets. */
  resetSeconds: number;
}

/**
 * The `ratelimit-policy` header of a charge (IETF draft): the deciding window's budget, its length
 * in seconds, and the tier's name, which identifies the plan as the real services' header does.
 */
function ratelimitPolicy(charge: Charge, tier: Tier): string {
  return `${charge.limit};w=${charge.limit === tier.cuPerMinute ? 60 : 86400};name="${tier.name}"`;
}

/**
 * The `ratelimit-*` headers both services send with every metered answer; `ratelimit-reset` only
 * with a refusal, when the client needs to know how long to wait.
 */
export function rateLimitHeaders(charge: Charge, tier: Tier): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-policy': ratelimitPolicy(charge, tier),
    'ratelimit-limit': String(charge.limit),
    'ratelimit-remaining': String(charge.remaining),
  };
  if (!charge.allowed) headers['ratelimit-reset'] = String(charge.resetSeconds);
  return headers;
}

/** Where replicas pool their spending (the data store's `rate_limit_usage`). */
export interface UsageStore {
  /** Adds each delta to its window total; resolves the totals in the same order. */
  add(
    deltas: readonly { caller: string; window: 'm' | 'd'; start: number; delta: number }[],
  ): Promise<number[]>;
  /** Forgets windows that started before `beforeMs`. */
  prune(beforeMs: number): Promise<void>;
}

export interface RateLimiterOptions {
  now?: () => number;
  shared?: UsageStore;
  /** How often spending is pooled with the other replicas. */
  syncMs?: number;
  /**
   * A sync failed; `failures` counts the consecutive ones (1 on the first), so callers can log
   * sparsely. Answering `'stop'` (a store that will never take writes) ends pooling: the process
   * then meters on its own, as without a shared store.
   */
  onSyncError?: (err: unknown, failures: number) => void | 'stop';
  /** A sync succeeded after `failures` consecutive failures. */
  onSyncRecovered?: (failures: number) => void;
}

interface Window {
  start: number;
  /** Units spent in the window, as far as this process knows (every replica's, once synced). */
  used: number;
  /** Units this process spent that the shared store has not seen yet. */
  pending: number;
  /** When this process last charged the caller: totals of recent callers are refreshed. */
  chargedAt: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export function createRateLimiter(options: RateLimiterOptions | (() => number) = {}) {
  const o: RateLimiterOptions = typeof options === 'function' ? { now: options } : options;
  const now = o.now ?? Date.now;
  const minutes = new Map<string, Window>();
  const days = new Map<string, Window>();
  let lastSweep = now();
  /** Consecutive failed syncs (a prune failing during them counts as the same outage). */
  let failures = 0;
  /** Where spending is pooled; undefined once pooling stopped for good. */
  let shared = o.shared;

  function windowOf(map: Map<string, Window>, caller: string, length: number, t: number): Window {
    let w = map.get(caller);
    const start = Math.floor(t / length) * length;
    if (!w || w.start !== start) {
      w = { start, used: 0, pending: 0, chargedAt: 0 };
      map.set(caller, w);
    }
    return w;
  }

  function sweep(t: number): void {
    if (t - lastSweep < MINUTE) return;
    lastSweep = t;
    for (const [k, w] of minutes) if (w.start + MINUTE <= t && w.pending === 0) minutes.delete(k);
    for (const [k, w] of days) if (w.start + DAY <= t && w.pending === 0) days.delete(k);
    shared?.prune(t - DAY - MINUTE).catch((err) => failed(err, Math.max(failures, 1)));
  }

  function failed(err: unknown, count: number): void {
    if (o.onSyncError?.(err, count) !== 'stop' || !shared) return;
    shared = undefined;
    if (timer) clearInterval(timer);
    // Nothing will ever be reported: nothing may wait for it (the sweep keeps pending windows).
    for (const map of [minutes, days]) for (const w of map.values()) w.pending = 0;
  }

  let syncing: Promise<void> | undefined;
  /** Reports pending spending and refreshes the totals of the callers served in the last minute. */
  async function sync(): Promise<void> {
    const store = shared;
    if (!store) return;
    const t = now();
    const entries: { caller: string; window: 'm' | 'd'; w: Window; sent: number }[] = [];
    for (const [map, window] of [
      [minutes, 'm'],
      [days, 'd'],
    ] as const) {
      for (const [caller, w] of map) {
        if (w.pending === 0 && t - w.chargedAt >= MINUTE) continue;
        entries.push({ caller, window, w, sent: w.pending });
        w.pending = 0;
      }
    }
    if (entries.length === 0) return;
    try {
      const totals = await store.add(
        entries.map((e) => ({ caller: e.caller, window: e.window, start: e.w.start, delta: e.sent })),
      );
      // Units charged while the report was in flight are still pending on top of the total.
      entries.forEach((e, i) => (e.w.used = totals[i] + e.w.pending));
      if (failures > 0) o.onSyncRecovered?.(failures);
      failures = 0;
    } catch (err) {
      for (const e of entries) e.w.pending += e.sent;
      failed(err, ++failures);
    }
  }
  const syncOnce = () => (syncing ??= sync().finally(() => (syncing = undefined)));
  const timer = o.shared ? setInterval(() => void syncOnce(), o.syncMs ?? 250) : undefined;
  timer?.unref();

  return {
    /** Spends `cost` units of `caller`'s budget when both windows allow it. */
    charge(caller: string, tier: Tier, cost: number): Charge {
      const t = now();
      sweep(t);
      const m = windowOf(minutes, caller, MINUTE, t);
      const d = tier.cuPerDay ? windowOf(days, caller, DAY, t) : undefined;
      m.chargedAt = t;
      if (d) d.chargedAt = t;
      const minuteOk = m.used + cost <= tier.cuPerMinute;
      const dayOk = !d || d.used + cost <= tier.cuPerDay!;
      if (minuteOk && dayOk) {
        // Pending units wait for a sync, and the sweep keeps a window until they are reported;
        // without a shared store nothing is ever reported, so nothing may wait (else every
        // caller's windows would be kept for ever).
        const pending = shared ? cost : 0;
        m.used += cost;
        m.pending += pending;
        if (d) {
          d.used += cost;
          d.pending += pending;
        }
      }
      if (!dayOk) {
        return {
          allowed: false,
          limit: tier.cuPerDay!,
          remaining: Math.max(0, tier.cuPerDay! - d!.used),
          resetSeconds: Math.ceil((d!.start + DAY - t) / 1000),
        };
      }
      return {
        allowed: minuteOk,
        limit: tier.cuPerMinute,
        remaining: Math.max(0, tier.cuPerMinute - m.used),
        resetSeconds: Math.max(1, Math.ceil((m.start + MINUTE - t) / 1000)),
      };
    },
    /** How many caller windows this process holds (the sweep drops those that have passed). */
    windows: () => minutes.size + days.size,
    /** Pools spending with the shared store now (the timer does it every `syncMs`). */
    sync: syncOnce,
    /** Stops the timer after a last report, so nothing spent is lost on shutdown. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      await syncing;
      await sync();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
