/**
 * Validator weights per (subnet, node) now, and a per-height history of changes so the set at
 * any past height is the current set with later changes undone — a diff per changed validator
 * per block, never a full copy of the set.
 *
 * An L1 validator that is inactive (its balance ran out, or it was disabled) keeps its weight in
 * the set, as the reference's does: not under its own node, which no longer signs, but under the
 * empty node id without a key (`effectiveNodeID`), so Warp quorums still count it in the total.
 */
import type { NodeDatabase } from '../../../storage/database.js';
import { one } from './sql.js';

export interface ValidatorWeight {
  readonly nodeId: Uint8Array;
  readonly weight: bigint;
  /** 48-byte compressed BLS key, when the validator registered one. */
  readonly publicKey: Uint8Array | undefined;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The reference's `ids.EmptyNodeID`, which holds the weight of an L1's inactive validators. */
export const EMPTY_NODE_ID = new Uint8Array(20);

/** An L1 validator's place in its L1's set. */
export interface L1Weight {
  readonly nodeId: Uint8Array;
  readonly weight: bigint;
  readonly publicKey: Uint8Array;
  readonly active: boolean;
}

export class ValidatorSets {
  constructor(private readonly db: NodeDatabase) {}

  weightOf(subnet: Uint8Array, nodeId: Uint8Array): ValidatorWeight | undefined {
    const row = this.db
      .prepare('SELECT weight, pk FROM p_validator_weights WHERE subnet = ? AND node_id = ?')
      .get(Buffer.from(subnet), Buffer.from(nodeId));
    if (!row) return undefined;
    return { nodeId, weight: BigInt(row.weight), publicKey: row.pk ? new Uint8Array(row.pk) : undefined };
  }

  /**
   * Changes a validator's weight by `delta` in the block at `height`; `publicKey` (when given)
   * replaces its key. Call inside the accepting transaction.
   */
  change(
    height: bigint,
    subnet: Uint8Array,
    nodeId: Uint8Array,
    delta: bigint,
    publicKey?: Uint8Array,
  ): void {
    const s = Buffer.from(subnet);
    const n = Buffer.from(nodeId);
    const before = this.weightOf(subnet, nodeId);
    const prevWeight = before?.weight ?? 0n;
    this.db
      .prepare(
        'INSERT OR IGNORE INTO p_validator_diffs (height, subnet, node_id, prev_weight, prev_pk) VALUES (?, ?, ?, ?, ?)',
      )
      .run(height, s, n, prevWeight.toString(), before?.publicKey ? Buffer.from(before.publicKey) : null);
    const next = prevWeight + delta;
    if (next < 0n) throw new Error(`validator weight of ${hex(nodeId)} would become negative`);
    if (next === 0n) {
      this.db.prepare('DELETE FROM p_validator_weights WHERE subnet = ? AND node_id = ?').run(s, n);
      return;
    }
    const pk = publicKey ?? before?.publicKey;
    this.db
      .prepare(
        `INSERT INTO p_validator_weights (subnet, node_id, weight, pk) VALUES (?, ?, ?, ?)
         ON CONFLICT(subnet, node_id) DO UPDATE SET weight = excluded.weight, pk = excluded.pk`,
      )
      .run(s, n, next.toString(), pk ? Buffer.from(pk) : null);
  }

  /**
   * Replaces an L1 validator's weight `before` (undefined when it is new) with `after` (undefined
   * when it leaves), each under its effective node: its own with its key while active, the empty
   * node id without a key while inactive.
   */
  moveL1(
    height: bigint,
    subnet: Uint8Array,
    before: L1Weight | undefined,
    after: L1Weight | undefined,
  ): void {
    if (before && before.weight > 0n)
      this.change(height, subnet, before.active ? before.nodeId : EMPTY_NODE_ID, -before.weight);
    if (after && after.weight > 0n) {
      if (after.active) this.change(height, subnet, after.nodeId, after.weight, after.publicKey);
      else this.change(height, subnet, EMPTY_NODE_ID, after.weight);
    }
  }

  /** The set of `subnet` after the block at `height` (the latest when `height` is undefined). */
  at(subnet: Uint8Array, height?: bigint): ValidatorWeight[] {
    const set = new Map<string, ValidatorWeight>();
    for (const row of this.db
      .prepare('SELECT node_id, weight, pk FROM p_validator_weights WHERE subnet = ?')
      .all(one(subnet))) {
      const nodeId = new Uint8Array(row.node_id);
      set.set(hex(nodeId), {
        nodeId,
        weight: BigInt(row.weight),
        publicKey: row.pk ? new Uint8Array(row.pk) : undefined,
      });
    }
    if (height !== undefined) {
      const diffs = this.db
        .prepare(
          'SELECT node_id, prev_weight, prev_pk FROM p_validator_diffs WHERE subnet = ? AND height > ? ORDER BY height DESC',
        )
        .all(Buffer.from(subnet), height);
      for (const d of diffs) undo(set, d);
    }
    return [...set.values()].sort((a, b) => Buffer.compare(Buffer.from(a.nodeId), Buffer.from(b.nodeId)));
  }

  /** Every subnet's set after the block at `height`. */
  allAt(height?: bigint): Map<string, ValidatorWeight[]> {
    const subnets = new Set<string>();
    for (const row of this.db.prepare('SELECT DISTINCT subnet FROM p_validator_weights').all())
      subnets.add(hex(row.subnet));
    if (height !== undefined) {
      for (const row of this.db
        .prepare('SELECT DISTINCT subnet FROM p_validator_diffs WHERE height > ?')
        .all(height))
        subnets.add(hex(row.subnet));
    }
    const out = new Map<string, ValidatorWeight[]>();
    for (const s of subnets) {
      const set = this.at(Buffer.from(s, 'hex'), height);
      if (set.length > 0) out.set(s, set);
    }
    return out;
  }
}

function undo(set: Map<string, ValidatorWeight>, d: Record<string, any>): void {
  const nodeId = new Uint8Array(d.node_id);
  const key = hex(nodeId);
  const weight = BigInt(d.prev_weight);
  if (weight === 0n) set.delete(key);
  else set.set(key, { nodeId, weight, publicKey: d.prev_pk ? new Uint8Array(d.prev_pk) : undefined });
}
