import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { float32 } from './validators-api.js';

describe('validators API uptime percentage', () => {
  it('is written as Go writes a float32: the shortest decimal of the float32', () => {
    // strconv.FormatFloat(float64(float32(x)), 'f', -1, 32), as encoding/json does.
    assert.equal(float32(99.99999999999987), 100);
    assert.equal(float32(33.333333333), 33.333332);
    assert.equal(float32(99.9999), 99.9999);
    assert.equal(float32(12.5), 12.5);
    assert.equal(float32(0), 0);
  });
});
