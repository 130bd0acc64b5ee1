/**
 * The chain's accepted history in SQLite: blocks (header and full bytes), transactions with
 * their receipts, logs indexed for `eth_getLogs` (block range × address × topics) and the atomic
 * transactions blocks carried. Every row of a block is written by `putBlock` inside the block's
 * accept transaction.
 */
import type { NodeDatabase } from '../../../storage/database.js';
import { one } from './trie-db.js';

export interface StoredBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly header: Uint8Array;
  readonly bytes: Uint8Array;
  readonly txCount: number;
  readonly acceptedMs: number;
}

export interface StoredTx {
  readonly hash: Uint8Array;
  readonly blockNumber: bigint;
  readonly index: number;
  readonly raw: Uint8Array;
  readonly sender: Uint8Array;
  readonly status: number;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  readonly contractAddress: Uint8Array | null;
  readonly effectiveGasPrice: bigint;
  /** Index (within the block) of the tx's first log. */
  readonly firstLogIndex: number;
}

export interface StoredLog {
  readonly blockNumber: bigint;
  readonly logIndex: number;
  readonly txIndex: number;
  readonly txHash: Uint8Array;
  readonly address: Uint8Array;
  readonly topics: Uint8Array[];
  readonly data: Uint8Array;
}

/** A log as eth_getLogs answers it: the byte fields as `0x` lowercase hex. */
export interface LogHexRow {
  readonly blockNumber: bigint;
  readonly logIndex: number;
  readonly txIndex: number;
  readonly txHash: string;
  readonly address: string;
  readonly topics: string[];
  readonly data: string;
}

export interface StoredAtomicTx {
  readonly id: Uint8Array;
  readonly blockNumber: bigint;
  readonly bytes: Uint8Array;
}

export interface LogQuery {
  fromBlock: bigint;
  toBlock: bigint;
  addresses: Uint8Array[];
  /** Per position: undefined/empty = any, else one of these values. */
  topics: (Uint8Array[] | null)[];
  limit: number;
}

