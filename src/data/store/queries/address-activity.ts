/**
 * Which primary-network chains hold outputs of an address, and an address's newest activity on a
 * chain (an output created for it or spent from it). Every answer is a few index probes per
 * address: the address table's primary key, `utxo_addresses_by_ts` and `utxo_addresses_by_spent_ts`.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../schema.js';

/** The chains among `chainIds` on which each address has an output (spent or not). */
export async function chainsOfAddresses(
  db: Kysely<DataSchema>,
  addresses: string[],
  chainIds: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const address of addresses) {
    const found: string[] = [];
    for (const chainId of chainIds) {
      const hit = await db
        .selectFrom('utxo_addresses')
        .select('utxo_id')
        .where('chain_id', '=', chainId)
        .where('address', '=', address)
        .limit(1)
        .executeTakeFirst();
      if (hit) found.push(chainId);
    }
    out.set(address, found);
  }
  return out;
}

export interface AddressActivity {
  ts: number;
  height: number;
  txHash: string;
  utxoId: string;
  consumed: boolean;
}

/** The newest output creation or spend touching any of `addresses` on `chainId`; undefined if none. */
export async function lastActivity(
  db: Kysely<DataSchema>,
  chainId: string,
  addresses: string[],
): Promise<AddressActivity | undefined> {
  let best: AddressActivity | undefined;
  const consider = (a: AddressActivity) => {
    if (
      !best ||
      a.ts > best.ts ||
      (a.ts === best.ts && (a.height > best.height || (a.height === best.height && a.consumed)))
    )
      best = a;
  };
  for (const address of addresses) {
    const rows = () =>
      db
        .selectFrom('utxo_addresses as a')
        .innerJoin('utxos as u', 'u.utxo_id', 'a.utxo_id')
        .where('a.chain_id', '=', chainId)
        .where('a.address', '=', address);
    // The newest time is one index probe; outputs of that same second are then ordered by
    // their place in the chain (a few rows at most).
    for (const spent of [0, 1]) {
      const newest = await rows()
        .select('a.ts')
        .where('a.spent', '=', spent)
        .orderBy('a.ts', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!newest) continue;
      const created = await rows()
        .select(['u.utxo_id', 'u.tx_hash', 'u.block_height', 'u.block_ts'])
        .where('a.spent', '=', spent)
        .where('a.ts', '=', newest.ts)
        .orderBy('u.seq', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      consider({
        ts: Number(created.block_ts),
        height: Number(created.block_height),
        txHash: created.tx_hash,
        utxoId: created.utxo_id,
        consumed: false,
      });
    }
    const newestSpend = await rows()
      .select('a.spent_ts')
      .where('a.spent_ts', 'is not', null)
      .orderBy('a.spent_ts', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (newestSpend?.spent_ts === null || newestSpend?.spent_ts === undefined) continue;
    const spentRow = await rows()
      .select(['u.utxo_id', 'u.consuming_tx', 'u.consuming_height', 'u.consuming_ts'])
      .where('a.spent_ts', '=', newestSpend.spent_ts)
      .orderBy('u.consuming_height', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    if (spentRow.consuming_tx)
      consider({
        ts: Number(spentRow.consuming_ts),
        height: Number(spentRow.consuming_height),
        txHash: spentRow.consuming_tx,
        utxoId: spentRow.utxo_id,
        consumed: true,
      });
  }
  return best;
}
