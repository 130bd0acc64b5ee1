/**
 * Shared memory: the atomic UTXOs one primary-network chain exports to another. The exporting
 * chain writes them when its export is accepted; the importing chain consumes them when its
 * import is accepted. Both happen inside the accepting chain's database transaction, so an
 * export or import is all-or-nothing across the two chains.
 */
import type { NodeDatabase } from '../../storage/database.js';
import { pageUtxos, type AddressRows, type UtxoCursor, type UtxoPage } from './utxo-pager.js';

export interface AtomicUtxoEntry {
  /** The UTXO's input id: sha256(txID ‖ uint32 output index) in the reference's ordering. */
  readonly inputId: Uint8Array;
  /** The UTXO as the codec packs it (codec version prefix included). */
  readonly bytes: Uint8Array;
  /** Short (20-byte) addresses that can spend it; the UTXO is listed under each. */
  readonly addresses: readonly Uint8Array[];
}

export class SharedMemory {
  constructor(private readonly db: NodeDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS atomic_utxos (
      dest_chain TEXT NOT NULL, source_chain TEXT NOT NULL, input_id BLOB NOT NULL, bytes BLOB NOT NULL,
      PRIMARY KEY (dest_chain, source_chain, input_id)) WITHOUT ROWID`);
    db.exec(`CREATE TABLE IF NOT EXISTS atomic_utxo_addresses (
      dest_chain TEXT NOT NULL, source_chain TEXT NOT NULL, address BLOB NOT NULL, input_id BLOB NOT NULL,
      PRIMARY KEY (dest_chain, source_chain, address, input_id)) WITHOUT ROWID`);
  }

  /** Makes UTXOs available to `destChain`; call inside the exporting block's transaction. */
  put(sourceChain: string, destChain: string, entries: readonly AtomicUtxoEntry[]): void {
    const insert = this.db.prepare(
      'INSERT INTO atomic_utxos (dest_chain, source_chain, input_id, bytes) VALUES (?, ?, ?, ?)',
    );
    const index = this.db.prepare(
      'INSERT OR IGNORE INTO atomic_utxo_addresses (dest_chain, source_chain, address, input_id) VALUES (?, ?, ?, ?)',
    );
    for (const e of entries) {
      insert.run(destChain, sourceChain, Buffer.from(e.inputId), Buffer.from(e.bytes));
      for (const a of e.addresses) index.run(destChain, sourceChain, Buffer.from(a), Buffer.from(e.inputId));
    }
  }

  /** The UTXO bytes, or undefined when it was never exported or is already consumed. */
  get(sourceChain: string, destChain: string, inputId: Uint8Array): Uint8Array | undefined {
    const row = this.db
      .prepare('SELECT bytes FROM atomic_utxos WHERE dest_chain = ? AND source_chain = ? AND input_id = ?')
      .get(destChain, sourceChain, Buffer.from(inputId));
    return row ? new Uint8Array(row.bytes as Uint8Array) : undefined;
  }

  /**
   * Consumes UTXOs on import; call inside the importing block's transaction. Throws (and so
   * rolls the block back) if any is missing: it was never exported or was already imported.
   */
  remove(sourceChain: string, destChain: string, inputIds: readonly Uint8Array[]): void {
    const del = this.db.prepare(
      'DELETE FROM atomic_utxos WHERE dest_chain = ? AND source_chain = ? AND input_id = ?',
    );
    const delIndex = this.db.prepare(
      'DELETE FROM atomic_utxo_addresses WHERE dest_chain = ? AND source_chain = ? AND input_id = ?',
    );
    for (const id of inputIds) {
      const { changes } = del.run(destChain, sourceChain, Buffer.from(id));
      if (changes !== 1)
        throw new Error(`atomic UTXO ${Buffer.from(id).toString('hex')} is not in shared memory`);
      delIndex.run(destChain, sourceChain, Buffer.from(id));
    }
  }

  /**
   * Atomic UTXOs from `sourceChain` to `destChain` spendable by any of `addresses`, one page as
   * the reference's shared memory pages them (utxo-pager.ts).
   */
  list(
    sourceChain: string,
    destChain: string,
    addresses: readonly Uint8Array[],
    limit: number,
    after?: UtxoCursor,
  ): UtxoPage {
    const stmt = this.db.prepare(
      `SELECT a.input_id, u.bytes FROM atomic_utxo_addresses a
       JOIN atomic_utxos u ON u.dest_chain = a.dest_chain AND u.source_chain = a.source_chain AND u.input_id = a.input_id
       WHERE a.dest_chain = ? AND a.source_chain = ? AND a.address = ? AND a.input_id > ?
       ORDER BY a.input_id LIMIT ?`,
    );
    const rowsOf: AddressRows = (address, from, n) =>
      stmt.all(destChain, sourceChain, address, from, n).map((row) => ({
        inputId: new Uint8Array(row.input_id as Uint8Array),
        bytes: new Uint8Array(row.bytes as Uint8Array),
      }));
    return pageUtxos(addresses, limit, after, rowsOf, { endAt: 'listed' });
  }
}
