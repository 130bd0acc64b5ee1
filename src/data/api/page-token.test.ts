import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { InvalidPageTokenError } from '../internal/errors.js';
import { createPageTokens, hmacSha256 } from './page-token.js';

describe('page tokens', () => {
  it('computes HMAC-SHA256 as node:crypto does, for short, block-sized and long keys', () => {
    for (const length of [0, 16, 32, 64, 65, 200]) {
      const key = randomBytes(length);
      for (const message of ['', 'scope\0cursor', 'é'.repeat(100)])
        assert.deepEqual(
          hmacSha256(key)(message),
          createHmac('sha256', key).update(message).digest(),
          `key of ${length} bytes`,
        );
    }
  });

  const scope = ['utxos', 'chain', ['fuji1abc'], undefined, false, 'timestamp', 'asc'];
  const cursor = { key: 1_700_000_000, id: '2Zs9b2uLF2e7vkaJxaUvrp4MJ3HW6rVEGh5yQ2dQ4VjhVeHkCu' };

  it('opens its own tokens, and those of another replica with the same secret', () => {
    const secret = randomBytes(32);
    const here = createPageTokens(secret);
    const token = here.issue(scope, cursor);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(here.open(scope, token), cursor);
    assert.deepEqual(createPageTokens(secret).open(scope, token), cursor);
  });

  it('refuses edited tokens, tokens of another query and tokens of another secret', () => {
    const secret = randomBytes(32);
    const token = createPageTokens(secret).issue(scope, cursor);
    const elsewhere = createPageTokens(secret);
    const flip = (i: number) => token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
    for (const bad of [
      flip(0),
      flip(21),
      flip(30),
      flip(token.length - 2),
      token.slice(0, 22),
      `${token}!`,
      '',
    ])
      assert.throws(() => elsewhere.open(scope, bad), InvalidPageTokenError, bad);
    // A character appended to a token whose cursor fills whole base64 groups (JSON length a
    // multiple of 3) decodes to the same cursor; the token is still not the one issued.
    for (let pad = 0; pad < 3; pad++) {
      const issued = createPageTokens(secret).issue(scope, {
        ...cursor,
        id: `${cursor.id}${'x'.repeat(pad)}`,
      });
      for (const extra of ['A', 'Q', 'AA', '='])
        assert.throws(() => elsewhere.open(scope, issued + extra), InvalidPageTokenError, issued + extra);
    }
    const here = createPageTokens(secret);
    const mine = here.issue(scope, cursor);
    assert.throws(() => here.open([...scope.slice(0, 6), 'desc'], mine), InvalidPageTokenError);
    assert.throws(() => createPageTokens(randomBytes(32)).open(scope, token), InvalidPageTokenError);
  });
});
