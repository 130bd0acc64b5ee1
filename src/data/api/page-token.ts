/**
 * Opaque page tokens: the keyset position of the next page plus a digest of the query it belongs
 * to, base64url-encoded and HMAC-SHA256-signed with the store's secret. A token that was edited,
 * forged, or issued for a different query (other route, filters or sort) is rejected with 400.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidPageTokenError } from '../internal/errors.js';

const MAC_BYTES = 16;

export interface PageTokens {
  /** Token for the page after `cursor` of the query described by `scope`. */
  issue(scope: unknown, cursor: unknown): string;
  /** The cursor inside `token`; throws InvalidPageTokenError unless it is genuine and for `scope`. */
  open<T>(scope: unknown, token: string): T;
}

export function createPageTokens(secret: Buffer): PageTokens {
  const mac = (scope: string, payload: string): Buffer =>
    createHmac('sha256', secret).update(scope).update('\0').update(payload).digest().subarray(0, MAC_BYTES);
  return {
    issue(scope, cursor) {
      const payload = Buffer.from(JSON.stringify(cursor));
      const tag = mac(JSON.stringify(scope), payload.toString('base64url'));
      return Buffer.concat([tag, payload]).toString('base64url');
    },
    open<T>(scope: unknown, token: string): T {
      if (!/^[A-Za-z0-9_-]{1,2048}$/.test(token)) throw new InvalidPageTokenError('invalid pageToken');
      const raw = Buffer.from(token, 'base64url');
      if (raw.length <= MAC_BYTES) throw new InvalidPageTokenError('invalid pageToken');
      const tag = raw.subarray(0, MAC_BYTES);
      const payload = raw.subarray(MAC_BYTES);
      const expected = mac(JSON.stringify(scope), payload.toString('base64url'));
      if (!timingSafeEqual(tag, expected))
        throw new InvalidPageTokenError('invalid pageToken: not issued by this service for this query');
      try {
        return JSON.parse(payload.toString('utf8')) as T;
      } catch {
        throw new InvalidPageTokenError('invalid pageToken');
      }
    },
  };
}
