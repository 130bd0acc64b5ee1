import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonInteger, stringifyJson } from './json-integer.js';

describe('JSON integers', () => {
  it('writes every digit of a uint64 as a bare number', () => {
    assert.equal(
      stringifyJson({ a: jsonInteger(2n ** 64n - 1n), b: [jsonInteger(0), 'x'] }),
      '{"a":18446744073709551615,"b":[0,"x"]}',
    );
  });

  it('leaves strings alone, even ones that look like a mark', () => {
    const text = '\u0000int0123456789abcdef:5';
    assert.equal(stringifyJson({ s: text, n: jsonInteger(5) }), `{"s":${JSON.stringify(text)},"n":5}`);
    assert.equal(stringifyJson({ s: text }), JSON.stringify({ s: text }));
  });
});
