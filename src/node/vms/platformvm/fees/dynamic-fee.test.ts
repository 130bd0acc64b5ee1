import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  advanceGasState,
  advanceValidatorFee,
  consumeGas,
  fakeExponential,
  gasPrice,
  GasCapacityError,
} from './dynamic-fee.js';

const gas = {
  weights: [1, 1000, 1000, 4] as [number, number, number, number],
  maxCapacity: 1_000_000n,
  maxPerSecond: 100_000n,
  targetPerSecond: 50_000n,
  minPrice: 1n,
  excessConversionConstant: 2_164_043n,
};

describe('ACP-103 gas model', () => {
  it('prices at the minimum without excess and grows exponentially with it', () => {
    assert.equal(fakeExponential(1n, 0n, 2_164_043n), 1n);
    assert.equal(fakeExponential(100n, 0n, 10n), 100n);
    // The EIP-4844 vectors of the same approximation.
    const vectors: [bigint, bigint, bigint, bigint][] = [
      [1n, 0n, 1n, 1n],
      [38493n, 0n, 1000n, 38493n],
      [0n, 1234n, 2345n, 0n],
      [1n, 2n, 1n, 6n],
      [1n, 4n, 2n, 6n],
      [1n, 3n, 1n, 16n],
      [1n, 6n, 2n, 18n],
      [10n, 8n, 2n, 542n],
      [1n, 5n, 2n, 11n],
      [1n, 50000000n, 2225652n, 5709098764n],
    ];
    for (const [f, n, d, want] of vectors) assert.equal(fakeExponential(f, n, d), want, `${f} ${n} ${d}`);
    assert.equal(gasPrice(gas, { capacity: 0n, excess: 2_164_043n * 3n, timestamp: 0 }), 20n);
  });

  it('refills capacity and decays excess with time, and refuses gas beyond capacity', () => {
    let s = { capacity: 0n, excess: 120_000n, timestamp: 100 };
    s = advanceGasState(gas, s, 101);
    assert.deepEqual(s, { capacity: 100_000n, excess: 70_000n, timestamp: 101 });
    s = advanceGasState(gas, s, 200);
    assert.deepEqual(s, { capacity: 1_000_000n, excess: 0n, timestamp: 200 });
    s = consumeGas(s, 400_000n);
    assert.deepEqual(s, { capacity: 600_000n, excess: 400_000n, timestamp: 200 });
    assert.throws(() => consumeGas(s, 600_001n), GasCapacityError);
  });

  it('accrues the L1 validator fee per second at the price of the moment', () => {
    const config = {
      capacity: 20_000n,
      target: 10_000n,
      minPrice: 512n,
      excessConversionConstant: 1_246_488_515n,
    };
    const s = advanceValidatorFee(config, { excess: 0n, accrued: 0n, timestamp: 0 }, 3n, 60);
    assert.deepEqual(s, { excess: 0n, accrued: 512n * 60n, timestamp: 60 });
  });
});
