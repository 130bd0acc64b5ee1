/**
 * Text columns in byte order on PostgreSQL. Lists break ties between equal sort keys by ids
 * (mixed-case cb58, hex) and page through them with keyset cursors; some lists also merge rows
 * or compare cursors in JavaScript, which orders strings by code unit, as SQLite does. A database
 * created with a language collation (`en_US.UTF-8`, ICU `en-US`: many installations' default)
 * orders those ids otherwise, and a page walk then repeats some rows and skips others. Every text
 * column of the store is therefore given the "C" collation, whatever the database's default.
 */
import { sql, type Kysely } from 'kysely';

/** Serializes the change between processes opening one store at once (indexer and API). */
const LOCK_KEY = 0x666c7279; // "flry"

/**
 * Gives every text column of the store's schema not yet in byte order the "C" collation (its
 * indexes are rebuilt). Runs at each open, after the migrations, so columns a later migration
 * adds are covered too; an up-to-date store costs one catalog query.
 */
export async function textInByteOrder(db: Kysely<any>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(tx);
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      SELECT c.table_name, c.column_name
      FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema()
        AND t.table_type = 'BASE TABLE'
        AND c.data_type = 'text'
        AND c.collation_name IS DISTINCT FROM 'C'
      ORDER BY c.table_name, c.column_name`.execute(tx);
    const byTable = new Map<string, string[]>();
    for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
    for (const [table, columns] of byTable) {
      const changes = columns.map((c) => sql`ALTER COLUMN ${sql.id(c)} TYPE text COLLATE "C"`);
      await sql`ALTER TABLE ${sql.id(table)} ${sql.join(changes)}`.execute(tx);
    }
  });
}
