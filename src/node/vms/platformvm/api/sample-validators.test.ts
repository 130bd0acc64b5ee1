import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cryptoRandomBelow, sampleByWeight, SampleSizeError } from './sample-validators.js';

const v = (id: number, weight: bigint) => ({
  nodeId: new Uint8Array(20).fill(id),
  weight,
  publicKey: undefined,
});
const SET = [v(1, 10n), v(2, 30n), v(3, 60n)];

describe('sampleByWeight', () => {
  it('draws each validator at most once and honours the size', () => {
    for (let size = 0; size <= SET.length; size++) {
      const drawn = sampleByWeight(SET, size);
      assert.equal(drawn.length, size);
      assert.equal(new Set(drawn.map((d) => d.nodeId[0])).size, size);
    }
  });

  it("draws by weight: the random point falls in one validator's share of the total", () => {
    // 0–9 is the first validator, 10–39 the second, 40–99 the third.
    assert.equal(sampleByWeight(SET, 1, () => 9n)[0].nodeId[0], 1);
    assert.equal(sampleByWeight(SET, 1, () => 10n)[0].nodeId[0], 2);
    assert.equal(sampleByWeight(SET, 1, () => 40n)[0].nodeId[0], 3);
    // After the third is drawn the total is 40: 39 lands in the second.
    const bounds: bigint[] = [];
    const two = sampleByWeight(SET, 2, (bound) => (bounds.push(bound), bound - 1n));
    assert.deepEqual(
      two.map((d) => d.nodeId[0]),
      [3, 2],
    );
    assert.deepEqual(bounds, [100n, 40n]);
  });

  it('refuses more validators than the set holds, and skips zero weights', () => {
    assert.throws(() => sampleByWeight(SET, 4), SampleSizeError);
    assert.throws(() => sampleByWeight([v(1, 0n)], 1), SampleSizeError);
  });

  it('draws uniform integers below any bound', () => {
    for (const bound of [1n, 2n, 7n, 2n ** 64n + 3n]) {
      for (let i = 0; i < 50; i++) {
        const r = cryptoRandomBelow(bound);
        assert.ok(r >= 0n && r < bound);
      }
    }
  });
});
