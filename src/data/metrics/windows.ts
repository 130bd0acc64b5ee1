/**
 * The rolling windows of the metrics service (chain rolling-window metrics and the ICM summary):
 * whole UTC hours ending with the current one — `lastDay` is the current hour and the 23 before
 * it — and `allTime`, which has no length.
 */
export const HOUR = 3600;

/** Each window's length in hours. */
export const WINDOW_HOURS = {
  lastHour: 1,
  lastDay: 24,
  lastWeek: 7 * 24,
  lastMonth: 30 * 24,
  last90Days: 90 * 24,
  lastYear: 365 * 24,
} as const;

export type RollingWindow = keyof typeof WINDOW_HOURS | 'allTime';

/** The first hour (a bucket start) of a window of `hours` that ends with `currentHour`. */
export function windowStart(currentHour: number, hours: number): number {
  return currentHour - (hours - 1) * HOUR;
}
