/**
 * The data roles as an operator runs them, through outages: `flurry api` over PostgreSQL when the
 * database goes away, stops answering and comes back. The database sits behind a TCP relay the
 * test can cut (connections refused), blackhole (accepted, never answered) and restore; and
 * `flurry indexer` started before the node it reads.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDatabase } from '../../src/data/store/database.js';
import { writeHeartbeat } from '../../src/data/store/queries/heartbeats.js';
import pg from 'pg';
import { cChainClients } from '../helpers/cchain-clients.js';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { startRole, type Role } from './data-helpers.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/flurry.js');

/** A TCP relay to `target` on a fixed local port: up, down (refusing) or blackhole. */
async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let mode: 'up' | 'blackhole' = 'up';
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => {});
        if (mode === 'blackhole') return; // accepted, never answered
        const upstream = net.connect(target.port, target.host);
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const cutAll = () => {
    for (const s of sockets) s.destroy();
  };
  await listen();
  return {
    get port() {
      return port;
    },
    /** Refuses connections and drops the open ones, as a stopped server does. */
    async down() {
      cutAll();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    async up() {
      mode = 'up';
      if (!server?.listening) await listen();
    },
    /** Drops the open connections and accepts new ones without ever answering. */
    blackhole() {
      mode = 'blackhole';
      cutAll();
    },
    async close() {
      cutAll();
      if (server?.listening) await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}

async function getJson(url: string): Promise<{ status: number; body: any; ms: number }> {
  const t0 = Date.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  return { status: res.status, body: await res.json(), ms: Date.now() - t0 };
}

describe('flurry api over PostgreSQL through database outages', { skip: postgresUnavailable() }, () => {
  let cluster: PostgresCluster;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let api: Role;
  let data: string;
  let metrics: string;

  before(async () => {
    cluster = await startPostgres();
    const direct = new URL(await cluster.createDatabase('outage'));
    relay = await startRelay({ host: direct.hostname, port: Number(direct.port) });
    direct.port = String(relay.port);
    api = await startRole(
      [
        'api',
        '--database-url',
        direct.href,
        '--data-dir',
        tempDir('flurry-outage-'),
        '--data-port',
        '0',
        '--metrics-port',
        '0',
      ],
      'fatal',
    );
    data = api.facts.urls.data;
    metrics = api.facts.urls.metrics;
  });
  after(async () => {
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
    await relay?.close();
    await cluster?.stop();
  });

  const utxos = () =>
    getJson(
      `${data}/v1/networks/local/blockchains/p-chain/utxos?addresses=P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`,
    );

  async function expectUnavailable() {
    const health = await getJson(`${data}/v1/health-check`);
    assert.equal(health.status, 503);
    assert.equal(health.body.status, 'error');
    assert.equal(health.body.error.database.status, 'down');
    const list = await utxos();
    assert.equal(list.status, 503);
    assert.deepEqual(Object.keys(list.body).sort(), ['error', 'message', 'statusCode']);
    assert.equal(list.body.statusCode, 503);
    const metricsHealth = await getJson(`${metrics}/v2/health-check`);
    assert.equal(metricsHealth.status, 503);
    const chains = await getJson(`${metrics}/v2/chains`);
    assert.equal(chains.status, 503);
    return [health, list, metricsHealth, chains];
  }

  async function expectRecovered() {
    for (let i = 0; ; i++) {
      const health = await getJson(`${data}/v1/health-check`);
      if (health.status === 200) break;
      assert.ok(i < 100, `recovered: ${JSON.stringify(health.body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await utxos()).status, 200);
    assert.equal((await getJson(`${metrics}/v2/health-check`)).status, 200);
  }

  it('answers 503 (health report, then error bodies) while the database is down, and recovers', async () => {
    assert.equal((await getJson(`${data}/v1/health-check`)).status, 200);
    assert.equal((await utxos()).status, 200);
    await relay.down();
    await expectUnavailable();
    await relay.up();
    await expectRecovered();
  });

  it('answers 503 within seconds, not never, while the database accepts but does not answer', async () => {
    relay.blackhole();
    const answers = await expectUnavailable();
    for (const a of answers) assert.ok(a.ms < 10_000, `answered in ${a.ms} ms`);
    await relay.up();
    await expectRecovered();
    assert.equal(api.child.exitCode, null, 'the API process is still running');
  });
});

interface LogLine {
  level: number;
  msg: string;
  source?: string;
  chain?: number;
}

function logLines(stderr: string): LogLine[] {
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

/** The readers (X/block, P/block, an EVM chain id) that logged `msg`, sorted. */
function readersSaying(lines: LogLine[], msg: string): string[] {
  return lines
    .filter((l) => l.msg === msg)
    .map((l) => String(l.source ?? l.chain))
    .sort();
}

function assertNoErrorsOrStacks(lines: LogLine[], stderr: string): void {
  assert.deepEqual(
    lines.filter((l) => l.level >= 50),
    [],
    'no error lines',
  );
  assert.doesNotMatch(stderr, /\\n\s+at /, 'no stack trace');
}

describe('flurry indexer started before its node', () => {
  async function freePort(): Promise<number> {
    const srv = net.createServer();
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const { port } = srv.address() as net.AddressInfo;
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    return port;
  }

  const dataDir = tempDir('flurry-early-');

  function spawnIndexer(nodePort: number, dir = dataDir, level = 'warn') {
    const child = spawn(
      process.execPath,
      [BIN, 'indexer', '--json', '--data-dir', dir, '--node-url', `http://127.0.0.1:${nodePort}`],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLURRY_LOG_LEVEL: level } },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const ready = new Promise<any>((resolve) =>
      readline.createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l))),
    );
    return { child, exited, ready, stderr: () => stderr };
  }

  it('waits for the node with a log line, then indexes; SIGTERM while waiting exits 0', async () => {
    const port = await freePort();
    const early = spawnIndexer(port);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(early.child.exitCode, null, `still running: ${early.stderr()}`);
    assert.match(early.stderr(), /waiting for the node; retrying/);
    assert.doesNotMatch(early.stderr(), /\n\s+at /, 'no stack trace');
    const node = await startDevnet({ command: 'node', args: ['--node-port', String(port)] });
    try {
      const facts = await early.ready;
      assert.equal(facts.role, 'indexer');
      assert.equal(facts.networkID, node.facts.networkID);
      early.child.kill('SIGTERM');
      assert.equal(await early.exited, 0);

      // An API given the node reports it in its health check, and reports it gone.
      const api = await startRole(
        ['api', '--data-dir', dataDir, '--node-url', node.url, '--data-port', '0', '--metrics-port', '0'],
        'fatal',
      );
      try {
        const up = await getJson(`${api.facts.urls.data}/v1/health-check`);
        assert.equal(up.status, 200);
        assert.equal(up.body.info.node.status, 'up');
        // The indexer (stopped a moment ago) heard from the node within the minute.
        for (const source of ['P/block', 'X/block']) {
          const seen = Date.parse(up.body.info.indexer.lastSeen[source]);
          assert.ok(
            Date.now() - seen < 60_000,
            `${source} last seen ${up.body.info.indexer.lastSeen[source]}`,
          );
        }
        // An indexer silent for two minutes is reported down, by name, with the report's 503.
        const store = await createDatabase({ dataDir });
        try {
          await writeHeartbeat(store.db, 'X/block', Date.now() - 120_000);
        } finally {
          await store.close();
        }
        const stalled = await getJson(`${api.facts.urls.data}/v1/health-check`);
        assert.equal(stalled.status, 503);
        assert.equal(stalled.body.status, 'error');
        assert.equal(stalled.body.error.indexer.status, 'down');
        assert.match(stalled.body.error.indexer.message, /^no heartbeat for over 60 s .*X\/block \(12\d s\)/);
        // Most often no indexer runs at all (stopped, crashed): the report names that cause first.
        assert.match(stalled.body.error.indexer.message, /\(no indexer runs, its node does not answer/);
        assert.equal(stalled.body.info.database.status, 'up');
        await node.stop();
        const down = await getJson(`${api.facts.urls.data}/v1/health-check`);
        assert.equal(down.status, 503);
        assert.equal(down.body.status, 'error');
        assert.equal(down.body.info.database.status, 'up');
        assert.equal(down.body.error.node.status, 'down');
      } finally {
        api.child.kill('SIGTERM');
        assert.equal(await api.exited, 0);
      }
    } finally {
      await node.stop();
    }

    const waiting = spawnIndexer(port);
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = Date.now();
    waiting.child.kill('SIGTERM');
    assert.equal(await waiting.exited, 0, waiting.stderr());
    assert.ok(Date.now() - t0 < 5000, 'stops promptly');
  });

  it('says once that the node went away and once that it is back, with no stack traces', async () => {
    const port = await freePort();
    const nodeDir = tempDir('flurry-lost-node-');
    const startNode = () =>
      startDevnet({ command: 'node', dataDir: nodeDir, args: ['--node-port', String(port)] });
    let node = await startNode();
    const indexer = spawnIndexer(port, tempDir('flurry-lost-store-'), 'info');
    try {
      await indexer.ready;
      await node.stop();
      // Several retries' worth of time (they back off to 3 s at most).
      await new Promise((r) => setTimeout(r, 7000));
      node = await startNode();
      for (let i = 0; i < 100 && !/the node answers again/.test(indexer.stderr()); i++)
        await new Promise((r) => setTimeout(r, 100));
      const lines = logLines(indexer.stderr());
      assertNoErrorsOrStacks(lines, indexer.stderr());
      // Each reader (X, P and the C-chain's EVM indexer) says it once each way.
      assert.deepEqual(readersSaying(lines, 'the node does not answer; retrying'), [
        '43112',
        'P/block',
        'X/block',
      ]);
      await new Promise((r) => setTimeout(r, 3500));
      const back = readersSaying(logLines(indexer.stderr()), 'the node answers again; indexing');
      assert.deepEqual(back, ['43112', 'P/block', 'X/block']);
    } finally {
      indexer.child.kill('SIGTERM');
      await indexer.exited;
      await node.stop();
    }
  });
});

interface SpawnedIndexer {
  child: ChildProcess;
  exited: Promise<number | null>;
  ready: Promise<any>;
  stderr(): string;
  lines(): LogLine[];
}

describe(
  'flurry indexer over PostgreSQL: a second indexer, a database outage',
  { skip: postgresUnavailable() },
  () => {
    let cluster: PostgresCluster;
    let relay: Awaited<ReturnType<typeof startRelay>>;
    let node: Devnet;
    let storeUrl: string;
    const indexers: SpawnedIndexer[] = [];

    function spawnIndexer(): SpawnedIndexer {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'indexer',
          '--json',
          '--data-dir',
          tempDir('flurry-pg-ix-'),
          '--node-url',
          node.url,
          '--database-url',
          storeUrl,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLURRY_LOG_LEVEL: 'info' } },
      );
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const ready = new Promise<any>((resolve) =>
        readline.createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l))),
      );
      const lines = () => logLines(stderr);
      const indexer = { child, exited, ready, stderr: () => stderr, lines };
      indexers.push(indexer);
      return indexer;
    }

    /** Sends ewoq's C-chain AVAX to itself and waits for the receipt: one block on the devnet. */
    async function cChainBlock(): Promise<void> {
      const { client, wallet, account } = cChainClients(node.facts.urls.cChainRpc);
      const hash = await wallet.sendTransaction({ to: account.address, value: 1n });
      await client.waitForTransactionReceipt({ hash });
    }

    /** Waits until the store's C-chain checkpoint is past the node's head. */
    async function cChainIndexed(): Promise<void> {
      const { client } = cChainClients(node.facts.urls.cChainRpc);
      const head = Number(await client.getBlockNumber());
      const pool = new pg.Pool({ connectionString: storeUrl, max: 1 });
      try {
        for (let i = 0; ; i++) {
          const { rows } = await pool
            .query("select next_index from checkpoints where source like 'evm:%'")
            .catch(() => ({ rows: [] as { next_index: string }[] }));
          if (rows.length > 0 && Number(rows[0]!.next_index) > head) return;
          assert.ok(i < 300, 'the C-chain was indexed');
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        await pool.end();
      }
    }

    before(async () => {
      cluster = await startPostgres();
      const direct = new URL(await cluster.createDatabase('indexers'));
      relay = await startRelay({ host: direct.hostname, port: Number(direct.port) });
      direct.port = String(relay.port);
      storeUrl = direct.href;
      node = await startDevnet({ command: 'node' });
    });
    after(async () => {
      for (const i of indexers)
        if (i.child.exitCode === null) {
          i.child.kill('SIGTERM');
          await i.exited;
        }
      await node?.stop();
      await relay?.close();
      await cluster?.stop();
    });

    it('two indexers on one store share the work without a warning each time one wins a range', async () => {
      const [a, b] = [spawnIndexer(), spawnIndexer()];
      await Promise.all([a.ready, b.ready]);
      for (let i = 0; i < 8; i++) await cChainBlock();
      await cChainIndexed();
      for (const ix of [a, b]) {
        assert.deepEqual(
          ix.lines().filter((l) => l.level >= 40),
          [],
          'no warnings: a range the other indexer wrote first is routine',
        );
        assert.doesNotMatch(ix.stderr(), /\\n\s+at /, 'no stack trace');
      }
      b.child.kill('SIGTERM');
      assert.equal(await b.exited, 0);
    });

    it('says once per reader that the database went away and once that it is back, with no stack traces', async () => {
      // The first test's remaining indexer, or one of its own when run alone.
      const ix = indexers.find((i) => i.child.exitCode === null) ?? spawnIndexer();
      await ix.ready;
      await cChainIndexed();
      const before = ix.lines().length;
      await relay.down();
      // A new C-chain block makes the EVM reader write while the store is away; X and P read
      // their checkpoints at every poll. Several retries' worth of time (they back off to 3 s).
      await cChainBlock();
      await new Promise((r) => setTimeout(r, 7000));
      await relay.up();
      await cChainIndexed();
      for (let i = 0; i < 100 && ix.lines().filter((l) => /answers again/.test(l.msg)).length < 3; i++)
        await new Promise((r) => setTimeout(r, 100));
      const lines = ix.lines().slice(before);
      assertNoErrorsOrStacks(lines, ix.stderr());
      const readers = (msg: string) => readersSaying(lines, msg);
      assert.deepEqual(readers('the data store does not answer; retrying'), ['43112', 'P/block', 'X/block']);
      assert.deepEqual(readers('the data store answers again; indexing'), ['43112', 'P/block', 'X/block']);
      assert.deepEqual(
        lines.filter((l) => l.level >= 40 && l.msg !== 'the data store does not answer; retrying'),
        [],
        'nothing else warned',
      );
    });
  },
);

