/**
 * The node's durable embedded store: one SQLite file (through `libsql`, whose prebuilt binary
 * ships inside the registry package) in WAL mode with `synchronous=FULL`, so every committed
 * transaction survives `kill -9` and power loss. Each chain keeps its own tables; a block's rows,
 * its index entries and shared-memory changes commit in one transaction, so a crash leaves either
 * all of a block or none of it. See docs/storage.md for the measurements behind the choice.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';

export type SqlValue = string | number | bigint | Buffer | Uint8Array | null;

/** SQLite integers are signed 64-bit: a larger bigint cannot be bound (libsql throws "Loss of precision"). */
export const MAX_SQL_INTEGER = (1n << 63n) - 1n;

/** Whether `n` can be bound as an SQLite integer; a height or position beyond it is never stored. */
export function fitsSqlInteger(n: bigint): boolean {
  return n >= -MAX_SQL_INTEGER - 1n && n <= MAX_SQL_INTEGER;
}

export interface Statement {
  run(...params: SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): Record<string, any> | undefined;
  all(...params: SqlValue[]): Record<string, any>[];
}

/**
 * Most prepared statements kept. Most SQL here is fixed text, but some is built per request
 * (`eth_getLogs`: one `IN (?, …)` per address and topic count), so a cache keyed by text alone
 * grew with every new query shape a client sent, for as long as the node ran.
 */
export const MAX_CACHED_STATEMENTS = 500;

export class NodeDatabase {
  private readonly db: InstanceType<typeof Database>;
  private readonly statements = new Map<string, Statement>();
  private readonly rollbackListeners: (() => void)[] = [];
  private depth = 0;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID`);
  }

  /** Runs DDL or several statements at once. */
  exec(sql: string): void {
    this.db.exec(sql);
  }

  /**
   * A prepared statement, cached by its text; past MAX_CACHED_STATEMENTS the least recently used
   * leaves the cache, so a client sending many one-off query shapes does not push out the
   * statements every block and call runs (a caller still holding one can use it: it is finalized
   * once unreachable).
   */
  prepare(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (stmt) {
      // Map order is insertion order: re-inserting makes it the most recently used.
      this.statements.delete(sql);
    } else {
      stmt = this.db.prepare(sql) as unknown as Statement;
      if (this.statements.size >= MAX_CACHED_STATEMENTS)
        this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, stmt);
    return stmt;
  }

  /** How many prepared statements the cache holds. */
  get cachedStatements(): number {
    return this.statements.size;
  }

  /**
   * Runs `fn` inside one transaction; nested calls join the outer one. Everything written in it
   * commits together or not at all.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    this.db.exec('BEGIN IMMEDIATE');
    this.depth = 1;
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      try {
        this.db.exec('ROLLBACK');
      } finally {
        this.depth = 0;
        for (const listener of this.rollbackListeners) listener();
      }
      throw err;
    } finally {
      this.depth = 0;
    }
  }

  /**
   * Calls `listener` after every transaction that rolls back, so a reader keeping stored values
   * in memory (written inside the transaction) can forget them and read the store again.
   */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  getMeta(key: string): Buffer | undefined {
    const row = this.prepare('SELECT value FROM meta WHERE key = ?').get(key);
    return row ? Buffer.from(row.value as Uint8Array) : undefined;
  }

  getMetaString(key: string): string | undefined {
    return this.getMeta(key)?.toString('utf8');
  }

  setMeta(key: string, value: Buffer | string): void {
    this.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, typeof value === 'string' ? Buffer.from(value, 'utf8') : value);
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
