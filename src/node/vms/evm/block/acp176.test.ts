import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as acp176 from './acp176.js';

describe('ACP-176 fee state', () => {
  const base: acp176.FeeState = { capacity: 10_000_000n, excess: 0n, targetExcess: 0n };

  it('prices at the 1 wei minimum with no excess and rises with it', () => {
    assert.equal(acp176.gasPrice(base), 1n);
    const busy = { ...base, excess: 87_000_000n * 3n }; // 3·K at the minimum target
    const p = acp176.gasPrice(busy);
    assert.ok(p >= 19n && p <= 20n, `e^3 ≈ 20, got ${p}`);
  });

  it('refills capacity at twice the target up to ten seconds of target, and drains excess at the target', () => {
    const spent = acp176.consumeGas(base, 10_000_000n);
    assert.equal(spent.capacity, 0n);
    assert.equal(spent.excess, 10_000_000n);
    const later = acp176.advanceSeconds(spent, 3n);
    assert.equal(later.capacity, 6_000_000n);
    assert.equal(later.excess, 7_000_000n);
    assert.equal(acp176.advanceSeconds(spent, 100n).capacity, 10_000_000n);
    assert.throws(() => acp176.consumeGas(base, 10_000_001n), /exceeds the capacity/);
  });

  it('moves the target excess by at most 2^15 per block toward the desired target', () => {
    const desired = acp176.targetExcessFor(10_000_000n);
    const t = acp176.targetPerSecond({ ...base, targetExcess: desired });
    assert.ok(t >= 10_000_000n && t < 10_000_100n);
    const step = acp176.updateTargetExcess(base, desired);
    assert.equal(step.targetExcess, 1n << 15n);
  });

  it('round-trips the header encoding', () => {
    const s = { capacity: 5n, excess: 6n, targetExcess: 7n };
    assert.deepEqual(acp176.decodeFeeState(acp176.encodeFeeState(s)), s);
  });
});
