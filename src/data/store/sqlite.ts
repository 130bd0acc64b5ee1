/**
 * The embedded store: one SQLite file through `libsql` (better-sqlite3 compatible), adapted to
 * kysely's SqliteDialect. libsql 0.5 adds a `_metadata` key to row objects; the adapter strips
 * it so it never reaches a query result. Statements are cached by their SQL text.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

type LibsqlDb = InstanceType<typeof Database>;
type LibsqlStatement = ReturnType<LibsqlDb['prepare']>;

const MAX_CACHED_STATEMENTS = 500;

function clean(row: unknown): unknown {
  if (row && typeof row === 'object' && '_metadata' in row) {
    const { _metadata: _, ...rest } = row as Record<string, unknown>;
    return rest;
  }
  return row;
}

function adaptStatement(stmt: LibsqlStatement): SqliteStatement {
  const s = stmt as any;
  return {
    get reader() {
      return Boolean(s.reader);
    },
    all: (parameters) => (s.all(parameters) as unknown[]).map(clean),
    run: (parameters) => s.run(parameters),
    *iterate(parameters) {
      for (const row of s.iterate(parameters) as Iterable<unknown>) yield clean(row);
    },
  };
}

/**
 * A second, read-only connection for hot list queries whose SQL is already compiled: it skips
 * kysely's per-query machinery, and being its own connection it reads only committed data (WAL
 * snapshot), never the half-written batch an indexer in the same process may hold open.
 */
function openReader(file: string): {
  read: (sql: string, params: readonly unknown[]) => unknown[];
  close(): void;
} {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('query_only = true');
  // Rows come back as arrays (libsql builds those faster than objects) and are named here.
  const cache = new Map<string, { stmt: any; names: string[] }>();
  return {
    read(sql, params) {
      let entry = cache.get(sql);
      if (!entry) {
        if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
        const stmt = db.prepare(sql) as any;
        stmt.raw(true);
        entry = { stmt, names: (stmt.columns() as { name: string }[]).map((c) => c.name) };
        cache.set(sql, entry);
      }
      const { stmt, names } = entry;
      return (stmt.all(params) as unknown[][]).map((values) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
        return row;
      });
    },
    close: () => db.close(),
  };
}

/** Opens (creating if needed) the SQLite file with WAL so readers never block the indexer. */
export function openSqlite(file: string): {
  raw: LibsqlDb;
  dialect: SqliteDialect;
  /** Runs compiled SELECT text on the read-only connection (file databases only). */
  reader?: { read: (sql: string, params: readonly unknown[]) => unknown[]; close(): void };
} {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  // NORMAL in WAL mode keeps every committed transaction across a process crash (kill -9);
  // only an OS crash may lose the last commits, which the indexer re-reads from the node.
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 10000');
  raw.pragma('cache_size = -65536');
  const cache = new Map<string, SqliteStatement>();
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
        stmt = adaptStatement(raw.prepare(sql));
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
  return {
    raw,
    dialect: new SqliteDialect({ database }),
    reader: file === ':memory:' ? undefined : openReader(file),
  };
}
