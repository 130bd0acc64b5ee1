import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, Migrator } from 'kysely';
import { MIGRATIONS } from './migrations.js';
import { openSqlite } from './sqlite.js';
import type { DataSchema } from './schema.js';

const HOUR = 3600;
const DAY = 86_400;

test('0004 fills the cumulative columns of buckets indexed before it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-migration-'));
  const sqlite = openSqlite(path.join(dir, 'data.db'));
  const db = new Kysely<DataSchema>({ dialect: sqlite.dialect });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    assert.equal((await migrator.migrateTo('0003_utxo_documents')).error, undefined);

    // A store as the indexer left it: day 0 hours 1 and 5, day 2 hour 0. Addresses a, b on day 0;
    // b, c and deployer d on day 2 (b is not new there).
    const chain = 43112;
    const hours = [
      { start: HOUR, txs: 2, contracts: 0, a: ['a', 'b'], d: [] },
      { start: 5 * HOUR, txs: 1, contracts: 0, a: ['a'], d: [] },
      { start: 2 * DAY, txs: 4, contracts: 2, a: ['b', 'c'], d: ['d'] },
    ];
    const days = [
      { start: 0, txs: 3, contracts: 0 },
      { start: 2 * DAY, txs: 4, contracts: 2 },
    ];
    const bucket = (span: string, start: number, txs: number, contracts: number) => ({
      chain,
      span,
      bucket_start: start,
      tx_count: txs,
      gas_used: 0,
      fees_paid: '0',
      gas_price_sum: '0',
      max_gas_price: '0',
      max_tps: 0,
      max_gps: 0,
      active_addresses: 0,
      active_senders: 0,
      contracts,
      deployers: 0,
    });
    for (const h of hours) {
      await (db as Kysely<any>)
        .insertInto('evm_metric_buckets')
        .values(bucket('hour', h.start, h.txs, h.contracts))
        .execute();
      for (const [kind, members] of [
        ['a', h.a],
        ['d', h.d],
      ] as const)
        for (const address of members)
          await db
            .insertInto('evm_metric_members')
            .values({ chain, span: 'hour', bucket_start: h.start, kind, address })
            .execute();
    }
    for (const d of days)
      await (db as Kysely<any>)
        .insertInto('evm_metric_buckets')
        .values(bucket('day', d.start, d.txs, d.contracts))
        .execute();

    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const rows = await db
      .selectFrom('evm_metric_buckets')
      .select([
        'span',
        'bucket_start',
        'cumulative_tx_count',
        'cumulative_contracts',
        'cumulative_addresses',
        'cumulative_deployers',
      ])
      .orderBy('span')
      .orderBy('bucket_start')
      .execute();
    assert.deepEqual(
      rows.map((r) => [
        r.span,
        Number(r.bucket_start),
        Number(r.cumulative_tx_count),
        Number(r.cumulative_contracts),
        Number(r.cumulative_addresses),
        Number(r.cumulative_deployers),
      ]),
      [
        ['day', 0, 3, 0, 2, 0],
        ['day', 2 * DAY, 7, 2, 3, 1],
        ['hour', HOUR, 2, 0, 2, 0],
        ['hour', 5 * HOUR, 3, 0, 2, 0],
        ['hour', 2 * DAY, 7, 2, 3, 1],
      ],
    );
    // The all-time sets the indexer goes on from.
    const all = await db
      .selectFrom('evm_metric_members')
      .select(['kind', 'address'])
      .where('span', '=', 'all')
      .orderBy('kind')
      .orderBy('address')
      .execute();
    assert.deepEqual(
      all.map((m) => `${m.kind}:${m.address}`),
      ['a:a', 'a:b', 'a:c', 'd:d'],
    );
  } finally {
    sqlite.reader?.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('0006 fills the fees and running transaction counts of blocks indexed before it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-migration-'));
  const sqlite = openSqlite(path.join(dir, 'data.db'));
  const db = new Kysely<any>({ dialect: sqlite.dialect });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    assert.equal((await migrator.migrateTo('0005_rate_limit_usage')).error, undefined);
    // Two chains; chain 1's block 2 has two transactions, one of them listed for two parties.
    const block = (chain: number, number: number, txs: number) => ({
      chain,
      number,
      hash: `0x${chain}${number}`,
      parent_hash: '0x',
      timestamp: number,
      tx_count: txs,
      gas_used: 0,
    });
    await db
      .insertInto('evm_blocks')
      .values([block(1, 0, 0), block(1, 1, 1), block(1, 2, 2), block(2, 5, 3)])
      .execute();
    const tx = (address: string, number: number, index: number, gasUsed: string, gasPrice: string) => ({
      chain: 1,
      address,
      block_number: number,
      tx_index: index,
      tx_hash: `0x${number}${index}`,
      block_hash: '0x',
      block_ts: number,
      from_addr: 'a',
      to_addr: 'b',
      value: '0',
      gas_limit: '0',
      gas_used: gasUsed,
      gas_price: gasPrice,
      nonce: '0',
      tx_type: 2,
      status: 1,
      method_hash: '0x',
      call_type: 'NATIVE_TRANSFER',
    });
    await db
      .insertInto('evm_native_txs')
      .values([
        tx('a', 1, 0, '21000', '25000000000'),
        tx('a', 2, 0, '21000', '100000000000000000000'),
        tx('b', 2, 0, '21000', '100000000000000000000'),
        tx('a', 2, 1, '50000', '1'),
      ])
      .execute();

    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const rows = await db
      .selectFrom('evm_blocks')
      .select(['chain', 'number', 'fees_spent', 'cumulative_txs', 'base_fee'])
      .orderBy('chain')
      .orderBy('number')
      .execute();
    assert.deepEqual(
      rows.map((r) => [
        Number(r.chain),
        Number(r.number),
        r.fees_spent,
        Number(r.cumulative_txs),
        r.base_fee,
      ]),
      [
        [1, 0, '0', 0, '0'],
        [1, 1, '525000000000000', 1, '0'],
        [1, 2, '2100000000000000000050000', 3, '0'],
        [2, 5, '0', 3, '0'],
      ],
    );
  } finally {
    sqlite.reader?.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
