/**
 * Opaque page tokens: the keyset position of the next page plus a digest of the query it belongs
 * to, base64url-encoded and HMAC-SHA256-signed with the store's secret. A token that was edited,
 * forged, or issued for a different query (other route, filters or sort) is rejected with 400.
 *
 * Layout: the first 128 bits of HMAC(secret, scope JSON ‖ 0 ‖ cursor JSON) as 22 base64url
 * characters, then the cursor JSON in base64url. Both halves are text, so a token is built and
 * checked with one HMAC and no intermediate buffers (it is on every list page's path).
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { InvalidPageTokenError } from '../internal/errors.js';

const TAG_CHARS = 22; // 16 bytes
const TOKEN = /^[A-Za-z0-9_-]+$/;
/** Tokens remembered as issued: a client walking a list presents the one it was just given. */
const REMEMBERED = 4096;

export interface PageTokens {
  /** Token for the page after `cursor` of the query described by `scope`. */
  issue(scope: unknown, cursor: unknown): string;
  /** The cursor inside `token`; throws InvalidPageTokenError unless it is genuine and for `scope`. */
  open<T>(scope: unknown, token: string): T;
}

/**
 * HMAC-SHA256 (RFC 2104) over one-shot hashes: the key's pads are prepared once, and each MAC is
 * two `crypto.hash` calls, which cost less than building an Hmac object per token.
 */
export function hmacSha256(secret: Buffer): (message: string) => Buffer {
  const key = secret.length > 64 ? hash('sha256', secret, 'buffer') : secret;
  const ipad = Buffer.alloc(64, 0x36);
  const opad = Buffer.alloc(64, 0x5c);
  for (let i = 0; i < key.length; i++) {
    ipad[i] ^= key[i];
    opad[i] ^= key[i];
  }
  const outer = Buffer.alloc(64 + 32);
  opad.copy(outer);
  return (message) => {
    const text = Buffer.from(message);
    const inner = hash('sha256', Buffer.concat([ipad, text], 64 + text.length), 'buffer');
    inner.copy(outer, 64);
    return hash('sha256', outer, 'buffer');
  };
}

export function createPageTokens(secret: Buffer): PageTokens {
  const mac = hmacSha256(secret);
  const tag = (scopeJson: string, cursorJson: string): string =>
    mac(`${scopeJson}\0${cursorJson}`).toString('base64url', 0, 16);
  // token → scope JSON and cursor JSON of tokens issued here: opening one needs no MAC.
  const issued = new Map<string, { scope: string; cursor: string }>();
  return {
    issue(scope, cursor) {
      const scopeJson = JSON.stringify(scope);
      const json = JSON.stringify(cursor);
      const token = tag(scopeJson, json) + Buffer.from(json).toString('base64url');
      if (issued.size >= REMEMBERED) issued.clear();
      issued.set(token, { scope: scopeJson, cursor: json });
      return token;
    },
    open<T>(scope: unknown, token: string): T {
      const scopeJson = JSON.stringify(scope);
      const known = issued.get(token);
      let json: string;
      if (known && known.scope === scopeJson) json = known.cursor;
      else {
        if (token.length <= TAG_CHARS || token.length > 2048 || !TOKEN.test(token))
          throw new InvalidPageTokenError('invalid pageToken');
        const body = token.slice(TAG_CHARS);
        json = Buffer.from(body, 'base64url').toString('utf8');
        // The decoder skips what cannot form a whole byte (a character appended to a token):
        // only the exact text this service wrote is its token.
        if (Buffer.from(json).toString('base64url') !== body)
          throw new InvalidPageTokenError('invalid pageToken');
        // Compared as text: an edit anywhere in the tag, even in its unused low bits, is refused.
        const given = Buffer.from(token.slice(0, TAG_CHARS));
        const expected = Buffer.from(tag(scopeJson, json));
        if (!timingSafeEqual(given, expected))
          throw new InvalidPageTokenError('invalid pageToken: not issued by this service for this query');
      }
      try {
        return JSON.parse(json) as T;
      } catch {
        throw new InvalidPageTokenError('invalid pageToken');
      }
    },
  };
}
