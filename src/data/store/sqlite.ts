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

/** How long a statement waits for another connection's lock before failing. */
const BUSY_TIMEOUT_MS = 10_000;

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

/** What a cached read may ask of the read connection. */
export interface ReadOptions {
  /**
   * No text value of the result holds an ASCII control character (JSON text, ids, numbers), so
   * the whole result may come back as one packed value. Packing does not keep the query's
   * order; `compare` restores it (it must order as SQLite's BINARY collation does, which for
   * ASCII text is JavaScript's own string order).
   */
  pack?: { compare: (a: any, b: any) => number };
}

export type FastRead = (sql: string, params: readonly unknown[], options?: ReadOptions) => unknown[];

// Packing separators: ASCII group, record and unit separators.
const NULL_MARK = '\x1d';
const ROW_SEP = '\x1e';
const FIELD_SEP = '\x1f';

interface ReaderEntry {
  stmt: any;
  names: string[];
  /** The statement with its rows folded into one text value (see `packRows`), when possible. */
  packed?: { stmt: any; numeric: boolean[] } | null;
}

/**
 * One text value holding every row: libsql converts each row and column through its own layers,
 * so a page read as a single value costs about a third less. Columns are decoded by declared
 * type (integers back to numbers); a column without one (an expression) disables packing.
 */
function packRows(db: LibsqlDb, sql: string, stmt: any): ReaderEntry['packed'] {
  const columns = stmt.columns() as { name: string; type: string | null }[];
  const names = new Set(columns.map((c) => c.name));
  if (names.size !== columns.length || columns.some((c) => !c.type || /blob|real|floa|doub/i.test(c.type)))
    return null;
  const fields = columns
    .map((c) => `ifnull("${c.name.replace(/"/g, '""')}", char(29))`)
    .join(' || char(31) || ');
  try {
    const packed = db.prepare(`select group_concat(${fields}, char(30)) from (${sql})`) as any;
    packed.raw(true);
    return { stmt: packed, numeric: columns.map((c) => /int/i.test(c.type!)) };
  } catch {
    return null;
  }
}

function unpack(text: string | null, names: string[], numeric: boolean[]): unknown[] | undefined {
  if (text === null) return [];
  const rows: unknown[] = [];
  for (const line of text.split(ROW_SEP)) {
    const values = line.split(FIELD_SEP);
    if (values.length !== names.length) return undefined;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const v = values[i];
      row[names[i]] = v === NULL_MARK ? null : numeric[i] ? Number(v) : v;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * A second, read-only connection for hot list queries whose SQL is already compiled: it skips
 * kysely's per-query machinery, and being its own connection it reads only committed data (WAL
 * snapshot), never the half-written batch an indexer in the same process may hold open.
 */
function openReader(file: string): { read: FastRead; close(): void } {
  const db = new Database(file);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('query_only = true');
  // A page cache of its own (the default is 2 MB) and reads through a memory map: a hot list
  // page then costs no pread copies, about a fifth less per query over a 1,000,000-row store.
  db.pragma('cache_size = -65536');
  db.pragma('mmap_size = 1073741824');
  // Rows come back as arrays (libsql builds those faster than objects) and are named here.
  const cache = new Map<string, ReaderEntry>();
  function entryOf(sql: string): ReaderEntry {
    let entry = cache.get(sql);
    if (!entry) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      const stmt = db.prepare(sql) as any;
      stmt.raw(true);
      entry = { stmt, names: (stmt.columns() as { name: string }[]).map((c) => c.name) };
      cache.set(sql, entry);
    }
    return entry;
  }
  return {
    read(sql, params, options) {
      const entry = entryOf(sql);
      const { stmt, names } = entry;
      const pack = options?.pack;
      if (pack) {
        if (entry.packed === undefined) entry.packed = packRows(db, sql, stmt);
        if (entry.packed) {
          const rows = unpack(entry.packed.stmt.get(params)[0], names, entry.packed.numeric);
          // A value holding a separator after all: read it unpacked.
          if (rows) return rows.sort(pack.compare);
        }
      }
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
  reader?: { read: FastRead; close(): void };
} {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new Database(file);
  // Before anything else: switching a new file to WAL takes an exclusive lock, and a process
  // opening the store at that moment must wait for it rather than fail with `database is locked`.
  raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  raw.pragma('journal_mode = WAL');
  // NORMAL in WAL mode keeps every committed transaction across a process crash (kill -9);
  // only an OS crash may lose the last commits, which the indexer re-reads from the node.
  raw.pragma('synchronous = NORMAL');
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

/**
 * Runs `fn` (the migrations) inside one write transaction taken before it reads anything, so
 * processes that open one store together (an indexer and an API started at once) migrate it
 * one after the other. kysely's SQLite adapter takes no migration lock (it assumes a single
 * connection): without this each process applies the same pending migrations and all but one
 * fail (`table "meta" already exists`, `duplicate column name`). A failed run rolls back whole.
 * The lock is polled rather than waited for in SQLite, which would block this thread: `flurry
 * start` serves its node from it.
 */
export async function withWriteLock<T>(raw: LibsqlDb, fn: () => Promise<T>, waitMs = 120_000): Promise<T> {
  const deadline = Date.now() + waitMs;
  raw.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        raw.exec('BEGIN IMMEDIATE');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  } finally {
    raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    try {
      raw.exec('ROLLBACK');
    } catch {
      // SQLite rolled the transaction back itself (some errors end it).
    }
    throw err;
  }
  raw.exec('COMMIT');
  return result;
}
