/**
 * Compute-unit budgets per caller (an API key, or the client address for anonymous calls), in a
 * fixed one-minute window and a fixed one-day window, as the real service meters them. Budgets
 * live in this process: replicas behind a load balancer each enforce the full budget.
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

interface Window {
  start: number;
  used: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export function createRateLimiter(now: () => number = Date.now) {
  const minutes = new Map<string, Window>();
  const days = new Map<string, Window>();
  let lastSweep = now();

  function windowOf(map: Map<string, Window>, caller: string, length: number, t: number): Window {
    let w = map.get(caller);
    const start = Math.floor(t / length) * length;
    if (!w || w.start !== start) {
      w = { start, used: 0 };
      map.set(caller, w);
    }
    return w;
  }

  function sweep(t: number): void {
    if (t - lastSweep < MINUTE) return;
    lastSweep = t;
    for (const [k, w] of minutes) if (w.start + MINUTE <= t) minutes.delete(k);
    for (const [k, w] of days) if (w.start + DAY <= t) days.delete(k);
  }

  return {
    /** Spends `cost` units of `caller`'s budget when both windows allow it. */
    charge(caller: string, tier: Tier, cost: number): Charge {
      const t = now();
      sweep(t);
      const m = windowOf(minutes, caller, MINUTE, t);
      const d = tier.cuPerDay ? windowOf(days, caller, DAY, t) : undefined;
      const minuteOk = m.used + cost <= tier.cuPerMinute;
      const dayOk = !d || d.used + cost <= tier.cuPerDay!;
      if (minuteOk && dayOk) {
        m.used += cost;
        if (d) d.used += cost;
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
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
