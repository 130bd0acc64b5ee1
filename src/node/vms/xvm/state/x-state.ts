/**
 * The X-chain's durable state: accepted blocks (by height and id), accepted txs, assets and the
 * UTXO set (the shared UtxoStore). Writes happen only inside the accepting block's transaction.
 */
import { fitsSqlInteger, type NodeDatabase } from '../../../storage/database.js';
import { UtxoStore } from '../../components/utxo-store.js';

export interface StoredBlock {
  readonly height: bigint;
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly time: bigint;
  readonly acceptedMs: number;
}

export interface StoredTx {
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly height: bigint;
}

export interface StoredAsset {
  readonly id: string;
  readonly name: string;
  readonly symbol: string;
  readonly denomination: number;
  readonly fxs: readonly number[];
}

export class XState {
  readonly utxos: UtxoStore;

  constructor(
    private readonly db: NodeDatabase,
    chainId: string,
  ) {
    this.utxos = new UtxoStore(db, chainId);
    db.exec(`CREATE TABLE IF NOT EXISTS xvm_blocks (
      height INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, bytes BLOB NOT NULL, time INTEGER NOT NULL,
      accepted_ms INTEGER NOT NULL)`);
    db.exec(`CREATE TABLE IF NOT EXISTS xvm_txs (
      id TEXT PRIMARY KEY, bytes BLOB NOT NULL, height INTEGER NOT NULL) WITHOUT ROWID`);
    db.exec(`CREATE TABLE IF NOT EXISTS xvm_assets (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, symbol TEXT NOT NULL, denomination INTEGER NOT NULL,
      fxs TEXT NOT NULL) WITHOUT ROWID`);
  }

  lastAccepted(): StoredBlock | undefined {
    const row = this.db
      .prepare('SELECT height, id, bytes, time, accepted_ms FROM xvm_blocks ORDER BY height DESC LIMIT 1')
      .get();
    return row ? toBlock(row) : undefined;
  }

  blockByHeight(height: bigint): StoredBlock | undefined {
    if (!fitsSqlInteger(height)) return undefined;
    const row = this.db
      .prepare('SELECT height, id, bytes, time, accepted_ms FROM xvm_blocks WHERE height = ?')
      .get(height);
    return row ? toBlock(row) : undefined;
  }

  blockById(id: string): StoredBlock | undefined {
    const row = this.db
      .prepare('SELECT height, id, bytes, time, accepted_ms FROM xvm_blocks WHERE id = ?')
      .get(id);
    return row ? toBlock(row) : undefined;
  }

  putBlock(block: StoredBlock): void {
    this.db
      .prepare('INSERT INTO xvm_blocks (height, id, bytes, time, accepted_ms) VALUES (?, ?, ?, ?, ?)')
      .run(block.height, block.id, Buffer.from(block.bytes), block.time, block.acceptedMs);
  }

  tx(id: string): StoredTx | undefined {
    const row = this.db.prepare('SELECT id, bytes, height FROM xvm_txs WHERE id = ?').get(id);
    return row
      ? { id: row.id as string, bytes: new Uint8Array(row.bytes as Uint8Array), height: BigInt(row.height) }
      : undefined;
  }

  hasTx(id: string): boolean {
    return this.db.prepare('SELECT 1 AS x FROM xvm_txs WHERE id = ?').get(id) !== undefined;
  }

  putTx(tx: StoredTx): void {
    this.db
      .prepare('INSERT INTO xvm_txs (id, bytes, height) VALUES (?, ?, ?)')
      .run(tx.id, Buffer.from(tx.bytes), tx.height);
  }

  asset(id: string): StoredAsset | undefined {
    const row = this.db
      .prepare('SELECT id, name, symbol, denomination, fxs FROM xvm_assets WHERE id = ?')
      .get(id);
    if (!row) return undefined;
    return {
      id: row.id as string,
      name: row.name as string,
      symbol: row.symbol as string,
      denomination: Number(row.denomination),
      fxs: String(row.fxs)
        .split(',')
        .filter((s) => s !== '')
        .map(Number),
    };
  }

  putAsset(asset: StoredAsset): void {
    this.db
      .prepare('INSERT INTO xvm_assets (id, name, symbol, denomination, fxs) VALUES (?, ?, ?, ?, ?)')
      .run(asset.id, asset.name, asset.symbol, asset.denomination, asset.fxs.join(','));
  }
}

function toBlock(row: Record<string, any>): StoredBlock {
  return {
    height: BigInt(row.height),
    id: row.id as string,
    bytes: new Uint8Array(row.bytes as Uint8Array),
    time: BigInt(row.time),
    acceptedMs: Number(row.accepted_ms),
  };
}
