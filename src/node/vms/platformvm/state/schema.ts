/**
 * The P-chain's tables in the node database. Amounts and weights are decimal TEXT (they are
 * uint64 and SQLite integers are signed); ids are raw bytes.
 */
import type { NodeDatabase } from '../../../storage/database.js';

export function createPlatformSchema(db: NodeDatabase): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS p_blocks (
      height INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, bytes BLOB NOT NULL,
      time INTEGER NOT NULL, kind TEXT NOT NULL, accepted_ms INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS p_txs (
      id BLOB PRIMARY KEY, bytes BLOB NOT NULL, height INTEGER NOT NULL, status TEXT NOT NULL,
      type TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS p_stakers (
      tx_id BLOB PRIMARY KEY, kind TEXT NOT NULL, subnet BLOB NOT NULL, node_id BLOB NOT NULL,
      weight TEXT NOT NULL, start_time INTEGER NOT NULL, end_time INTEGER NOT NULL,
      potential_reward TEXT NOT NULL, delegation_fee INTEGER NOT NULL, bls_pk BLOB,
      accrued_delegatee_reward TEXT NOT NULL, status TEXT NOT NULL,
      validator_tx BLOB, removed_height INTEGER) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS p_stakers_by_end ON p_stakers (status, end_time);
    CREATE INDEX IF NOT EXISTS p_stakers_by_node ON p_stakers (subnet, node_id, status);
    CREATE TABLE IF NOT EXISTS p_subnets (
      id BLOB PRIMARY KEY, owner BLOB NOT NULL, height INTEGER NOT NULL, conversion_id BLOB,
      manager_chain BLOB, manager_address BLOB) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS p_chains (
      id BLOB PRIMARY KEY, subnet BLOB NOT NULL, name TEXT NOT NULL, vm_id BLOB NOT NULL,
      genesis BLOB NOT NULL, fx_ids BLOB NOT NULL, height INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS p_l1_validators (
      validation_id BLOB PRIMARY KEY, subnet BLOB NOT NULL, node_id BLOB NOT NULL, pk BLOB NOT NULL,
      weight TEXT NOT NULL, start_time INTEGER NOT NULL, min_nonce TEXT NOT NULL,
      end_accumulated_fee TEXT NOT NULL, remaining_owner BLOB NOT NULL, deactivation_owner BLOB NOT NULL,
      height INTEGER NOT NULL, status TEXT NOT NULL) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS p_l1_by_subnet ON p_l1_validators (subnet, node_id);
    -- Active validators by the accrued fee their balance ends at, in numeric order: the decimal
    -- text's length first, then its digits (a CAST to INTEGER stops at 2^63 - 1; uint64 goes on).
    CREATE INDEX IF NOT EXISTS p_l1_by_fee_end
      ON p_l1_validators (status, length(end_accumulated_fee), end_accumulated_fee);
    CREATE TABLE IF NOT EXISTS p_reward_utxos (
      staker_tx BLOB NOT NULL, input_id BLOB NOT NULL, bytes BLOB NOT NULL,
      PRIMARY KEY (staker_tx, input_id)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS p_expiries (validation_id BLOB PRIMARY KEY, expiry INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS p_validator_weights (
      subnet BLOB NOT NULL, node_id BLOB NOT NULL, weight TEXT NOT NULL, pk BLOB,
      PRIMARY KEY (subnet, node_id)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS p_validator_diffs (
      height INTEGER NOT NULL, subnet BLOB NOT NULL, node_id BLOB NOT NULL, prev_weight TEXT NOT NULL,
      prev_pk BLOB, PRIMARY KEY (height, subnet, node_id)) WITHOUT ROWID;
  `);
}