describe('flurry api with a wrong --database-url', () => {
  it('says so in one line and exits 1, with and without workers', async () => {
    for (const extra of [[], ['--workers', '2']]) {
      const child = spawn(
        process.execPath,
        [BIN, 'api', '--database-url', 'postgres://u:secret@127.0.0.1:1/db', '--data-port', '0', ...extra],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLURRY_LOG_LEVEL: 'fatal' } },
      );
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      assert.equal(code, 1, extra.join(' '));
      assert.match(
        stderr,
        /^flurry: api did not start: cannot open the data store at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/,
      );
      assert.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
    }
  });
});

describe('flurry api with a keys file it refuses', () => {
  it('says so in one line and exits 1, with and without workers', async () => {
    const dir = tempDir('flurry-bad-keys-');
    const keysFile = path.join(dir, 'keys.json');
    fs.writeFileSync(keysFile, JSON.stringify({ keys: [{ key: 'short', tier: 'free' }] }));
    for (const extra of [[], ['--workers', '2']]) {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'api',
          '--data-dir',
          dir,
          '--api-keys-file',
          keysFile,
          '--data-port',
          '0',
          '--metrics-port',
          '0',
          ...extra,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLURRY_LOG_LEVEL: 'info' } },
      );
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      assert.equal(code, 1, extra.join(' '));
      assert.match(stderr, /^flurry: api did not start: .*keys\.json: \/keys\/0\/key /);
      // Each worker used to find the file bad in turn: the line twice, then the primary's error.
      assert.equal(stderr.trim().split('\n').length, 1, `one line (${extra.join(' ')}): ${stderr}`);
    }
  });
});

