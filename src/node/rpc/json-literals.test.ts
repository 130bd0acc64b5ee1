import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonBody } from './json-body.js';
import { attachRequestText, numberLiteral } from './json-literals.js';

/** A body parsed as the servers parse it, attached as a call's params would be. */
function parsed(text: string): any {
  const body = parseJsonBody(text);
  assert.ok(body.ok);
  attachRequestText(body.value as object, { text, body: body.value });
  return body.value;
}

describe('JSON number literals of a request body', () => {
  it('finds each number as written, past strings, escaped keys and nested containers', () => {
    const body = parsed(
      '{"s":"a\\"]},1e9","t":"b\\\\","k\\u0065y" : -0.0E+1,"list":[ 1.0 ,"2e2",[3e3],{"n":18446744073709551615}],"__proto__":1e400}',
    );
    assert.equal(numberLiteral(body, 'key'), '-0.0E+1');
    assert.equal(numberLiteral(body, '__proto__'), '1e400');
    // Nested containers are found through the call's params (here the body itself).
    assert.equal(numberLiteral(body.list, 0, body), '1.0');
    assert.equal(numberLiteral(body.list, 1, body), undefined); // a string
    assert.equal(numberLiteral(body.list[2], 0, body), '3e3');
    assert.equal(numberLiteral(body.list[3], 'n', body), '18446744073709551615');
    assert.equal(numberLiteral(body, 's'), undefined);
  });

  it('keeps the last of duplicate keys, as JSON.parse and Go do', () => {
    const body = parsed('{"a":[1e1],"a":2.0,"b":{"c":1},"b":{"c":3E0}}');
    assert.equal(numberLiteral(body, 'a'), '2.0');
    assert.equal(numberLiteral(body.b, 'c', body), '3E0');
  });

  it('answers only while the call runs, through its params', () => {
    const text = '[{"params":[{"limit":1e3}]}]';
    const body = JSON.parse(text);
    const params = body[0].params;
    const detach = attachRequestText(params, { text, body });
    assert.equal(numberLiteral(params[0], 'limit', params), '1e3');
    // A container met without its params is not looked for.
    assert.equal(numberLiteral(params[0], 'limit'), undefined);
    detach();
    assert.equal(numberLiteral(params[0], 'limit', params), undefined);
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
