import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketSeconds, bucketStart, nextBucket, previousBucket } from './buckets.js';

const at = (iso: string) => Date.parse(iso) / 1000;

test('hour, day, week (Monday) and month (1st) buckets in UTC', () => {
  const t = at('2026-11-22T03:04:05Z'); // a Sunday
  assert.equal(bucketStart('hour', t), at('2026-11-22T03:00:00Z'));
  assert.equal(bucketStart('day', t), at('2026-11-22T00:00:00Z'));
  assert.equal(bucketStart('week', t), at('2026-11-16T00:00:00Z'));
  assert.equal(bucketStart('week', at('2026-11-23T00:00:00Z')), at('2026-11-23T00:00:00Z'));
  assert.equal(bucketStart('month', t), at('2026-11-01T00:00:00Z'));
  assert.equal(nextBucket('month', at('2026-12-01T00:00:00Z')), at('2027-01-01T00:00:00Z'));
  assert.equal(previousBucket('month', at('2026-03-01T00:00:00Z')), at('2026-02-01T00:00:00Z'));
  assert.equal(bucketSeconds('month', at('2028-02-01T00:00:00Z')), 29 * 86_400);
  assert.equal(previousBucket('week', at('2026-11-16T00:00:00Z')), at('2026-11-09T00:00:00Z'));
});
