import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseUnsigned } from './params.js';

describe('parseUnsigned reads a utils/json UintN as strconv.ParseUint does', () => {
  it('takes leading zeros and stops at the first digit past the limit', () => {
    assert.equal(parseUnsigned('0'.repeat(40) + '7', 'n', 16), 7n);
    assert.equal(parseUnsigned('18446744073709551615', 'n', 64), (1n << 64n) - 1n);
    // Out of range before the stray character is reached, as strconv reports it.
    assert.throws(() => parseUnsigned('1' + '0'.repeat(30) + 'x', 'n', 64), /: value out of range\)$/);
    assert.throws(() => parseUnsigned('65536', 'n', 16), /parsing "65536": value out of range\)$/);
    assert.throws(() => parseUnsigned('12x', 'n', 64), /parsing "12x": invalid syntax\)$/);
  });

  it('judges a number by the literal sent, or by its value when none is known', () => {
    assert.throws(() => parseUnsigned(1000, 'n', 64, '1e3'), /parsing "1e3": invalid syntax\)$/);
    assert.equal(parseUnsigned(1000, 'n', 64), 1000n);
    assert.throws(() => parseUnsigned(-0, 'n', 64), /parsing "-0": invalid syntax\)$/);
    assert.throws(
      () => parseUnsigned(true, 'n', 64),
      /\(n: expected an unsigned 64-bit integer .*got true\)$/,
    );
  });
});
