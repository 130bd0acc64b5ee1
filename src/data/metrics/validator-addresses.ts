/**
 * Addresses running validators during a time frame (`GET /v2/subnets/{subnetId}/validators:getAddresses`,
 * chainkit metrics.subnets.getValidators): one entry per validation of the subnet (each
 * AddValidatorTx, AddPermissionlessValidatorTx or AddSubnetValidatorTx) that was under way at
 * some instant of the frame, with the P-chain addresses its rewards go to and, as its sort key,
 * its start (the transaction's block time since Durango; a genesis validator's, the genesis
 * time), read from the stakers the primary-network indexer keeps.
 *
 * A validation runs from its start until its end or its removal (exclusive). One without a
 * rewards owner (a permissioned subnet's validator) names no address and is left out. Entries go
 * by start, then transaction id, oldest first.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../store/schema.js';

/** The last entry of a page: its start and transaction id. */
export type ValidatorAddressCursor = [start: number, txHash: string];

export interface ValidatorAddressQuery {
  subnetId: string;
  /** Inclusive bounds of the frame (Unix seconds). */
  from?: number;
  to?: number;
  after?: ValidatorAddressCursor;
  limit: number;
}

export async function readValidatorAddresses(
  db: Kysely<DataSchema>,
  q: ValidatorAddressQuery,
): Promise<{ addresses: { addresses: string[]; sortKey: string }[]; next?: ValidatorAddressCursor }> {
  let query = db
    .selectFrom('stakers')
    .select(['tx_hash', 'start_ts', 'reward_addresses'])
    .where('subnet_id', '=', q.subnetId)
    .where('kind', '=', 'validator')
    .where('reward_addresses', '!=', '[]');
  if (q.to !== undefined) query = query.where('start_ts', '<=', q.to);
  const from = q.from;
  if (from !== undefined)
    query = query
      .where('end_ts', '>', from)
      .where((eb) => eb.or([eb('removed_ts', 'is', null), eb('removed_ts', '>', from)]));
  const after = q.after;
  if (after !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('start_ts', '>', after[0]),
        eb.and([eb('start_ts', '=', after[0]), eb('tx_hash', '>', after[1])]),
      ]),
    );
  const rows = await query
    .orderBy('start_ts')
    .orderBy('tx_hash')
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    addresses: page.map((r) => ({
      addresses: JSON.parse(r.reward_addresses) as string[],
      sortKey: String(r.start_ts),
    })),
    next: rows.length > q.limit ? [Number(last.start_ts), last.tx_hash] : undefined,
  };
}
