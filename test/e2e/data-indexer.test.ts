/**
 * Issue 6: the indexer as its own process (`flurry indexer --node-url`) survives SIGKILL in the
 * middle of a backfill — restarted, it ends with exactly the rows of an uninterrupted run — on
 * SQLite and on PostgreSQL; `flurry api` alone serves what an indexer wrote to PostgreSQL; and
 * `flurry api --workers 2` serves one port from two processes.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import http from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { avaxSerial, BigIntPr, Id, Int, TransferOutput, utils, Utxo } from '@avalabs/avalanchejs';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { sql } from 'kysely';
import { createDatabase, type DataDatabase } from '../../src/data/store/database.js';
import { call, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { lastIndex, startRole, type Role } from './data-helpers.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import {
  amountOf,
  avaxBase,
  EWOQ_ADDR,
  inputFrom,
  issue,
  owners,
  richestUtxo,
  secpOut,
  signWith,
  waitAccepted,
} from './xchain-helpers.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/flurry.js');

const TABLES: [string, string][] = [
  ['blocks', 'chain_id, height'],
  ['transactions', 'tx_hash'],
  ['asset_transactions', 'asset_id, seq'],
  ['assets', 'asset_id'],
  ['utxos', 'utxo_id'],
  ['utxo_spends', 'utxo_id'],
  ['utxo_addresses', 'chain_id, address, utxo_id'],
  ['subnets', 'subnet_id'],
  ['blockchains', 'blockchain_id'],
  ['stakers', 'tx_hash'],
  ['rewards', 'utxo_id'],
  ['reward_addresses', 'address, seq, utxo_id'],
];

/** POST on a fresh connection (no keep-alive), so consecutive requests may reach other workers. */
function postJson(url: string, body: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function stopRole(role: Role, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (role.child.exitCode !== null || role.child.signalCode !== null) return role.child.exitCode;
  role.child.kill(signal);
  return role.exited;
}

async function checkpoint(db: DataDatabase['db'], source: string): Promise<number> {
  const row = await db
    .selectFrom('checkpoints')
    .select('next_index')
    .where('source', '=', source)
    .executeTakeFirst();
  return row ? Number(row.next_index) : 0;
}

async function dump(db: DataDatabase['db']): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of TABLES) {
    const { rows } = await sql.raw(`SELECT * FROM ${table} ORDER BY ${order}`).execute(db);
    out[table] = rows.map((r: any) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])),
    );
  }
  const cps = await db.selectFrom('checkpoints').select(['source', 'next_index']).orderBy('source').execute();
  out.checkpoints = cps.map((c) => [c.source, Number(c.next_index)]);
  return out;
}

