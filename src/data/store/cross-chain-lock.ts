/**
 * Transaction-scoped advisory locks that serialise, on PostgreSQL, the indexers' writes to rows
 * two chains' indexers share. SQLite already runs one writer at a time.
 *
 * UTXOs: the primary-network UTXOs.
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

/** The locks' keys: "flurry/u", "flurry/i" as 64-bit integers, apart from kysely's migration lock. */
const UTXO_WRITES_KEY = 0x666c757272792f75n;
const ICM_WRITES_KEY = 0x666c757272792f69n;
/** Class of the per-source locks ("flur"): the two-int4 key space, apart from the 64-bit keys. */
const SOURCE_WRITES_CLASS = 0x666c7572;

async function lock(trx: Transaction<DataSchema>, key: bigint): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`.execute(trx);
}

export async function lockUtxoWrites(trx: Transaction<DataSchema>): Promise<void> {
  await lock(trx, UTXO_WRITES_KEY);
}

/**
 * ICM message rows (`evm_icm_messages`, `evm_icm_parties`): a message's send and receive are
 * written by the indexers of its two chains, each upserting the row keyed by message id. Lost
 * updates cannot happen (the upsert waits for the other's row), but two L1s messaging each other
 * can: chain A's batch holds message 1's row (its send) and waits for message 2's (its receive)
 * while chain B's holds message 2's and waits for message 1's, and PostgreSQL aborts one as a
 * deadlock. Holding this lock from the first ICM write orders such batches. Taken after
 * `lockUtxoWrites` (the C-chain's batches) and never before it, so the two never deadlock.
 */
export async function lockIcmWrites(trx: Transaction<DataSchema>): Promise<void> {
  await lock(trx, ICM_WRITES_KEY);
}

/**
 * One source's batches (`checkpoints.source`), for a batch that takes neither lock above: two
 * indexers on one store (`flurry indexer` twice) otherwise both read the same checkpoint under
 * READ COMMITTED and both insert the range, and the loser fails on a duplicate key. Held before
 * the checkpoint is read, the loser waits for the winner's commit, then sees the checkpoint moved
 * and gives up the batch as another indexer's (batch.ts `CheckpointConflictError`). Taken before
 * any other lock.
 */
export async function lockSourceWrites(trx: Transaction<DataSchema>, source: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(${SOURCE_WRITES_CLASS}::int4, hashtext(${source}))`.execute(trx);
}
