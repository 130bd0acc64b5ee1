/**
 * A reindex request (the real service's reindexNft): makes one token due for the metadata fetcher
 * at once, so its next visit reads `tokenURI` and the metadata again. The real service allows
 * it once an hour per token; a devnet allows it once a minute (metadata servers under test change
 * often). The last request's time is kept in the store (`meta`, `nft-reindex:<chain>:<contract>:
 * <token>`), so every API process on the store shares the limit and it survives restarts.
 */
import type { Kysely } from 'kysely';
import { checksumAddress } from '../evm/abi.js';
import { InvalidParameterError, NotFoundError, RateLimitedError } from '../internal/errors.js';
import { getMeta, setMeta } from '../store/queries/meta.js';
import type { DataSchema } from '../store/schema.js';

/** Shortest time between two reindex requests of one token. */
export const REINDEX_EVERY_MS = 60_000;

export async function requestNftReindex(
  db: Kysely<DataSchema>,
  args: { chain: number; contract: string; tokenId: string; now?: number },
): Promise<void> {
  if (!/^\d{1,78}$/.test(args.tokenId) || BigInt(args.tokenId) >= 2n ** 256n)
    throw new InvalidParameterError(`invalid tokenId "${args.tokenId}": expected a decimal uint256`);
  const tokenKey = BigInt(args.tokenId).toString().padStart(78, '0');
  const now = args.now ?? Date.now();
  const token = await db
    .selectFrom('evm_nft_tokens')
    .select('token_key')
    .where('chain', '=', args.chain)
    .where('contract', '=', args.contract)
    .where('token_key', '=', tokenKey)
    .executeTakeFirst();
  if (!token)
    throw new NotFoundError(
      `token ${args.tokenId} of ${checksumAddress(args.contract)} is not indexed on chain ${args.chain}`,
    );
  const key = `nft-reindex:${args.chain}:${args.contract}:${tokenKey}`;
  const last = Number((await getMeta(db, key)) ?? -Infinity);
  if (now - last < REINDEX_EVERY_MS) {
    const wait = Math.ceil((last + REINDEX_EVERY_MS - now) / 1000);
    throw new RateLimitedError(
      `token ${args.tokenId} of ${checksumAddress(args.contract)} was reindexed less than a minute ago: ` +
        `reindexing is allowed once a minute per token, retry in ${wait} s`,
      wait,
    );
  }
  await db.transaction().execute(async (tx) => {
    await setMeta(tx, key, String(now));
    await tx
      .updateTable('evm_nft_tokens')
      .set({ next_fetch_at: now, attempts: 0 })
      .where('chain', '=', args.chain)
      .where('contract', '=', args.contract)
      .where('token_key', '=', tokenKey)
      .execute();
  });
}
