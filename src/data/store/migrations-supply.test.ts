import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, Migrator } from 'kysely';
import { amountKey } from './amounts.js';
import { MIGRATIONS } from './migrations.js';
import { openSqlite } from './sqlite.js';
import type { DataSchema } from './schema.js';
import { readTotals, TOTAL } from './supply-totals.js';

test('0018 starts the rewards and L1 fee totals from the rows a store already holds', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-migration-'));
  const sqlite = openSqlite(path.join(dir, 'data.db'));
  const db = new Kysely<DataSchema>({ dialect: sqlite.dialect });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    assert.equal((await migrator.migrateTo('0017_block_l1_validators')).error, undefined);
    const reward = (i: number, amount: bigint) => ({
      utxo_id: `u${i}`,
      staking_tx: `s${i}`,
      reward_tx: `r${i}`,
      node_id: 'NodeID-x',
      reward_type: 'VALIDATOR',
      asset_id: 'avax',
      amount: amountKey(amount),
      addresses: '[]',
      output_index: 0,
      amount_staked: amountKey(1n),
      start_ts: 0,
      end_ts: 1,
      seq: i,
    });
    await db
      .insertInto('rewards')
      .values([reward(1, 1_500_000_000n), reward(2, 7n)])
      .execute();
    const fee = (day: number, amount: string) => ({
      validation_id: 'v',
      day,
      subnet_id: 's',
      node_id: 'NodeID-x',
      fee: amount,
    });
    await db
      .insertInto('l1_validator_fees')
      .values([fee(0, '86400'), fee(86_400, '12345678901234567890')])
      .execute();
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const totals = await readTotals(db);
    assert.equal(totals.get(TOTAL.rewards), 1_500_000_007n);
    assert.equal(totals.get(TOTAL.l1ValidatorFees), 12345678901234654290n);
    assert.equal(totals.size, 2, 'no burned totals: they were not recorded before');
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
