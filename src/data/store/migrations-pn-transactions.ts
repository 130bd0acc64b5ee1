/**
 * Migration 0011: the primary-network transaction lists (`/blockchains/{id}/transactions`,
 * `transactions:listStaking`). Transactions get time-ordered keyset indexes (all of a chain, and
 * per type), C-chain atomic txs their EVM side (`evm_io`), and `transaction_addresses` maps each
 * address to the transactions that created or consumed its outputs. Rows already in the store
 * are mapped here, from the UTXO, spend and reward rows.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function primaryNetworkTransactions(db: AnyDb): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('evm_io', 'text').execute();
  await db.schema
    .createIndex('transactions_by_time')
    .on('transactions')
    .columns(['chain_id', 'timestamp', 'seq'])
    .execute();
  await db.schema
    .createIndex('transactions_by_type_time')
    .on('transactions')
    .columns(['chain_id', 'tx_type', 'timestamp', 'seq'])
    .execute();
  await db.schema
    .createTable('transaction_addresses')
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('tx_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('transaction_addresses_pk', ['chain_id', 'address', 'ts', 'seq'])
    .execute();
  // Open staking periods (no reward or removal yet): the staking list reads them as one range.
  await db.schema
    .createIndex('stakers_open')
    .on('stakers')
    .columns(['reward_tx', 'removed_tx', 'end_ts'])
    .execute();
  await backfillTransactionAddresses(db);
}

/** `transaction_addresses` of the outputs already indexed: their creators, consumers and reward payers. */
export async function backfillTransactionAddresses(db: AnyDb): Promise<void> {
  const insert = (select: ReturnType<typeof sql>) =>
    sql`INSERT INTO transaction_addresses (chain_id, address, ts, seq, tx_hash, tx_type)
        SELECT DISTINCT t.chain_id, a.address, t.timestamp, t.seq, t.tx_hash, t.tx_type ${select}
        ON CONFLICT DO NOTHING`.execute(db);
  await insert(sql`FROM utxos u
    JOIN utxo_addresses a ON a.utxo_id = u.utxo_id
    JOIN transactions t ON t.tx_hash = u.tx_hash
    WHERE u.reward_type IS NULL`);
  await insert(sql`FROM utxos u
    JOIN utxo_addresses a ON a.utxo_id = u.utxo_id
    JOIN transactions t ON t.tx_hash = u.consuming_tx
    WHERE u.consuming_tx IS NOT NULL`);
  await insert(sql`FROM rewards r
    JOIN utxo_addresses a ON a.utxo_id = r.utxo_id
    JOIN transactions t ON t.tx_hash = r.reward_tx
    WHERE r.reward_tx IS NOT NULL`);
}