describe('indexer as its own process', () => {
  let net: Devnet;
  let url: string;
  let lastX: number;
  let lastP: number;
  let cluster: PostgresCluster | undefined;
  const pgSkip = postgresUnavailable();

  before(async () => {
    net = await startDevnet();
    url = net.url;
    const f = net.facts;
    const ctx = { networkID: f.networkID, xBlockchainID: f.chains.X.blockchainID };
    // 120 chained transfers, each its own block: a backfill long enough to interrupt.
    let utxo: Utxo = await richestUtxo(url, f.keys[0].xAddress, f.avaxAssetID);
    for (let i = 0; i < 120; i++) {
      const to = new Uint8Array(20).fill((i % 7) + 1);
      const change = amountOf(utxo) - 1_000_000n - 1_000n;
      const tx = await signWith(
        new (await import('@avalabs/avalanchejs')).avmSerial.BaseTx(
          avaxBase(
            ctx,
            [secpOut(f.avaxAssetID, 1_000n, [to]), secpOut(f.avaxAssetID, change, [EWOQ_ADDR])],
            [inputFrom(utxo)],
          ),
        ),
        ['secp'],
      );
      const txID = await issue(url, tx);
      await waitAccepted(url, txID);
      utxo = new Utxo(
        new avaxSerial.UTXOID(Id.fromString(txID), new Int(1)),
        Id.fromString(f.avaxAssetID),
        new TransferOutput(new BigIntPr(change), owners([EWOQ_ADDR])),
      );
    }
    const last = (name: string) => lastIndex(`${url}/ext/index/${name}`);
    lastX = await last('X/block');
    lastP = await last('P/block');
    assert.ok(lastX >= 119, 'blocks 1 to 120 at positions 0 to 119 (the genesis is not indexed)');
    if (!pgSkip) cluster = await startPostgres();
  });
  after(async () => {
    await net?.stop();
    await cluster?.stop();
  });

  async function indexTo(
    store: { dataDir: string; databaseUrl?: string },
    interrupt: boolean,
  ): Promise<DataDatabase> {
    const args = ['indexer', '--node-url', url, '--data-dir', store.dataDir, '--indexer-batch-size', '3'];
    if (store.databaseUrl) args.push('--database-url', store.databaseUrl);
    const database = await createDatabase(store);
    let role = await startRole(args);
    assert.equal(role.facts.role, 'indexer');
    if (interrupt) {
      // Kill the moment a few batches are in, well before the end.
      for (let i = 0; i < 4000 && (await checkpoint(database.db, 'X/block')) < 9; i++)
        await new Promise((r) => setTimeout(r, 2));
      role.child.kill('SIGKILL');
      await role.exited;
      const at = await checkpoint(database.db, 'X/block');
      assert.ok(at >= 9 && at <= lastX, `killed mid-backfill (checkpoint ${at} of ${lastX + 1})`);
      assert.equal(at % 3, 0, 'only whole batches are ever stored');
      role = await startRole(args);
    }
    for (let i = 0; i < 3000; i++) {
      if (
        (await checkpoint(database.db, 'X/block')) > lastX &&
        (await checkpoint(database.db, 'P/block')) > lastP
      )
        break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(await stopRole(role), 0, 'stops cleanly on SIGTERM');
    return database;
  }

  for (const kind of ['sqlite', 'postgres'] as const) {
    it(
      `resumes after SIGKILL mid-backfill with exactly the rows of an uninterrupted run (${kind})`,
      { skip: kind === 'postgres' ? pgSkip : undefined },
      async () => {
        const store = async (name: string) => ({
          dataDir: tempDir(`flurry-ix-${name}-`),
          databaseUrl: kind === 'postgres' ? await cluster!.createDatabase(`ix_${name}`) : undefined,
        });
        const clean = await indexTo(await store('clean'), false);
        const crashed = await indexTo(await store('crashed'), true);
        try {
          const a = await dump(clean.db);
          const b = await dump(crashed.db);
          assert.equal((a.transactions as unknown[]).length, 120);
          assert.deepEqual(
            (a.checkpoints as [string, number][]).filter(([s]) => s === 'P/block' || s === 'X/block'),
            [
              // An empty index (no P-chain block beyond the genesis, which is not indexed) is never read.
              ...(lastP >= 0 ? [['P/block', lastP + 1]] : []),
              ['X/block', lastX + 1],
            ],
          );
          for (const table of Object.keys(a)) assert.deepEqual(b[table], a[table], `table ${table}`);
        } finally {
          await clean.close();
          await crashed.close();
        }
      },
    );
  }

  it('`flurry api` on a port already taken says so in one line naming the flag, with and without workers', async () => {
    const blocker = createTcpServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      for (const [flag, other] of [
        ['--data-port', '--metrics-port'],
        ['--metrics-port', '--data-port'],
      ])
        for (const extra of [[], ['--workers', '2']]) {
          const args = [
            'api',
            '--data-dir',
            tempDir('flurry-port-'),
            flag,
            String(port),
            other,
            '0',
            ...extra,
          ];
          const run = spawnSync(process.execPath, [BIN, ...args], {
            encoding: 'utf8',
            // The default level: the API logged `listening` before its metrics port failed.
            env: { ...process.env, FLURRY_LOG_LEVEL: 'info' },
          });
          const what = `${flag} ${extra.join(' ')}`;
          assert.equal(run.status, 1, what);
          // Each worker used to print the error and the primary a log line after them.
          assert.equal(
            run.stderr,
            `flurry: api did not start: port ${port} on 127.0.0.1 is in use (${flag}); stop what listens there or pick another port\n`,
            what,
          );
        }
    } finally {
      blocker.close();
    }
  });

  it('`flurry api` on a store no indexer has written is healthy and says no indexer wrote yet', async () => {
    const api = await startRole(['api', '--data-dir', tempDir('flurry-empty-'), '--data-port', '0']);
    try {
      const res = await fetch(`${api.facts.urls.data}/v1/health-check`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as any;
      assert.equal(body.status, 'ok');
      // The real document's indicator status is up or down only: chainkit's zod schema refuses
      // any other word, so the indexer nobody has seen yet is told apart by its message.
      assert.equal(body.info.indexer.status, 'up');
      assert.match(body.info.indexer.message, /no indexer has written/);
      const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
      const health = await sdk.data.healthCheck({ serverURL: api.facts.urls.data });
      assert.equal(health.status, 'ok');
      assert.equal(health.info?.indexer?.status, 'up');
      // Without --node-url the signature aggregator is there but needs the node: 503 in the
      // REST error shape, as for the other node-backed routes (not a 404 for a missing route).
      const agg = await fetch(`${api.facts.urls.data}/v1/signatureAggregator/fuji/aggregateSignatures`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: '0x' + '00'.repeat(40) }),
      });
      assert.equal(agg.status, 503);
      const aggBody = (await agg.json()) as any;
      assert.equal(aggBody.statusCode, 503);
      assert.match(aggBody.message, /needs the node: start the API with --node-url/);
    } finally {
      assert.equal(await stopRole(api), 0);
    }
  });

  it('roles started at once on one fresh SQLite store all start, each migration applied once', async () => {
    // An indexer and an API launched together (a script, a compose file) open the same new
    // data.db: the migrations must run in one process while the others wait, not in all of them
    // (`table "meta" already exists`, `duplicate column name`, `database is locked`).
    for (let round = 0; round < 3; round++) {
      const dataDir = tempDir('flurry-together-');
      const started = await Promise.allSettled(
        [0, 1, 2, 3].map(() => startRole(['api', '--data-dir', dataDir, '--data-port', '0'])),
      );
      const roles = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      try {
        assert.deepEqual(
          started.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : [])),
          [],
        );
      } finally {
        for (const role of roles) assert.equal(await stopRole(role), 0);
      }
      const database = await createDatabase({ dataDir });
      try {
        const { rows } = await sql<{ name: string; n: number }>`
          select name, count(*) as n from kysely_migration group by name having count(*) > 1`.execute(
          database.db,
        );
        assert.deepEqual(rows, []);
      } finally {
        await database.close();
      }
    }
  });

  it('`flurry api --workers 2` serves one port from two processes that share page tokens', async () => {
    const dataDir = tempDir('flurry-workers-');
    const database = await indexTo({ dataDir }, false);
    await database.close();
    const api = await startRole([
      'api',
      '--workers',
      '2',
      '--data-dir',
      dataDir,
      '--data-port',
      '0',
      '--metrics-port',
      '0',
    ]);
    const workerPids = () =>
      execFileSync('pgrep', ['-P', String(api.child.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    try {
      assert.equal(api.facts.workers, 2);
      assert.equal(workerPids().length, 2);
      const to = utils.formatBech32('local', new Uint8Array(20).fill(1));
      // Every page on a new connection: connections are dealt to the workers in turn, so the
      // walk only completes if a token issued by one worker opens on the other.
      const walk = async () => {
        const seen: string[] = [];
        let token: string | undefined;
        do {
          const query = `pageSize=2${token ? `&pageToken=${token}` : ''}`;
          const page = await postJson(
            `${api.facts.urls.data}/v1/networks/local/blockchains/x-chain/utxos?${query}`,
            { addresses: `X-${to}` },
          );
          assert.equal(page.status, 200, JSON.stringify(page.body));
          seen.push(...page.body.utxos.map((u: any) => u.utxoId));
          token = page.body.nextPageToken;
        } while (token);
        return seen;
      };
      const seen = await walk();
      assert.equal(seen.length, Math.ceil(120 / 7));
      assert.equal(new Set(seen).size, seen.length);
      // A worker killed outright is replaced, and the port keeps serving.
      const [victim] = workerPids();
      process.kill(victim, 'SIGKILL');
      for (let i = 0; i < 500; i++) {
        const pids = workerPids();
        if (pids.length === 2 && !pids.includes(victim)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(!workerPids().includes(victim));
      assert.equal(workerPids().length, 2);
      assert.deepEqual(await walk(), seen);
    } finally {
      assert.equal(await stopRole(api), 0);
    }
    assert.throws(() => workerPids(), 'no worker outlives the role');
  });

  it(
    'serves what an indexer wrote to PostgreSQL from `flurry api --workers 2` alone',
    { skip: pgSkip },
    async () => {
      const databaseUrl = await cluster!.createDatabase('roles');
      const dataDir = tempDir('flurry-roles-');
      const database = await indexTo({ dataDir, databaseUrl }, false);
      await database.close();
      // Two worker processes on one PostgreSQL store, as an operator scales the API out.
      const api = await startRole([
        'api',
        '--database-url',
        databaseUrl,
        '--data-dir',
        dataDir,
        '--data-port',
        '0',
        '--metrics-port',
        '0',
        '--workers',
        '2',
      ]);
      try {
        assert.equal(api.facts.role, 'api');
        assert.equal(api.facts.workers, 2);
        assert.equal(api.facts.network, 'local');
        assert.ok(
          !api.facts.database.includes('@127.0.0.1') ||
            !/:[^:@/]+@/.test(api.facts.database.replace('postgres://', '')),
          'no password printed',
        );
        const to = utils.formatBech32('local', new Uint8Array(20).fill(1));
        const res = await fetch(
          `${api.facts.urls.data}/v1/networks/local/blockchains/x-chain/utxos?pageSize=1024`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ addresses: `X-${to}` }),
          },
        );
        assert.equal(res.status, 200);
        const body = (await res.json()) as any;
        const node = await call(`${url}/ext/bc/X`, 'avm.getUTXOs', { addresses: [`X-${to}`], limit: 1024 });
        assert.equal(body.utxos.length, node.utxos.length);
        assert.equal(body.utxos.length, Math.ceil(120 / 7));
      } finally {
        assert.equal(await stopRole(api), 0);
      }
    },
  );
});
