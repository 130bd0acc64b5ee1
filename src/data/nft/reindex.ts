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
import { getMeta } from '../store/queries/meta.js';
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
  const refuse = (last: number) => {
    const wait = Math.ceil((last + REINDEX_EVERY_MS - now) / 1000);
    return new RateLimitedError(
      `token ${args.tokenId} of ${checksumAddress(args.contract)} was reindexed less than a minute ago: ` +
        `reindexing is allowed once a minute per token, retry in ${wait} s`,
      wait,
    );
  };
  const stored = await getMeta(db, key);
  if (now - Number(stored ?? -Infinity) < REINDEX_EVERY_MS) throw refuse(Number(stored));
  await db.transaction().execute(async (tx) => {
    // Recorded only if no other request (another API process) was since `stored` was read:
    // reading and then writing would let two requests at once both pass the limit.
    const recorded =
      stored === undefined
        ? (
            await tx
              .insertInto('meta')
              .values({ key, value: String(now) })
              .onConflict((oc) => oc.column('key').doNothing())
              .executeTakeFirst()
          ).numInsertedOrUpdatedRows
        : (
            await tx
              .updateTable('meta')
              .set({ value: String(now) })
              .where('key', '=', key)
              .where('value', '=', stored)
              .executeTakeFirst()
          ).numUpdatedRows;
    if (Number(recorded ?? 0) === 0) throw refuse(Number(await getMeta(tx, key)));
    await tx
      .updateTable('evm_nft_tokens')
      .set({ next_fetch_at: now, attempts: 0 })
      .where('chain', '=', args.chain)
      .where('contract', '=', args.contract)
      .where('token_key', '=', tokenKey)
      .execute();
  });
}
