import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteReader } from './byte-reader.js';

class ShortInput extends Error {}

describe('ByteReader', () => {
  const reader = (bytes: number[]) => new ByteReader(Uint8Array.from(bytes), (m) => new ShortInput(m));

  it('reads big-endian integers and length-prefixed bytes in order', () => {
    const r = reader([0, 7, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 2, 0xaa, 0xbb, 0xcc]);
    assert.equal(r.u16(), 7);
    assert.equal(r.u32(), 256);
    assert.equal(r.u64(), 9n);
    assert.deepEqual([...r.sized()], [0xaa, 0xbb]);
    assert.equal(r.done(), false);
    assert.deepEqual([...r.rest()], [0xcc]);
    assert.deepEqual([...r.take(1)], [0xcc]);
    assert.equal(r.done(), true);
  });

  it("reports input that ends early with the caller's error and does not move", () => {
    const r = reader([0, 0, 0]);
    assert.throws(() => r.u32(), ShortInput);
    assert.equal(r.at, 0);
    assert.throws(() => reader([0, 0, 0, 5, 1]).sized(), ShortInput);
  });

  it('refuses a list length whose elements could not fit', () => {
    assert.throws(() => reader([0xff, 0xff, 0xff, 0xff, 0]).count(4), ShortInput);
    assert.equal(reader([0, 0, 0, 1, 1, 2, 3, 4]).count(4), 1);
  });
});
