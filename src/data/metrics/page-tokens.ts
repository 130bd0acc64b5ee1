/**
 * Page tokens of the legacy `/v1/avg_tps` listing, as the real service issues them: a random
 * UUID that names a stored cursor and stays valid for 24 hours. After that the token is gone and
 * the listing must start again from the first page.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import { InvalidPageTokenError } from '../internal/errors.js';

export const TOKEN_LIFETIME_MS = 24 * 3600_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ExpiredPageTokenError extends InvalidPageTokenError {}

export function createUuidPageTokens(db: Kysely<DataSchema>, now: () => number) {
  return {
    async issue(scope: string, cursor: number): Promise<string> {
      const token = randomUUID();
      const t = now();
      await db
        .insertInto('metrics_page_tokens')
        .values({ token, scope, cursor, expires_at_ms: t + TOKEN_LIFETIME_MS })
        .execute();
      // Expired tokens are swept as new ones are issued, so the table stays small.
      await db
        .deleteFrom('metrics_page_tokens')
        .where('expires_at_ms', '<', t - TOKEN_LIFETIME_MS)
        .execute();
      return token;
    },
    async open(scope: string, token: string): Promise<number> {
      if (!UUID.test(token))
        throw new InvalidPageTokenError('pageToken must be a UUID issued by this service');
      const row = await db
        .selectFrom('metrics_page_tokens')
        .selectAll()
        .where('token', '=', token.toLowerCase())
        .executeTakeFirst();
      if (!row || row.scope !== scope)
        throw new InvalidPageTokenError('pageToken is not known to this service for this chain');
      if (Number(row.expires_at_ms) <= now())
        throw new ExpiredPageTokenError(
          'pageToken has expired (tokens are valid for 24 hours): restart the listing from the first page without pageToken',
        );
      return Number(row.cursor);
    },
  };
}
