/**
 * The index of accepted containers (blocks or transactions) of one chain, in acceptance order.
 * Chains append to it inside the same database transaction that accepts the container, so the
 * index can never miss or duplicate an accepted container, even across `kill -9`.
 */
import { fromCb58, toCb58 } from '../../shared/encoding.js';
import { fitsSqlInteger, type NodeDatabase } from '../storage/database.js';
import { buildProposerBlock, type ProposerWrap } from './proposer-block.js';

export interface Container {
  readonly id: string;
  readonly bytes: Uint8Array;
  /** Unix milliseconds at which this node accepted the container. */
  readonly timestampMs: number;
  readonly index: bigint;
}

export class ContainerIndex {
  private count: bigint;

  /** @param name e.g. `X/tx`, `X/block`, `P/block`, `C/block`, `X/vtx` */
  constructor(
    private readonly db: NodeDatabase,
    readonly name: string,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS index_containers (
      idx_name TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, bytes BLOB NOT NULL, accepted_ms INTEGER NOT NULL,
      PRIMARY KEY (idx_name, position)) WITHOUT ROWID`);
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS index_containers_by_id ON index_containers (idx_name, id)`);
    const row = db.prepare('SELECT COUNT(*) AS n FROM index_containers WHERE idx_name = ?').get(name);
    this.count = BigInt(row?.n ?? 0);
  }

  /** Number of containers accepted so far. */
  get size(): bigint {
    return this.count;
  }

  /** Appends; call inside the transaction that accepts the container. */
  append(id: string, bytes: Uint8Array, timestampMs: number): void {
    this.db
      .prepare(
        'INSERT INTO index_containers (idx_name, position, id, bytes, accepted_ms) VALUES (?, ?, ?, ?, ?)',
      )
      .run(this.name, this.count, id, Buffer.from(bytes), timestampMs);
    this.count++;
  }

  /**
   * Appends a block, wrapped in a proposervm block as `wrap` says (unwrapped without it): the
   * wrapper's parent is the previous container of this index (`innerParentId` when there is none)
   * and the container id is the wrapper's id. Answers the container id.
   */
  appendBlock(
    innerId: string,
    innerParentId: string,
    bytes: Uint8Array,
    timestampMs: number,
    wrap: ProposerWrap | undefined,
  ): string {
    if (!wrap) {
      this.append(innerId, bytes, timestampMs);
      return innerId;
    }
    const previous = this.count > 0n ? this.byIndex(this.count - 1n)?.id : undefined;
    const block = buildProposerBlock(fromCb58(previous ?? innerParentId), bytes, wrap);
    const id = toCb58(block.id);
    this.append(id, block.bytes, timestampMs);
    return id;
  }

  /** Re-reads the count after a rolled-back transaction. */
  reload(): void {
    const row = this.db
      .prepare('SELECT COUNT(*) AS n FROM index_containers WHERE idx_name = ?')
      .get(this.name);
    this.count = BigInt(row?.n ?? 0);
  }

  byIndex(index: bigint): Container | undefined {
    if (!fitsSqlInteger(index)) return undefined;
    const row = this.db
      .prepare(
        'SELECT position, id, bytes, accepted_ms FROM index_containers WHERE idx_name = ? AND position = ?',
      )
      .get(this.name, index);
    return row ? toContainer(row) : undefined;
  }

  byId(id: string): Container | undefined {
    const row = this.db
      .prepare('SELECT position, id, bytes, accepted_ms FROM index_containers WHERE idx_name = ? AND id = ?')
      .get(this.name, id);
    return row ? toContainer(row) : undefined;
  }

  range(start: bigint, count: number): Container[] {
    return this.db
      .prepare(
        'SELECT position, id, bytes, accepted_ms FROM index_containers WHERE idx_name = ? AND position >= ? ORDER BY position LIMIT ?',
      )
      .all(this.name, start, count)
      .map(toContainer);
  }
}

function toContainer(row: Record<string, any>): Container {
  return {
    id: row.id as string,
    bytes: new Uint8Array(row.bytes as Uint8Array),
    timestampMs: Number(row.accepted_ms),
    index: BigInt(row.position),
  };
}
