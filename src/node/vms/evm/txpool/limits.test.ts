import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pendingTrims, queueTrims, txSlots } from './limits.js';

const counts = (o: Record<string, number>) => new Map(Object.entries(o));

describe('pool limits (coreth legacypool truncatePending / truncateQueue)', () => {
  it('trims the largest sender to the next largest, then both together', () => {
    // 22 executable txs over 16 slots; c and d are within their 4 account slots.
    const trims = pendingTrims(counts({ a: 10, b: 8, c: 3, d: 1 }), { accountSlots: 4, globalSlots: 16 });
    assert.deepEqual(Object.fromEntries(trims), { a: 4, b: 2 });
  });

  it('never trims a sender below its account slots, so the total may stay over', () => {
    assert.deepEqual(pendingTrims(counts({ a: 3, b: 3 }), { accountSlots: 3, globalSlots: 4 }).size, 0);
    assert.deepEqual(
      Object.fromEntries(pendingTrims(counts({ a: 5, b: 1 }), { accountSlots: 4, globalSlots: 1 })),
      { a: 1 },
    );
    assert.equal(pendingTrims(counts({ a: 50 }), { accountSlots: 4, globalSlots: 50 }).size, 0);
  });

  it('takes queued txs from the oldest heartbeats first, all of a sender’s before the next', () => {
    const queued = [
      { sender: 'x', count: 3 },
      { sender: 'y', count: 2 },
      { sender: 'z', count: 5 },
    ];
    assert.deepEqual(Object.fromEntries(queueTrims(queued, 6)), { x: 3, y: 1 });
    assert.equal(queueTrims(queued, 10).size, 0);
  });

  it('counts a tx’s slots by 32 KiB of its encoding', () => {
    assert.deepEqual([110, 32 * 1024, 32 * 1024 + 1, 128 * 1024].map(txSlots), [1, 1, 2, 4]);
  });
});
