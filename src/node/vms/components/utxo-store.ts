/**
 * A chain's persistent UTXO set with an address index, paged the way the reference node pages
 * `getUTXOs` (utxo-pager.ts). Writes belong inside the accepting block's transaction.
 */
import type { NodeDatabase } from '../../storage/database.js';
import { pageUtxos, type AddressRows, type UtxoCursor, type UtxoPage } from './utxo-pager.js';

export interface StoredUtxo {
  /** sha256(uint64BE(outputIndex) ‖ txID) — see utxo-id.ts. */
  readonly inputId: Uint8Array;
  /** The UTXO as the chain's codec packs it (codec version prefix included). */
  readonly bytes: Uint8Array;
  /** Short addresses that can spend it (listed under each). */
  readonly addresses: readonly Uint8Array[];
}

export class UtxoStore {
  /** @param chain the chain's cb58 id (one table serves every chain) */
  constructor(
    private readonly db: NodeDatabase,
    private readonly chain: string,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS utxos (
      chain TEXT NOT NULL, input_id BLOB NOT NULL, bytes BLOB NOT NULL,
      PRIMARY KEY (chain, input_id)) WITHOUT ROWID`);
    db.exec(`CREATE TABLE IF NOT EXISTS utxo_addresses (
      chain TEXT NOT NULL, address BLOB NOT NULL, input_id BLOB NOT NULL,
      PRIMARY KEY (chain, address, input_id)) WITHOUT ROWID`);
    // Spending deletes address rows by input id; without this index each delete scans the chain.
    db.exec(`CREATE INDEX IF NOT EXISTS utxo_addresses_by_input ON utxo_addresses (chain, input_id)`);
  }

  get(inputId: Uint8Array): Uint8Array | undefined {
    const row = this.db
      .prepare('SELECT bytes FROM utxos WHERE chain = ? AND input_id = ?')
      .get(this.chain, Buffer.from(inputId));
    return row ? new Uint8Array(row.bytes as Uint8Array) : undefined;
  }

  put(utxos: readonly StoredUtxo[]): void {
    const insert = this.db.prepare('INSERT INTO utxos (chain, input_id, bytes) VALUES (?, ?, ?)');
    const index = this.db.prepare(
      'INSERT OR IGNORE INTO utxo_addresses (chain, address, input_id) VALUES (?, ?, ?)',
    );
    for (const u of utxos) {
      insert.run(this.chain, Buffer.from(u.inputId), Buffer.from(u.bytes));
      for (const a of u.addresses) index.run(this.chain, Buffer.from(a), Buffer.from(u.inputId));
    }
  }

  /** Removes spent UTXOs; throws if one is missing (so the block's transaction rolls back). */
  remove(inputIds: readonly Uint8Array[]): void {
    const del = this.db.prepare('DELETE FROM utxos WHERE chain = ? AND input_id = ?');
    const delIndex = this.db.prepare('DELETE FROM utxo_addresses WHERE chain = ? AND input_id = ?');
    for (const id of inputIds) {
      if (del.run(this.chain, Buffer.from(id)).changes !== 1) {
        throw new Error(`UTXO ${Buffer.from(id).toString('hex')} is not in the UTXO set`);
      }
      delIndex.run(this.chain, Buffer.from(id));
    }
  }

  /** UTXOs spendable by any of `addresses`, one page as the reference pages them (utxo-pager.ts). */
  list(addresses: readonly Uint8Array[], limit: number, after?: UtxoCursor): UtxoPage {
    const stmt = this.db.prepare(
      `SELECT a.input_id, u.bytes FROM utxo_addresses a JOIN utxos u ON u.chain = a.chain AND u.input_id = a.input_id
       WHERE a.chain = ? AND a.address = ? AND a.input_id > ? ORDER BY a.input_id LIMIT ?`,
    );
    const rowsOf: AddressRows = (address, from, n) =>
      stmt.all(this.chain, address, from, n).map((row) => ({
        inputId: new Uint8Array(row.input_id as Uint8Array),
        bytes: new Uint8Array(row.bytes as Uint8Array),
      }));
    return pageUtxos(addresses, limit, after, rowsOf, { endAt: 'searched' });
  }

  /** Every UTXO spendable by `address` (balances); unbounded, for the deprecated balance calls. */
  allFor(address: Uint8Array): Uint8Array[] {
    return this.db
      .prepare(
        `SELECT u.bytes FROM utxo_addresses a JOIN utxos u ON u.chain = a.chain AND u.input_id = a.input_id
         WHERE a.chain = ? AND a.address = ? ORDER BY a.input_id`,
      )
      .all(this.chain, Buffer.from(address))
      .map((r) => new Uint8Array(r.bytes as Uint8Array));
  }
}
