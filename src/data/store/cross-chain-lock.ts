/**
 * Serialises the indexers' transactions that write primary-network UTXOs on PostgreSQL.
 *
 * An output and its spend can come from two chains' indexers (an import read before the export
 * on the other chain): each transaction settles the spends whose outputs it can see
 * (`writeUtxoRows`). Under READ COMMITTED two such transactions running at once each miss the
 * other's uncommitted half, so the spend would never be applied. Holding one transaction-scoped
 * advisory lock makes the second wait for the first's commit; its later statements then see
 * the first's rows. SQLite already runs one writer at a time.
 */
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { DataSchema } from './schema.js';

/** The lock's key: "flurry/utxo" as a 64-bit integer, apart from kysely's migration lock. */
const UTXO_WRITES_KEY = 0x666c757272792f75n;

export async function lockUtxoWrites(trx: Transaction<DataSchema>): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(${UTXO_WRITES_KEY.toString()}::bigint)`.execute(trx);
}
