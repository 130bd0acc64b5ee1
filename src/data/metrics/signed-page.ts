/**
 * Keyset pages of the v2 routes behind the data service's signed page tokens: a token names the
 * query that issued it, so it cannot be replayed against another one.
 */
import type { PageTokens } from '../api/page-token.js';

/**
 * One keyset page behind a signed token: the cursor of the request's token (refused unless the
 * same query issued it), the page read from there, and `nextPageToken` when another page exists.
 */
export type SignedPage = <C, P extends { next?: C }>(
  scope: readonly unknown[],
  pageToken: string | undefined,
  read: (cursor?: C) => Promise<P>,
) => Promise<Omit<P, 'next'> & { nextPageToken?: string }>;

export function createSignedPage(signedTokens: PageTokens): SignedPage {
  return async function signedPage<C, P extends { next?: C }>(
    scope: readonly unknown[],
    pageToken: string | undefined,
    read: (cursor?: C) => Promise<P>,
  ): Promise<Omit<P, 'next'> & { nextPageToken?: string }> {
    // The scope's JSON text is the token scope, as the routes issued it before this helper.
    const scopeText = JSON.stringify(scope);
    const cursor = pageToken ? signedTokens.open<C>(scopeText, pageToken) : undefined;
    const { next, ...rest } = await read(cursor);
    return { ...(next !== undefined ? { nextPageToken: signedTokens.issue(scopeText, next) } : {}), ...rest };
  };
}
