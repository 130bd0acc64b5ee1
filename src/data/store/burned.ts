/**
 * Running totals of the AVAX each primary-network chain's transactions burned (inputs less
 * outputs, less what went into L1 validator balances), added in the transaction that writes the
 * batch, so the supply route reads one row per chain instead of summing every transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DataSchema } from './schema.js';

/** Adds `amount` nAVAX to `chainId`'s total; callers write it with the batch that burned it. */
export async function addBurned(
  trx: Transaction<DataSchema>,
  chainId: string,
  amount: bigint,
): Promise<void> {
  if (amount <= 0n) return;
  const row = await trx
    .selectFrom('burned_totals')
    .select('amount')
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
  const total = (BigInt(row?.amount ?? '0') + amount).toString();
  if (row)
    await trx.updateTable('burned_totals').set({ amount: total }).where('chain_id', '=', chainId).execute();
  else await trx.insertInto('burned_totals').values({ chain_id: chainId, amount: total }).execute();
}

/** Each chain's burned total (nAVAX); a chain that burned nothing is absent. */
export async function burnedTotals(db: Kysely<DataSchema>): Promise<Map<string, bigint>> {
  const rows = await db.selectFrom('burned_totals').selectAll().execute();
  return new Map(rows.map((r) => [r.chain_id, BigInt(r.amount)]));
}

/**
 * What the EVM chain `evmChainId`'s transactions paid in gas (wei): on the C-chain every fee goes
 * to the burn address. Read from the monthly metric buckets, the fewest rows that cover the chain.
 */
export async function evmFeesPaid(db: Kysely<DataSchema>, evmChainId: number): Promise<bigint> {
  const rows = await db
    .selectFrom('evm_metric_buckets')
    .select('fees_paid')
    .where('chain', '=', evmChainId)
    .where('span', '=', 'month')
    .execute();
  return rows.reduce((sum, r) => sum + BigInt(r.fees_paid), 0n);
}
