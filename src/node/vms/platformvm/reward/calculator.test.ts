import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { potentialReward, splitReward } from './calculator.js';

const AVAX = 1_000_000_000n;
const config = {
  maxConsumptionRate: 120_000n,
  minConsumptionRate: 100_000n,
  mintingPeriodNs: 365n * 24n * 3600n * 1_000_000_000n,
  supplyCap: 720_000_000n * AVAX,
};
const YEAR = 365n * 24n * 3600n;
const DAY = 24n * 3600n;

describe('staking reward formula', () => {
  it('matches the reference vectors', () => {
    const vectors: [bigint, bigint, bigint, bigint][] = [
      [YEAR, 1_000_000n * AVAX, 360_000_000n * AVAX, 120_000n * AVAX],
      [YEAR, 1_000_000n * AVAX, 400_000_000n * AVAX, 96_000n * AVAX],
      [YEAR, 2_000_000n * AVAX, 400_000_000n * AVAX, 192_000n * AVAX],
      [YEAR, 1_000_000n * AVAX, 720_000_000n * AVAX, 0n],
      [DAY, 1_000_000n * AVAX, 360_000_000n * AVAX, 274_122_724_713n],
      [DAY, 5_000_000n, 360_000_000n * AVAX, 1370n],
      [DAY, 1_000_000n * AVAX, 400_000_000n * AVAX, 219_298_179_771n],
      [DAY, 2_000_000n * AVAX, 400_000_000n * AVAX, 438_596_359_542n],
    ];
    for (const [duration, stake, supply, expected] of vectors)
      assert.equal(
        potentialReward(config, duration, stake, supply),
        expected,
        `${duration}s ${stake} of ${supply}`,
      );
  });

  it('never mints past the supply cap', () => {
    assert.equal(potentialReward({ ...config, supplyCap: 1000n }, YEAR, 10n ** 18n, 1n), 999n);
  });

  it('splits delegation rewards as the reference rounds', () => {
    const vectors: [bigint, number, bigint][] = [
      [1000n, 500_000, 500n],
      [1n, 1_000_000, 1n],
      [1n, 999_999, 1n],
      [1n, 1, 1n],
      [1n, 0, 0n],
      [9223374036974675809n, 2, 18446748749757n],
      [9223374036974675809n, 1_000_000, 9223374036974675809n],
      [9223372036855275808n, 999_998, 9223353590111202098n],
      [9223372036855275808n, 2, 18446744349518n],
    ];
    for (const [amount, shares, split] of vectors) {
      const [a, b] = splitReward(amount, shares);
      assert.equal(a, split, `${amount} at ${shares}`);
      assert.equal(a + b, amount);
    }
  });
});
