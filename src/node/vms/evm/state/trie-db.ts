/**
 * The key–value store under the state trie (ethereumjs `DB` interface) on the node's SQLite.
 * Trie nodes and contract code are content-addressed, so they are never overwritten: writes made
 * while a block executes wait in memory (`pending`) and reach SQLite only inside the block's
 * accept transaction (`flushInto`). A crash before that leaves no trace; after it, the block and
 * every node its state root needs are durable together. Replays (traces, historical calls) use
 * a scratch copy whose writes are simply dropped.
 */
import type { BatchDBOp, DB } from '@ethereumjs/util';
import type { NodeDatabase } from '../../../storage/database.js';

export class TrieNodeTable {
  constructor(
    private readonly db: NodeDatabase,
    readonly table: string,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID`);
  }

  get(key: Buffer): Uint8Array | undefined {
    // libsql reads a lone Buffer argument as named parameters; an array binds it positionally.
    const row = this.db.prepare(`SELECT v FROM ${this.table} WHERE k = ?`).get(...one(key));
    return row ? new Uint8Array(row.v as Uint8Array) : undefined;
  }

  putMany(entries: Iterable<[string, Uint8Array]>): void {
    const stmt = this.db.prepare(`INSERT OR IGNORE INTO ${this.table} (k, v) VALUES (?, ?)`);
    for (const [k, v] of entries) stmt.run(Buffer.from(k, 'hex'), Buffer.from(v));
  }
}

export class TrieDb implements DB<string, Uint8Array> {
  private pending = new Map<string, Uint8Array>();

  constructor(
    private readonly table: TrieNodeTable,
    /** Reads also fall back to this db's pending writes (a scratch copy over the live chain). */
    private readonly parent?: TrieDb,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.pending.get(key) ?? this.parent?.peek(key) ?? this.table.get(Buffer.from(key, 'hex'));
  }

  peek(key: string): Uint8Array | undefined {
    return this.pending.get(key) ?? this.parent?.peek(key);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.pending.set(key, value);
  }

  /** Content-addressed nodes are never deleted (the node is archival; see docs/evm.md). */
  async del(): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.pending.set(op.key, op.value);
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  /** A copy whose writes never reach SQLite. */
  scratch(): TrieDb {
    return new TrieDb(this.table, this);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes the pending nodes; call inside the block's accept transaction, then `clear()`. */
  flushInto(): void {
    this.table.putMany(this.pending);
  }

  clear(): void {
    this.pending = new Map();
  }
}

/** Binds a single blob parameter positionally (libsql takes a lone object for named params). */
export function one(value: Buffer): any[] {
  return [[value]];
}
