/**
 * Opaque page tokens: the keyset position of the next page plus a digest of the query it belongs
 * to, base64url-encoded and HMAC-SHA256-signed with the store's secret. A token that was edited,
 * forged, or issued for a different query (other route, filters or sort) is rejected with 400.
 *
 * Layout: the first 128 bits of HMAC(secret, scope JSON ‖ 0 ‖ cursor JSON) as 22 base64url
 * characters, then the cursor JSON in base64url. Both halves are text, so a token is built and
 * checked with one HMAC and no intermediate buffers (it is on every list page's path).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidPageTokenError } from '../internal/errors.js';

const TAG_CHARS = 22; // 16 bytes
const TOKEN = /^[A-Za-z0-9_-]+$/;

export interface PageTokens {
  /** Token for the page after `cursor` of the query described by `scope`. */
  issue(scope: unknown, cursor: unknown): string;
  /** The cursor inside `token`; throws InvalidPageTokenError unless it is genuine and for `scope`. */
  open<T>(scope: unknown, token: string): T;
}

export function createPageTokens(secret: Buffer): PageTokens {
  const tag = (scope: unknown, cursorJson: string): string =>
    createHmac('sha256', secret)
      .update(`${JSON.stringify(scope)}\0${cursorJson}`)
      .digest()
      .toString('base64url', 0, 16);
  return {
    issue(scope, cursor) {
      const json = JSON.stringify(cursor);
      return tag(scope, json) + Buffer.from(json).toString('base64url');
    },
    open<T>(scope: unknown, token: string): T {
      if (token.length <= TAG_CHARS || token.length > 2048 || !TOKEN.test(token))
        throw new InvalidPageTokenError('invalid pageToken');
      const json = Buffer.from(token.slice(TAG_CHARS), 'base64url').toString('utf8');
      // Compared as text: an edit anywhere in the tag, even in its unused low bits, is refused.
      const given = Buffer.from(token.slice(0, TAG_CHARS));
      const expected = Buffer.from(tag(scope, json));
      if (!timingSafeEqual(given, expected))
        throw new InvalidPageTokenError('invalid pageToken: not issued by this service for this query');
      try {
        return JSON.parse(json) as T;
      } catch {
        throw new InvalidPageTokenError('invalid pageToken');
      }
    },
  };
}
