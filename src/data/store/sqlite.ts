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

/**
 * Whether a failed statement is left active. SQLite keeps a statement that failed with
 * SQLITE_BUSY or SQLITE_LOCKED resumable (it may be stepped again once the lock is free), and
 * libsql 0.5 resets a statement only before its next run, never after a failure; there is no
 * other way to reset it. Until then the connection's read transaction stays open: every later
 * COMMIT fails ("cannot commit transaction - SQL statements in progress") and every autocommit
 * write joins a transaction that never commits — an indexer stalls for good while its reads
 * still answer. Other errors (constraints, interrupts) end the statement.
 */
export function leavesStatementActive(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * The connection the store writes through, with its statement cache. After a statement that
 * may be left active (see leavesStatementActive) the connection is replaced by a fresh one as
 * soon as it holds no explicit transaction: at once for an autocommit statement, after the
 * caller's ROLLBACK inside a transaction (which must run where the transaction is). The old one
 * is closed; SQLite frees it with its last statement.
 */
class WriterConnection implements SqliteDatabase {
  private raw: LibsqlDb;
  private readonly cache = new Map<string, SqliteStatement>();
  private replaceWhenIdle = false;

  constructor(
    private readonly open: () => LibsqlDb,
    /** A private in-memory database cannot be reopened: its data would be gone. */
    private readonly replaceable: boolean,
  ) {
    this.raw = open();
  }

  get current(): LibsqlDb {
    return this.raw;
  }

  close(): void {
    this.raw.close();
  }

  prepare(sql: string): SqliteStatement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      if (this.cache.size >= MAX_CACHED_STATEMENTS) this.cache.clear();
      stmt = this.adapt(this.raw.prepare(sql));
      this.cache.set(sql, stmt);
    }
    return stmt;
  }

  private adapt(stmt: LibsqlStatement): SqliteStatement {
    const s = stmt as any;
    const guarded = <T>(fn: () => T): T => {
      try {
        return fn();
      } catch (err) {
        if (this.replaceable && leavesStatementActive(err)) this.replaceWhenIdle = true;
        throw err;
      } finally {
        if (this.replaceWhenIdle && !this.raw.inTransaction) this.replace();
      }
    };
    return {
      get reader() {
        return Boolean(s.reader);
      },
      all: (parameters) => guarded(() => (s.all(parameters) as unknown[]).map(clean)),
      run: (parameters) => guarded(() => s.run(parameters)),
      *iterate(parameters) {
        // Materialised: a caller that stops early would otherwise leave the statement active.
        yield* guarded(() => [...(s.iterate(parameters) as Iterable<unknown>)].map(clean));
      },
    };
  }

  private replace(): void {
    let fresh: LibsqlDb;
    try {
      fresh = this.open();
    } catch {
      return; // tried again after the next statement
    }
    const old = this.raw;
    this.raw = fresh;
    this.cache.clear();
    this.replaceWhenIdle = false;
    try {
      old.close();
    } catch {
      // already closed
    }
  }
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
function openReader(file: string, busyTimeoutMs: number): { read: FastRead; close(): void } {
  const open = () => {
    const db = new Database(file);
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('query_only = true');
    // A page cache of its own (the default is 2 MB) and reads through a memory map: a hot list
    // page then costs no pread copies, about a fifth less per query over a 1,000,000-row store.
    db.pragma('cache_size = -65536');
    db.pragma('mmap_size = 1073741824');
    return db;
  };
  let db = open();
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
  function read(sql: string, params: readonly unknown[], options?: ReadOptions): unknown[] {
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
  }
  return {
    read(sql, params, options) {
      try {
        return read(sql, params, options);
      } catch (err) {
        // A read left active would hold its snapshot: every later read would see the store as
        // it was then (see leavesStatementActive). A fresh connection reads what is committed.
        if (leavesStatementActive(err)) {
          try {
            const fresh = open();
            cache.clear();
            db.close();
            db = fresh;
          } catch {
            // tried again at the next failure
          }
        }
        throw err;
      }
    },
    close: () => db.close(),
  };
}

export interface OpenSqliteOptions {
  /** How long a statement waits for another connection's lock before failing (tests lower it). */
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) the SQLite file with WAL so readers never block the indexer. */
export function openSqlite(
  file: string,
  options: OpenSqliteOptions = {},
): {
  /** The write connection (a getter: it is replaced after a statement left active). */
  readonly raw: LibsqlDb;
  dialect: SqliteDialect;
  /** Runs compiled SELECT text on the read-only connection (file databases only). */
  reader?: { read: FastRead; close(): void };
} {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const open = () => {
    const raw = new Database(file);
    // Before anything else: switching a new file to WAL takes an exclusive lock, and a process
    // opening the store at that moment must wait for it rather than fail with `database is locked`.
    raw.pragma(`busy_timeout = ${busyTimeoutMs}`);
    raw.pragma('journal_mode = WAL');
    // NORMAL in WAL mode keeps every committed transaction across a process crash (kill -9);
    // only an OS crash may lose the last commits, which the indexer re-reads from the node.
    raw.pragma('synchronous = NORMAL');
    raw.pragma('cache_size = -65536');
    return raw;
  };
  const writer = new WriterConnection(open, file !== ':memory:');
  return {
    get raw() {
      return writer.current;
    },
    dialect: new SqliteDialect({ database: writer }),
    reader: file === ':memory:' ? undefined : openReader(file, busyTimeoutMs),
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
