/**
 * Which already-known contracts emit their first token event in a range. A contract's standard
 * and metadata are read when it is deployed; a proxy initialised by a later transaction (the
 * usual upgradeable-token deployment: deploy, then `initialize`) has no name, symbol or decimals
 * yet then, and was stored with empty ones. Its first Transfer is the sign it has become a
 * token, so the indexer reads it again at that point and stores what the chain answers then.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../../store/schema.js';

/** The contracts of `candidates` with no token transfer stored below block `from`. */
export async function firstTokenEvents(
  db: Kysely<DataSchema>,
  chain: number,
  from: number,
  candidates: Iterable<string>,
): Promise<Set<string>> {
  const checks = [...candidates].map(async (token) => {
    // One row through the (chain, token, block_number, …) index, whatever the token's history.
    const earlier = await db
      .selectFrom('evm_token_transfers')
      .select('token')
      .where('chain', '=', chain)
      .where('token', '=', token)
      .where('block_number', '<', from)
      .limit(1)
      .executeTakeFirst();
    return earlier ? undefined : token;
  });
  return new Set((await Promise.all(checks)).filter((t): t is string => t !== undefined));
}