describe('flurry api on a store a newer flurry migrated', () => {
  it('names the migration it does not know in one line and exits 1', async () => {
    const dir = tempDir('flurry-newer-store-');
    const store = await createDatabase({ dataDir: dir });
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', 'x')`.execute(
        store.db,
      );
    } finally {
      await store.close();
    }
    const child = spawn(
      process.execPath,
      [BIN, 'api', '--data-dir', dir, '--data-port', '0', '--metrics-port', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FLURRY_LOG_LEVEL: 'info' },
      },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    assert.equal(code, 1);
    // Was kysely's "corrupted migrations: previously executed migration … is missing".
    assert.match(
      stderr,
      /^flurry: api did not start: cannot open the data store at .*: the store was migrated by a newer flurry \(migration 9999_from_the_future is not one this version knows\); run that version or a newer one\n$/,
    );
  });
});

describe('flurry start with --index-enabled false', () => {
  it('says once per chain that the node serves no index API, not an error every few seconds', async () => {
    // The X and P indexers read /ext/index/…, which such a node answers with 404: retrying
    // with backoff logged a warning, then an error with its stack, every 3 s for ever.
    const devnet = await startDevnet({ args: ['--index-enabled', 'false'] });
    try {
      await new Promise((r) => setTimeout(r, 2500));
      assert.doesNotMatch(devnet.stderr(), /"level":50/, 'no error lines');
      const lines = devnet
        .stderr()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; source?: string });
      assert.deepEqual(
        lines
          .filter((l) => /index/.test(l.msg))
          .map((l) => `${l.source}: ${l.msg}`)
          .sort(),
        ['P/block', 'X/block'].map(
          (s) => `${s}: the node serves no index API; this chain is not indexed until it does`,
        ),
      );
      // The C-chain is read over its JSON-RPC and is indexed as usual.
      const res = await fetch(`${devnet.facts.urls.data}/v1/chains/43112/blocks?pageSize=1`);
      assert.equal(res.status, 200);
    } finally {
      assert.equal(await devnet.stop(), 0);
    }
  });
});
