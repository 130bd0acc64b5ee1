/**
 * Running totals of the AVAX supply route's figures: what each primary-network chain's
 * transactions burned (inputs less outputs, less what went into L1 validator balances), the
 * staking rewards paid and the L1 validator fees paid. Each is added to in the transaction that
 * writes the batch it comes from, so the route reads a few rows instead of summing every
 * transaction, reward and fee day (millions of rows on a public network).
 */
import type { Kysely, Transaction } from 'kysely';
import type { DataSchema } from './schema.js';

/** The name of each total (`running_totals.name`). */
export const TOTAL = {
  burned: (chainId: string) => `burned:${chainId}`,
  rewards: 'rewards',
  l1ValidatorFees: 'l1-validator-fees',
} as const;

/** Adds `amount` nAVAX to the total `name`; callers write it with the batch it comes from. */
export async function addToTotal(trx: Transaction<DataSchema>, name: string, amount: bigint): Promise<void> {
  if (amount <= 0n) return;
  const row = await trx
    .selectFrom('running_totals')
    .select('amount')
    .where('name', '=', name)
    .executeTakeFirst();
  const total = (BigInt(row?.amount ?? '0') + amount).toString();
  if (row) await trx.updateTable('running_totals').set({ amount: total }).where('name', '=', name).execute();
  else await trx.insertInto('running_totals').values({ name, amount: total }).execute();
}

/** Every total by name (nAVAX); one never added to is absent. */
export async function readTotals(db: Kysely<DataSchema>): Promise<Map<string, bigint>> {
  const rows = await db.selectFrom('running_totals').selectAll().execute();
  return new Map(rows.map((r) => [r.name, BigInt(r.amount)]));
}

/**
 * AVAX in unspent, unstaked outputs that cannot be spent before a time still to come: a
 * timelock, or a stakeable lock (genesis vesting on the P-chain). Two index probes (0020).
 */
export async function lockedAvax(db: Kysely<DataSchema>, avaxAssetId: string, now: number): Promise<bigint> {
  let total = 0n;
  for (const column of ['locktime', 'stakeable_locktime'] as const) {
    const rows = await db
      .selectFrom('utxos')
      .select(['utxo_id', 'amount', 'locktime', 'stakeable_locktime'])
      .where('asset_id', '=', avaxAssetId)
      .where('consuming_tx', 'is', null)
      .where(column, '>', 0)
      .where(column, '>', now)
      .where('staked', '=', 0)
      .execute();
    // An output locked both ways is counted once, with the first column.
    for (const r of rows) if (column === 'locktime' || !(Number(r.locktime) > now)) total += BigInt(r.amount);
  }
  return total;
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
