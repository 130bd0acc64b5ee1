import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentHashes } from './recent-hashes.js';

const hash = (n: number) => new Uint8Array(32).fill(n % 256);

describe('RecentHashes', () => {
  it('keeps the most recent blocks only, however many are added', () => {
    const hashes = new RecentHashes(512);
    for (let n = 0; n < 20_000; n++) hashes.set(BigInt(n), hash(n));
    assert.equal(hashes.size, 512);
    assert.equal(hashes.get(19_999n)?.[0], 19_999 % 256);
    assert.equal(hashes.get(19_488n)?.[0], 19_488 % 256);
    assert.equal(hashes.get(19_487n), undefined, 'older ones are read from the store again');
  });

  it('a hash set again (an older block looked up) counts as recent', () => {
    const hashes = new RecentHashes(2);
    hashes.set(1n, hash(1));
    hashes.set(2n, hash(2));
    hashes.set(1n, hash(1));
    hashes.set(3n, hash(3));
    assert.equal(hashes.get(2n), undefined);
    assert.ok(hashes.get(1n));
    assert.ok(hashes.get(3n));
  });
});
