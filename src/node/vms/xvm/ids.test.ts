import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { toCb58 } from '../../../shared/encoding.js';
import { fastCb58 } from './ids.js';

describe('fast cb58', () => {
  it('matches the generic cb58 encoder', () => {
    const cases = [
      new Uint8Array(32),
      new Uint8Array(20),
      new Uint8Array([0, 0, 1]),
      new Uint8Array(32).fill(255),
    ];
    for (let i = 0; i < 300; i++) cases.push(new Uint8Array(randomBytes(i % 2 ? 32 : 20)));
    const leading = new Uint8Array(randomBytes(32));
    leading[0] = 0;
    leading[1] = 0;
    cases.push(leading);
    for (const c of cases) assert.equal(fastCb58(c), toCb58(c));
    assert.equal(fastCb58(new Uint8Array(32)), '11111111111111111111111111111111LpoYY');
  });
});
