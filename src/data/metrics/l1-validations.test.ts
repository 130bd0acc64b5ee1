import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../store/database.js';
import { readL1ValidationSpans } from './l1-validations.js';

test("an L1 validation's weight spans: a change starts one, weight 0 ends it, a top-up or disable does not", async () => {
  const database = await createDatabase({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-l1spans-')),
  });
  try {
    const { db } = database;
    // P-chain txs as the indexer writes them; two in one block (same time, seq in block order).
    const txs: [hash: string, height: number, position: number, ts: number][] = [
      ['convert', 5, 0, 1_000],
      ['topup', 6, 0, 2_000],
      ['weight', 7, 0, 3_000],
      ['disable', 7, 1, 3_000],
      ['remove', 8, 0, 4_000],
      ['other', 8, 1, 4_000],
    ];
    await db
      .insertInto('transactions')
      .values(
        txs.map(([tx_hash, height, position, timestamp]) => ({
          tx_hash,
          chain_id: 'P',
          seq: height * 1_000_000 + position,
          block_height: height,
          block_id: `b${height}`,
          timestamp,
          tx_type: 'x',
          memo: '',
          source_chain: null,
          destination_chain: null,
        })),
      )
      .execute();
    const detail = (
      tx_hash: string,
      position: number,
      validation_id: string,
      weight: number,
      subnet_id = 'L1',
    ) => ({
      tx_hash,
      position,
      validation_id,
      node_id: 'n',
      subnet_id,
      weight: String(weight),
      remaining_balance: '0',
      balance_change: '0',
      bls_public_key: null,
    });
    await db
      .insertInto('l1_validator_tx_details')
      .values([
        // Inserted out of order: the read orders by the P-chain's.
        detail('remove', 0, 'a', 0),
        detail('convert', 0, 'a', 10),
        detail('convert', 1, 'b', 7),
        detail('topup', 0, 'a', 10),
        detail('weight', 0, 'b', 20),
        detail('disable', 0, 'b', 20),
        detail('other', 0, 'c', 3, 'another L1'),
      ])
      .execute();
    assert.deepEqual(await readL1ValidationSpans(db, 'L1'), [
      { weight: 10n, start: 1_000, end: 4_000 },
      { weight: 7n, start: 1_000, end: 3_000 },
      { weight: 20n, start: 3_000, end: Infinity },
    ]);
    assert.deepEqual(await readL1ValidationSpans(db, 'unknown'), []);
  } finally {
    await database.close();
  }
});
