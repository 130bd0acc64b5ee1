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
