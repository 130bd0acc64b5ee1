/**
 * Store rows of plain unspent transfer outputs for tests that write the data store directly:
 * one owner set, threshold 1, no lock, not staked, nothing consumed yet. Each test names what
 * it varies (ids, chains, amounts, owners, heights, times) and takes the rest from here.
 */
import type { Insertable } from 'kysely';
import type { UtxoTable } from '../../src/data/store/schema.js';

type Varied = Pick<
  Insertable<UtxoTable>,
  | 'utxo_id'
  | 'tx_hash'
  | 'output_index'
  | 'created_on'
  | 'consumed_on'
  | 'asset_id'
  | 'amount'
  | 'addresses'
  | 'block_height'
  | 'block_ts'
  | 'seq'
>;

export function transferOutputRow(row: Varied): Insertable<UtxoTable> {
  return {
    ...row,
    threshold: 1,
    locktime: 0,
    stakeable_locktime: 0,
    staked: 0,
    utxo_type: 'TRANSFER',
    reward_type: null,
    start_ts: null,
    end_ts: null,
    group_id: null,
    payload: null,
    utxo_bytes: '0x00',
    consuming_tx: null,
    consuming_height: null,
    consuming_ts: null,
    credentials: null,
  };
}
