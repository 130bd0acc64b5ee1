import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feeSpeeds } from './price-options.js';

const GWEI = 1_000_000_000n;

describe("coreth's fee speeds", () => {
  it('derives slow, normal and fast tips from the estimate as calculateFeeSpeeds', () => {
    assert.deepEqual(feeSpeeds(2n * GWEI), { slow: 1_900_000_000n, normal: 2n * GWEI, fast: 2_100_000_000n });
    // Above the 20 gwei cap, slow and normal are capped but fast is not.
    assert.deepEqual(feeSpeeds(30n * GWEI), { slow: 19n * GWEI, normal: 20n * GWEI, fast: 31_500_000_000n });
    // The slow tip never drops below 1 wei.
    assert.deepEqual(feeSpeeds(1n), { slow: 1n, normal: 1n, fast: 1n });
  });
});
