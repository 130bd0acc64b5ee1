/**
 * The key–value store under the state trie (ethereumjs `DB` interface) on the node's SQLite.
 * Trie nodes and contract code are content-addressed, so they are never overwritten: writes made
 * while a block executes wait in memory (`pending`) and reach SQLite only inside the block's
 * accept transaction (`flushInto`). A crash before that leaves no trace; after it, the block and
 * every node its state root needs are durable together. Replays (traces, historical calls) use
 * a scratch copy whose writes are simply dropped.
 *
 * Because a key always names the same bytes, recently read and committed entries are kept in
 * memory (`NodeCache`) with no invalidation: the trie walks the same upper nodes for every
 * account it touches, and they would otherwise be SQLite reads.
 */
import { bytesToUnprefixedHex, type BatchDBOp, type DB } from '@ethereumjs/util';
import type { NodeDatabase } from '../../../storage/database.js';
import { reachableWrites } from './new-nodes.js';

/**
 * A bounded cache of trie entries: two generations of about `generationBytes` each; a hit in the
 * older one moves the entry to the newer, and when the newer fills the older is dropped.
 */
export class NodeCache {
  private young = new Map<string, Uint8Array>();
  private old = new Map<string, Uint8Array>();
  private youngBytes = 0;

  constructor(private readonly generationBytes = 8 * 1024 * 1024) {}

  get(key: string): Uint8Array | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  set(key: string, value: Uint8Array): void {
    if (this.young.has(key)) return;
    this.young.set(key, value);
    // Map entry and key string overhead, roughly.
    this.youngBytes += value.length + key.length + 80;
    if (this.youngBytes > this.generationBytes) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = 0;
    }
  }
}

/**
 * Trie entries in SQLite. Rows are appended in write order (rowid) and found through an index
 * on the key: keys are hashes, so every insert lands on a random page of whatever B-tree holds
 * it, and the index's small entries (key and rowid) fill a page about twelve times as densely
 * as whole nodes would. A block's commit writes ~40% fewer pages than with the nodes kept in a
 * key-ordered table (`<table>` WITHOUT ROWID, the first layout; migrated on open).
 */
export class TrieNodeTable {
  private readonly cache = new NodeCache();
  readonly table: string;

  constructor(
    private readonly db: NodeDatabase,
    legacyTable: string,
  ) {
    const table = (this.table = `${legacyTable}_nodes`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, k BLOB NOT NULL, v BLOB NOT NULL)`);
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${table}_k ON ${table} (k)`);
    // The addresses and slot keys behind the state tries' hashed keys, as a coreth node with
    // `preimages-enabled` keeps them: what state dumps and modified-account lists name.
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table}_preimages (h BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID`,
    );
    const legacy = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(legacyTable);
    if (legacy) {
      db.transaction(() => {
        db.exec(`INSERT OR IGNORE INTO ${table} (k, v) SELECT k, v FROM ${legacyTable}`);
        db.exec(`DROP TABLE ${legacyTable}`);
      });
    }
  }

  /** The value under a hex key. */
  get(key: string): Uint8Array | undefined {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    // libsql reads a lone Buffer argument as named parameters; an array binds it positionally.
    const row = this.db
      .prepare(`SELECT v FROM ${this.table} WHERE k = ?`)
      .get(...one(Buffer.from(key, 'hex')));
    if (!row) return undefined;
    const value = new Uint8Array(row.v as Uint8Array);
    this.cache.set(key, value);
    return value;
  }

  /** Writes entries; call inside the accept transaction. */
  putMany(entries: Iterable<[string, Uint8Array]>): void {
    const stmt = this.db.prepare(`INSERT OR IGNORE INTO ${this.table} (k, v) VALUES (?, ?)`);
    for (const [k, v] of entries)
      stmt.run(Buffer.from(k, 'hex'), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }

  /** Writes trie-key preimages (hex hash → key); call inside the accept transaction. */
  putPreimages(entries: Iterable<[string, Uint8Array]>): void {
    const stmt = this.db.prepare(`INSERT OR IGNORE INTO ${this.table}_preimages (h, v) VALUES (?, ?)`);
    for (const [h, v] of entries)
      stmt.run(Buffer.from(h, 'hex'), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }

  /** The key whose keccak256 is the hex `hash`, if a state trie ever held it. */
  preimage(hash: string): Uint8Array | undefined {
    const row = this.db
      .prepare(`SELECT v FROM ${this.table}_preimages WHERE h = ?`)
      .get(...one(Buffer.from(hash, 'hex')));
    return row ? new Uint8Array(row.v as Uint8Array) : undefined;
  }

  /** Keeps entries `putMany` wrote in memory, once their transaction has committed. */
  remember(entries: Iterable<[string, Uint8Array]>): void {
    for (const [k, v] of entries) this.cache.set(k, v);
  }
}

export class TrieDb implements DB<string, Uint8Array> {
  private pending = new Map<string, Uint8Array>();
  /** Preimages of the keys this db's tries were given since the last accepted block. */
  private preimages = new Map<string, Uint8Array>();
  /** Hashes whose preimages are already stored (bounded; a repeat only costs an ignored insert). */
  private readonly storedPreimages = new NodeCache(4 * 1024 * 1024);

  constructor(
    private readonly table: TrieNodeTable,
    /** Reads also fall back to this db's pending writes (a scratch copy over the live chain). */
    private readonly parent?: TrieDb,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.getNow(key);
  }

  /** The same read without a promise: the store is SQLite, read synchronously (see sync-read.ts). */
  getNow(key: string): Uint8Array | undefined {
    return this.pending.get(key) ?? this.parent?.peek(key) ?? this.table.get(key);
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

  /**
   * Notes that a state trie hashed `key` to `hash`. Only the live state's db keeps them (a
   * scratch copy's tries serve calls and replays, whose keys never reach an accepted state).
   */
  notePreimage(hash: Uint8Array, key: Uint8Array): void {
    if (this.parent) return;
    const hex = bytesToUnprefixedHex(hash);
    if (this.storedPreimages.get(hex) === undefined) this.preimages.set(hex, key);
  }

  /** The key behind a trie key's hash, if a state trie was ever given it. */
  preimage(hash: Uint8Array): Uint8Array | undefined {
    const hex = bytesToUnprefixedHex(hash);
    return this.preimages.get(hex) ?? this.parent?.preimages.get(hex) ?? this.table.preimage(hex);
  }

  /** A copy whose writes never reach SQLite. */
  scratch(): TrieDb {
    return new TrieDb(this.table, this);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Writes the pending nodes the state at `stateRoot` refers to (the others were replaced
   * within the block); call inside the block's accept transaction, then `committed()` once it
   * has committed (or `clear()` if it failed).
   */
  flushInto(stateRoot: Uint8Array): void {
    this.pending = reachableWrites(stateRoot, this.pending);
    this.table.putMany(this.pending);
    this.table.putPreimages(this.preimages);
  }

  /** The written nodes are durable: they stay readable from memory. */
  committed(): void {
    this.table.remember(this.pending);
    for (const [hex, key] of this.preimages) this.storedPreimages.set(hex, key);
    this.clear();
  }

  clear(): void {
    this.pending = new Map();
    this.preimages = new Map();
  }
}

/** Binds a single blob parameter positionally (libsql takes a lone object for named params). */
export function one(value: Buffer): any[] {
  return [[value]];
}
