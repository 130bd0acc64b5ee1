/**
 * `transaction_addresses` rows of a write (the primary and the C-chain indexers'): each address
 * of an output maps to the transaction that created it (a reward output to the
 * RewardValidatorTx that paid it) and to the one that consumed it, and each EVM address of a
 * C-chain atomic tx to that tx. Consumers are found in the store: a spend may have been recorded
 * long before its output arrived (an import read before the export on the other chain).
 */
import type { Insertable, Transaction } from 'kysely';
import type { DataSchema, TransactionAddressTable, TransactionTable, UtxoTable } from './schema.js';

const CHUNK = 400;

export interface TransactionAddressWrite {
  transactions: Insertable<TransactionTable>[];
  /** Outputs of the write (reward outputs included). */
  utxos: Insertable<UtxoTable>[];
  /** Reward outputs and the transaction paying each. */
  rewards?: { utxo_id: string; reward_tx: string; addresses: string }[];
  /** Ids of every output the write created or spent (their consumers are looked up). */
  touched: string[];
  /** Further rows, e.g. the EVM addresses of C-chain atomic txs. */
  extra?: Insertable<TransactionAddressTable>[];
}

export async function writeTransactionAddresses(
  trx: Transaction<DataSchema>,
  w: TransactionAddressWrite,
): Promise<void> {
  const txs = new Map(w.transactions.map((t) => [t.tx_hash, t]));
  const rows = new Map<string, Insertable<TransactionAddressTable>>();
  const add = (txHash: string, addresses: string[]) => {
    const t = txs.get(txHash);
    if (!t) return;
    for (const address of addresses)
      rows.set(`${t.chain_id}|${address}|${t.seq}`, {
        chain_id: t.chain_id,
        address,
        ts: t.timestamp,
        seq: t.seq,
        tx_hash: t.tx_hash,
        tx_type: t.tx_type,
      });
  };
  const paidBy = new Map((w.rewards ?? []).map((r) => [r.utxo_id, r.reward_tx]));
  for (const u of w.utxos) {
    const tx = u.reward_type ? paidBy.get(u.utxo_id) : u.tx_hash;
    if (tx) add(tx, JSON.parse(u.addresses) as string[]);
  }
  for (const r of w.extra ?? []) rows.set(`${r.chain_id}|${r.address}|${r.seq}`, r);
  const all = [...rows.values()];
  for (let i = 0; i < all.length; i += CHUNK)
    await trx
      .insertInto('transaction_addresses')
      .values(all.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['chain_id', 'address', 'ts', 'seq']).doNothing())
      .execute();
  for (let i = 0; i < w.touched.length; i += CHUNK) {
    const ids = w.touched.slice(i, i + CHUNK);
    await trx
      .insertInto('transaction_addresses')
      .columns(['chain_id', 'address', 'ts', 'seq', 'tx_hash', 'tx_type'])
      .expression((eb) =>
        eb
          .selectFrom('utxos as u')
          .innerJoin('utxo_addresses as a', 'a.utxo_id', 'u.utxo_id')
          .innerJoin('transactions as t', 't.tx_hash', 'u.consuming_tx')
          .select(['t.chain_id', 'a.address', 't.timestamp', 't.seq', 't.tx_hash', 't.tx_type'])
          .distinct()
          .where('u.utxo_id', 'in', ids),
      )
      .onConflict((oc) => oc.columns(['chain_id', 'address', 'ts', 'seq']).doNothing())
      .execute();
  }
}