const buf = (x: Uint8Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
const bytes = (x: unknown) => new Uint8Array(x as Uint8Array);

export class ChainStore {
  private readonly t: { blocks: string; txs: string; logs: string; atomic: string };

  constructor(
    private readonly db: NodeDatabase,
    prefix: string,
  ) {
    this.t = {
      blocks: `${prefix}_blocks`,
      txs: `${prefix}_txs`,
      logs: `${prefix}_logs`,
      atomic: `${prefix}_atomic_txs`,
    };
    const { blocks, txs, logs, atomic } = this.t;
    db.exec(`CREATE TABLE IF NOT EXISTS ${blocks} (number INTEGER PRIMARY KEY, hash BLOB NOT NULL, header BLOB NOT NULL,
      bytes BLOB NOT NULL, tx_count INTEGER NOT NULL, accepted_ms INTEGER NOT NULL)`);
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${blocks}_hash ON ${blocks} (hash)`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${txs} (hash BLOB PRIMARY KEY, block_number INTEGER NOT NULL, idx INTEGER NOT NULL,
      raw BLOB NOT NULL, sender BLOB NOT NULL, status INTEGER NOT NULL, gas_used INTEGER NOT NULL, cumulative_gas INTEGER NOT NULL,
      contract BLOB, effective_gas_price TEXT NOT NULL, first_log INTEGER NOT NULL) WITHOUT ROWID`);
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${txs}_position ON ${txs} (block_number, idx)`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${logs} (block_number INTEGER NOT NULL, log_index INTEGER NOT NULL, tx_index INTEGER NOT NULL,
      tx_hash BLOB NOT NULL, address BLOB NOT NULL, topic0 BLOB, topic1 BLOB, topic2 BLOB, topic3 BLOB, data BLOB NOT NULL,
      PRIMARY KEY (block_number, log_index)) WITHOUT ROWID`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${logs}_address ON ${logs} (address, block_number)`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${logs}_topic0 ON ${logs} (topic0, block_number)`);
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${atomic} (id BLOB PRIMARY KEY, block_number INTEGER NOT NULL, bytes BLOB NOT NULL) WITHOUT ROWID`,
    );
  }

  putBlock(
    block: StoredBlock,
    txs: readonly StoredTx[],
    logs: readonly StoredLog[],
    atomicTxs: readonly StoredAtomicTx[],
  ): void {
    this.db
      .prepare(
        `INSERT INTO ${this.t.blocks} (number, hash, header, bytes, tx_count, accepted_ms) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        block.number,
        buf(block.hash),
        buf(block.header),
        buf(block.bytes),
        block.txCount,
        block.acceptedMs,
      );
    const txStmt = this.db.prepare(
      `INSERT INTO ${this.t.txs} (hash, block_number, idx, raw, sender, status, gas_used, cumulative_gas, contract, effective_gas_price, first_log)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const tx of txs) {
      txStmt.run(
        buf(tx.hash),
        tx.blockNumber,
        tx.index,
        buf(tx.raw),
        buf(tx.sender),
        tx.status,
        tx.gasUsed,
        tx.cumulativeGasUsed,
        tx.contractAddress ? buf(tx.contractAddress) : null,
        tx.effectiveGasPrice.toString(),
        tx.firstLogIndex,
      );
    }
    const logStmt = this.db.prepare(
      `INSERT INTO ${this.t.logs} (block_number, log_index, tx_index, tx_hash, address, topic0, topic1, topic2, topic3, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const l of logs) {
      const topic = (i: number) => (l.topics[i] ? buf(l.topics[i]) : null);
      logStmt.run(
        l.blockNumber,
        l.logIndex,
        l.txIndex,
        buf(l.txHash),
        buf(l.address),
        topic(0),
        topic(1),
        topic(2),
        topic(3),
        buf(l.data),
      );
    }
    const atomicStmt = this.db.prepare(
      `INSERT INTO ${this.t.atomic} (id, block_number, bytes) VALUES (?, ?, ?)`,
    );
    for (const a of atomicTxs) atomicStmt.run(buf(a.id), a.blockNumber, buf(a.bytes));
  }

  private toBlock(row: Record<string, any> | undefined): StoredBlock | undefined {
    if (!row) return undefined;
    return {
      number: BigInt(row.number),
      hash: bytes(row.hash),
      header: bytes(row.header),
      bytes: bytes(row.bytes),
      txCount: Number(row.tx_count),
      acceptedMs: Number(row.accepted_ms),
    };
  }

  lastBlock(): StoredBlock | undefined {
    return this.toBlock(this.db.prepare(`SELECT * FROM ${this.t.blocks} ORDER BY number DESC LIMIT 1`).get());
  }

  blockByNumber(n: bigint): StoredBlock | undefined {
    return this.toBlock(this.db.prepare(`SELECT * FROM ${this.t.blocks} WHERE number = ?`).get(n));
  }

  blockByHash(hash: Uint8Array): StoredBlock | undefined {
    return this.toBlock(
      this.db.prepare(`SELECT * FROM ${this.t.blocks} WHERE hash = ?`).get(...one(buf(hash))),
    );
  }

  headerByNumber(n: bigint): { hash: Uint8Array; header: Uint8Array } | undefined {
    const row = this.db.prepare(`SELECT hash, header FROM ${this.t.blocks} WHERE number = ?`).get(n);
    return row ? { hash: bytes(row.hash), header: bytes(row.header) } : undefined;
  }

  numberOfHash(hash: Uint8Array): bigint | undefined {
    const row = this.db.prepare(`SELECT number FROM ${this.t.blocks} WHERE hash = ?`).get(...one(buf(hash)));
    return row ? BigInt(row.number) : undefined;
  }

  private toTx(row: Record<string, any> | undefined): StoredTx | undefined {
    if (!row) return undefined;
    return {
      hash: bytes(row.hash),
      blockNumber: BigInt(row.block_number),
      index: Number(row.idx),
      raw: bytes(row.raw),
      sender: bytes(row.sender),
      status: Number(row.status),
      gasUsed: BigInt(row.gas_used),
      cumulativeGasUsed: BigInt(row.cumulative_gas),
      contractAddress: row.contract ? bytes(row.contract) : null,
      effectiveGasPrice: BigInt(row.effective_gas_price),
      firstLogIndex: Number(row.first_log),
    };
  }

  txByHash(hash: Uint8Array): StoredTx | undefined {
    return this.toTx(this.db.prepare(`SELECT * FROM ${this.t.txs} WHERE hash = ?`).get(...one(buf(hash))));
  }

  txByPosition(blockNumber: bigint, index: number): StoredTx | undefined {
    return this.toTx(
      this.db
        .prepare(`SELECT * FROM ${this.t.txs} WHERE block_number = ? AND idx = ?`)
        .get(blockNumber, index),
    );
  }

  txsOfBlock(blockNumber: bigint): StoredTx[] {
    return this.db
      .prepare(`SELECT * FROM ${this.t.txs} WHERE block_number = ? ORDER BY idx`)
      .all(blockNumber)
      .map((r) => this.toTx(r)!);
  }

  private toLog(row: Record<string, any>): StoredLog {
    const topics: Uint8Array[] = [];
    for (const k of ['topic0', 'topic1', 'topic2', 'topic3']) if (row[k]) topics.push(bytes(row[k]));
    return {
      blockNumber: BigInt(row.block_number),
      logIndex: Number(row.log_index),
      txIndex: Number(row.tx_index),
      txHash: bytes(row.tx_hash),
      address: bytes(row.address),
      topics,
      data: bytes(row.data),
    };
  }

  logsOfBlock(blockNumber: bigint): StoredLog[] {
    return this.db
      .prepare(`SELECT * FROM ${this.t.logs} WHERE block_number = ? ORDER BY log_index`)
      .all(blockNumber)
      .map((r) => this.toLog(r));
  }

  logsOfTx(blockNumber: bigint, txIndex: number): StoredLog[] {
    return this.db
      .prepare(`SELECT * FROM ${this.t.logs} WHERE block_number = ? AND tx_index = ? ORDER BY log_index`)
      .all(blockNumber, txIndex)
      .map((r) => this.toLog(r));
  }

  /** Logs matching a filter, in chain order; at most `limit` (+1 to let callers detect overflow). */
  queryLogs(q: LogQuery): StoredLog[] {
    const { sql, args } = this.logFilterSql(q);
    return this.db
      .prepare(sql)
      .all(...args)
      .map((r) => this.toLog(r));
  }

  /**
   * The same logs with their bytes already hex, read as one packed value: SQLite encodes the hex
   * and libsql hands over one string instead of ten values per row, which for eth_getLogs over
   * a thousand logs costs about half of reading rows and encoding them here.
   */
  queryLogsHex(q: LogQuery): LogHexRow[] {
    const { sql, args } = this.logFilterSql(q);
    const hex = (c: string) => `'0x' || lower(hex(${c}))`;
    const fields = [
      'block_number',
      'log_index',
      'tx_index',
      hex('tx_hash'),
      hex('address'),
      // An absent topic (NULL) packs as an empty field (hex(NULL) is '', not NULL).
      ...['topic0', 'topic1', 'topic2', 'topic3'].map(
        (t) => `CASE WHEN ${t} IS NULL THEN '' ELSE ${hex(t)} END`,
      ),
      hex('data'),
    ].join(" || ',' || ");
    const row = this.db.prepare(`SELECT group_concat(${fields}, ';') AS packed FROM (${sql})`).get(...args);
    const packed = row?.packed as string | null | undefined;
    if (!packed) return [];
    const logs = packed.split(';').map((line): LogHexRow => {
      const [block, logIndex, txIndex, txHash, address, t0, t1, t2, t3, data] = line.split(',');
      // Topics are 32 bytes each: an empty field is an absent topic.
      const topics = [t0, t1, t2, t3].filter((t) => t !== '');
      return {
        blockNumber: BigInt(block),
        logIndex: Number(logIndex),
        txIndex: Number(txIndex),
        txHash,
        address,
        topics,
        data,
      };
    });
    // group_concat does not promise the inner query's order: restore chain order.
    return logs.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
  }

  private logFilterSql(q: LogQuery): { sql: string; args: (bigint | Buffer)[] } {
    const where = ['block_number >= ?', 'block_number <= ?'];
    const args: (bigint | Buffer)[] = [q.fromBlock, q.toBlock];
    if (q.addresses.length > 0) {
      where.push(`address IN (${q.addresses.map(() => '?').join(',')})`);
      for (const a of q.addresses) args.push(buf(a));
    }
    q.topics.slice(0, 4).forEach((alternatives, i) => {
      if (!alternatives || alternatives.length === 0) return;
      where.push(`topic${i} IN (${alternatives.map(() => '?').join(',')})`);
      for (const t of alternatives) args.push(buf(t));
    });
    // As coreth's filterLogs: a log needs at least as many topics as the filter lists, wildcards
    // included (topics are stored from topic0 on, so the last listed one must be present).
    if (q.topics.length > 4) where.push('0');
    else if (q.topics.length > 0) where.push(`topic${q.topics.length - 1} IS NOT NULL`);
    const sql = `SELECT * FROM ${this.t.logs} WHERE ${where.join(' AND ')} ORDER BY block_number, log_index LIMIT ${q.limit + 1}`;
    return { sql, args };
  }

  atomicTx(id: Uint8Array): StoredAtomicTx | undefined {
    const row = this.db.prepare(`SELECT * FROM ${this.t.atomic} WHERE id = ?`).get(...one(buf(id)));
    return row
      ? { id: bytes(row.id), blockNumber: BigInt(row.block_number), bytes: bytes(row.bytes) }
      : undefined;
  }
}
