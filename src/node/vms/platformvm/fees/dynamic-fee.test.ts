import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  advanceGasState,
  advanceValidatorFee,
  consumeGas,
  fakeExponential,
  gasPrice,
  GasCapacityError,
  secondsUntilAccrued,
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

  it('finds the second an L1 balance runs out, rounding up, whatever the excess', () => {
    const config = { target: 4n, minPrice: 512n, excessConversionConstant: 10_000n };
    const start = { excess: 0n, accrued: 1_000n, timestamp: 100 };
    // At the minimum price: 512 a second, so 1,024 more takes 2 s and 1,025 takes 3.
    assert.equal(secondsUntilAccrued(config, start, 2n, 2_024n, 60), 2);
    assert.equal(secondsUntilAccrued(config, start, 2n, 2_025n, 60), 3);
    assert.equal(secondsUntilAccrued(config, start, 2n, 1_000n, 60), 0);
    assert.equal(secondsUntilAccrued(config, start, 2n, 10n ** 18n, 60), 60);
    // Above target and with excess to decay the price moves every second: the answer is the
    // first second the accrual the chain itself computes reaches the balance.
    for (const [active, excess] of [
      [9n, 0n],
      [1n, 30_000n],
    ] as const) {
      const from = { ...start, excess };
      const target = advanceValidatorFee(config, from, active, 100 + 17).accrued - 1n;
      assert.equal(secondsUntilAccrued(config, from, active, target, 60), 17);
      assert.ok(advanceValidatorFee(config, from, active, 100 + 16).accrued < target);
    }
  });
});
