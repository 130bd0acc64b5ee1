/**
 * Time buckets of the metrics: UTC hours, days (from 00:00), weeks (from Monday 00:00) and
 * months (from the 1st). Shared by the indexer, which maintains the buckets, and the metrics
 * service, which reads them.
 */
export type Span = 'hour' | 'day' | 'week' | 'month';

export const SPANS: readonly Span[] = ['hour', 'day', 'week', 'month'];

const HOUR = 3600;
const DAY = 86_400;
const WEEK = 7 * DAY;
/** 1970-01-05 00:00 UTC, the first Monday of the epoch. */
const FIRST_MONDAY = 4 * DAY;

export function bucketStart(span: Span, ts: number): number {
  switch (span) {
    case 'hour':
      return ts - mod(ts, HOUR);
    case 'day':
      return ts - mod(ts, DAY);
    case 'week':
      return ts - mod(ts - FIRST_MONDAY, WEEK);
    case 'month': {
      const d = new Date(ts * 1000);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    }
  }
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(span: Span, start: number): number {
  switch (span) {
    case 'hour':
      return start + HOUR;
    case 'day':
      return start + DAY;
    case 'week':
      return start + WEEK;
    case 'month': {
      const d = new Date(start * 1000);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    }
  }
}

/** Start of the bucket before the one starting at `start`. */
export function previousBucket(span: Span, start: number): number {
  if (span !== 'month') return start - (nextBucket(span, start) - start);
  const d = new Date(start * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1) / 1000;
}

/** Length of the bucket in seconds (months vary). */
export function bucketSeconds(span: Span, start: number): number {
  return nextBucket(span, start) - start;
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
