import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepJsonText, jsonText } from './json-text.js';

describe('JSON text of request values', () => {
  it('writes what JSON.stringify writes', () => {
    const values: unknown[] = [
      null,
      true,
      1.5,
      NaN,
      'a"\\\u0000💥',
      [],
      {},
      [1, undefined, () => 1, { a: undefined, b: [null], c: 'x' }],
      { toJSON: () => ({ z: 1 }) },
      { d: new Date(0), n: { m: [[]] } },
    ];
    for (const value of values) assert.equal(deepJsonText(value), JSON.stringify(value));
    const replacer = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);
    assert.equal(deepJsonText({ a: [5n] }, replacer), '{"a":["5"]}');
    assert.throws(() => deepJsonText({ a: 5n }), TypeError);
  });

  it('writes values nested too deep for JSON.stringify', () => {
    const text = '['.repeat(50_000) + '{"a":1}' + ']'.repeat(50_000);
    const value = JSON.parse(text);
    assert.throws(() => JSON.stringify(value), RangeError);
    assert.equal(jsonText(value), text);
  });
});
