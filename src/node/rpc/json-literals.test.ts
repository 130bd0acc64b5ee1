import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonBody } from './json-body.js';
import { linkSource, numberLiteral } from './json-literals.js';

/** A body parsed as the servers parse it. */
function parsed(text: string): any {
  const body = parseJsonBody(text);
  assert.ok(body.ok);
  return body.value;
}

describe('JSON number literals of a request body', () => {
  it('finds each number as written, past strings, escaped keys and nested containers', () => {
    const body = parsed(
      '{"s":"a\\"]},1e9","k\\u0065y" : -0.0E+1,"list":[ 1.0 ,"2e2",[3e3],{"n":18446744073709551615}],"__proto__":1e400}',
    );
    assert.equal(numberLiteral(body, 'key'), '-0.0E+1');
    assert.equal(numberLiteral(body, '__proto__'), '1e400');
    // Nested containers of a paired body are known once any literal of it was asked for.
    assert.equal(numberLiteral(body.list, 0), '1.0');
    assert.equal(numberLiteral(body.list, 1), undefined); // a string
    assert.equal(numberLiteral(body.list[2], 0), '3e3');
    assert.equal(numberLiteral(body.list[3], 'n'), '18446744073709551615');
    assert.equal(numberLiteral(body, 's'), undefined);
  });

  it('keeps the last of duplicate keys, as JSON.parse and Go do', () => {
    const body = parsed('{"a":[1e1],"a":2.0,"b":{"c":1},"b":{"c":3E0}}');
    assert.equal(numberLiteral(body, 'a'), '2.0');
    assert.equal(numberLiteral(body.b, 'c'), '3E0');
  });

  it('reaches a nested container through a linked ancestor only', () => {
    const body = parsed('[{"params":[{"limit":1e3}]}]');
    const params = body[0].params;
    linkSource(body, body[0]);
    linkSource(body[0], params);
    assert.equal(numberLiteral(params[0], 'limit', params), '1e3');
    // A value built in code has no literal.
    assert.equal(numberLiteral([1000], 0), undefined);
  });

  it('reads bodies nested as deep as the decoder lets through', () => {
    const depth = 9_999;
    const body = parsed('['.repeat(depth) + '1e2' + ']'.repeat(depth));
    let innermost = body;
    for (let d = 1; d < depth; d++) innermost = innermost[0];
    assert.equal(numberLiteral(innermost, 0, body), '1e2');
  });
});
