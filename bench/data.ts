/**
 * Chain-data platform figures:
 * - indexing rate: a real `flurry node` is given a few hundred X- and P-chain txs, then a fresh
 *   indexer (in this process, reading the node over HTTP) backfills them into SQLite and into
 *   PostgreSQL (a throwaway cluster, when this machine has the server binaries); txs per second.
 * - list latency: the UTXO list (`POST …/utxos`, page size 10) over 1,000,000 UTXO rows of one
 *   address, p50/p99 at page 1 and at page 10,000 (keyset: the same cost).
 * - throughput: requests per second of that route against a bare hello-world route on the
 *   same server (target ≥ 0.5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import {
  avaxSerial,
  avmSerial,
  BigIntPr,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  secp256k1,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import Database from 'libsql';
import { NETWORKS } from '../src/shared/networks.js';
import { startPrimaryIndexer } from '../src/data/indexer/primary/primary-indexer.js';
import { createNodeClient } from '../src/data/internal/node-client.js';
import { amountKey } from '../src/data/store/amounts.js';
import { createDatabase } from '../src/data/store/database.js';
import { pageTokenSecret } from '../src/data/store/queries/meta.js';
import { renderUtxoDocument } from '../src/data/store/utxo-document.js';
import { postgresUnavailable, startPostgres } from '../test/helpers/postgres.js';
import type { BenchResult } from './index.js';
import { BURST, issuePTxs, preparePBaseTxs } from './pchain-txs.js';

const BIN = path.resolve(import.meta.dirname, '../bin/flurry.js');
const KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const ADDR = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(KEY));
const TXS = Number(process.env.FLURRY_BENCH_DATA_TXS ?? 600);
/** P-chain BaseTxs besides (issued in bursts of at most BURST, each after one fan-out tx). */
const P_TXS = Number(process.env.FLURRY_BENCH_DATA_PTXS ?? 300);
const ROWS = Number(process.env.FLURRY_BENCH_DATA_ROWS ?? 1_000_000);
/** `FLURRY_BENCH_DATA_PARTS=list` runs only the list figures (e.g. while tuning the list route). */
const PARTS = (process.env.FLURRY_BENCH_DATA_PARTS ?? 'indexing,list').split(',');
const codec = avmSerial.getAVMManager().getDefaultCodec();

async function rpc(url: string, method: string, params: unknown = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: any; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function startNodeProcess(): Promise<{ url: string; facts: any; child: ChildProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-data-'));
  const child = spawn(process.execPath, [BIN, 'node', '--json', '--node-port', '0', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, FLURRY_LOG_LEVEL: 'error' },
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`node exited ${c}`)));
  });
  const facts = JSON.parse(line);
  return { url: facts.urls.node, facts, child, dir };
}

async function signedBase(facts: any, inputs: TransferableInput[], outputs: TransferableOutput[]) {
  const tx = new avmSerial.BaseTx(
    new avaxSerial.BaseTx(
      new Int(facts.networkID),
      Id.fromString(facts.chains.X.blockchainID),
      outputs,
      inputs,
      new Bytes(new Uint8Array()),
    ),
  );
  const unsigned = utils.concatBytes(new Uint8Array([0, 0]), codec.PackPrefix(tx));
  const sig = await secp256k1.signHash(sha256(unsigned), KEY);
  const bytes = utils.concatBytes(
    unsigned,
    codec.PackPrefixList(inputs.map(() => new Credential([new Signature(sig)]))),
  );
  return { hex: utils.bufferToHex(utils.addChecksum(bytes)), id: utils.base58check.encode(sha256(bytes)) };
}

const out = (asset: string, amount: bigint, to: Uint8Array) =>
  new TransferableOutput(
    Id.fromString(asset),
    new TransferOutput(new BigIntPr(amount), OutputOwners.fromNative([to])),
  );

/** Fills the node's X-chain with `count` independent transfers (split first, then in parallel). */
async function fillChain(url: string, facts: any, count: number): Promise<string[]> {
  const x = `${url}/ext/bc/X`;
  const asset = facts.avaxAssetID;
  const { utxos } = await rpc(x, 'avm.getUTXOs', { addresses: [facts.keys[0].xAddress], encoding: 'hex' });
  const parsed = (utxos as string[]).map((h) => avmSerial.getAVMManager().unpack(utils.hexToBuffer(h), Utxo));
  const richest = parsed.sort((a, b) =>
    Number((b.output as TransferOutput).amount() - (a.output as TransferOutput).amount()),
  )[0];
  const each = 10_000_000n;
  const total = (richest.output as TransferOutput).amount();
  const outputs = [...Array(count)].map(() => out(asset, each, ADDR));
  outputs.push(out(asset, total - each * BigInt(count) - 1_000_000n, ADDR));
  const split = await signedBase(
    facts,
    [
      new TransferableInput(
        richest.utxoId,
        richest.assetId,
        new TransferInput(new BigIntPr(total), Input.fromNative([0])),
      ),
    ],
    outputs,
  );
  await rpc(x, 'avm.issueTx', { tx: split.hex, encoding: 'hex' });
  while ((await rpc(x, 'avm.getTxStatus', { txID: split.id })).status !== 'Accepted')
    await new Promise((r) => setTimeout(r, 20));
  const txs: { hex: string; id: string }[] = [];
  for (let i = 0; i < count; i++) {
    const input = new TransferableInput(
      new avaxSerial.UTXOID(Id.fromString(split.id), new Int(i)),
      Id.fromString(asset),
      new TransferInput(new BigIntPr(each), Input.fromNative([0])),
    );
    const to = sha256(new Uint8Array([i & 255, i >> 8])).subarray(0, 20);
    txs.push(
      await signedBase(
        facts,
        [input],
        [out(asset, 4_000_000n, to), out(asset, each - 4_000_000n - 1_000_000n, ADDR)],
      ),
    );
  }
  let next = 0;
  await Promise.all(
    [...Array(32)].map(async () => {
      while (next < txs.length) await rpc(x, 'avm.issueTx', { tx: txs[next++].hex, encoding: 'hex' });
    }),
  );
  const last = txs[txs.length - 1].id;
  for (let i = 0; i < 2000 && (await rpc(x, 'avm.getTxStatus', { txID: last })).status !== 'Accepted'; i++)
    await new Promise((r) => setTimeout(r, 20));
  return txs.map((t) => t.id);
}

/**
 * Head following: with an indexer caught up, each new transaction is issued and timed until
 * its row is in the store (what the REST service reads). `spare` are txs whose output 1 is a
 * 5,000,000 nAVAX change output of the test key.
 */
async function headLatency(url: string, facts: any, spare: string[], samples: number): Promise<number[]> {
  const database = await createDatabase({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-head-')),
  });
  const indexer = await startPrimaryIndexer({ db: database.db, node: createNodeClient(url) });
  await indexer.caughtUp();
  const asset = facts.avaxAssetID;
  const latencies: number[] = [];
  try {
    for (const from of spare.slice(0, samples)) {
      const input = new TransferableInput(
        new avaxSerial.UTXOID(Id.fromString(from), new Int(1)),
        Id.fromString(asset),
        new TransferInput(new BigIntPr(5_000_000n), Input.fromNative([0])),
      );
      const tx = await signedBase(facts, [input], [out(asset, 4_000_000n, ADDR)]);
      const t0 = performance.now();
      await rpc(`${url}/ext/bc/X`, 'avm.issueTx', { tx: tx.hex, encoding: 'hex' });
      for (;;) {
        const row = await database.db
          .selectFrom('transactions')
          .select('tx_hash')
          .where('tx_hash', '=', tx.id)
          .executeTakeFirst();
        if (row) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      latencies.push(performance.now() - t0);
    }
  } finally {
    await indexer.stop();
    await database.close();
  }
  return latencies;
}

async function indexingRate(url: string, databaseUrl?: string): Promise<number> {
  const database = await createDatabase({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-ix-')),
    databaseUrl,
  });
  try {
    const t0 = performance.now();
    const indexer = await startPrimaryIndexer({ db: database.db, node: createNodeClient(url) });
    await indexer.caughtUp();
    const seconds = (performance.now() - t0) / 1000;
    await indexer.stop();
    const { n } = (await database.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as any;
    return Number(n) / seconds;
  } finally {
    await database.close();
  }
}

/** 1,000,000 P-chain UTXOs of one address, loaded once and kept under .bench-data/. */
async function bigStore(): Promise<string> {
  const dir = path.resolve(import.meta.dirname, `../.bench-data/utxos-${ROWS}-v3`);
  if (fs.existsSync(path.join(dir, 'ready'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  const database = await createDatabase({ dataDir: dir });
  await database.close();
  const db = new Database(path.join(dir, 'data.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const fuji = NETWORKS.fuji;
  const address = utils.formatBech32('fuji', new Uint8Array(20).fill(1));
  const insertUtxo = db.prepare(
    `INSERT INTO utxos (utxo_id, tx_hash, output_index, created_on, consumed_on, asset_id, amount, addresses, threshold, locktime,
      stakeable_locktime, staked, utxo_type, block_height, block_ts, seq, utxo_bytes, doc) VALUES (?,?,?,?,?,?,?,?,1,0,0,0,'TRANSFER',?,?,?,?,?)`,
  );
  const insertAddr = db.prepare(
    'INSERT INTO utxo_addresses (chain_id, address, utxo_id, spent, ts, amount) VALUES (?,?,?,0,?,?)',
  );
  db.exec('BEGIN');
  db.prepare("INSERT INTO assets VALUES (?, 'Avalanche', 'AVAX', 9, 'secp256k1', 'fixed', 0, ?)").run([
    fuji.avaxAssetID,
    fuji.avaxAssetID,
  ]);
  const owners = JSON.stringify([address]);
  for (let i = 0; i < ROWS; i++) {
    const idBytes = sha256(new Uint8Array([i & 255, (i >> 8) & 255, (i >> 16) & 255, 7]));
    const utxoId = utils.base58check.encode(idBytes);
    const amount = amountKey(BigInt(1_000_000 + ((i * 7919) % 1_000_003)));
    const ts = 1_700_000_000 + i;
    const row = {
      utxo_id: utxoId,
      tx_hash: utxoId,
      output_index: 0,
      created_on: fuji.pChainID,
      consumed_on: fuji.pChainID,
      asset_id: fuji.avaxAssetID,
      amount,
      addresses: owners,
      threshold: 1,
      locktime: 0,
      stakeable_locktime: 0,
      staked: 0,
      utxo_type: 'TRANSFER',
      reward_type: null,
      start_ts: null,
      end_ts: null,
      block_height: i,
      block_ts: ts,
      seq: i * 1_000_000,
      group_id: null,
      payload: null,
      utxo_bytes: '0x00',
    };
    const doc = renderUtxoDocument(row);
    insertUtxo.run([
      utxoId,
      utxoId,
      0,
      fuji.pChainID,
      fuji.pChainID,
      fuji.avaxAssetID,
      amount,
      owners,
      i,
      ts,
      i * 1_000_000,
      '0x00',
      doc,
    ]);
    insertAddr.run([fuji.pChainID, address, utxoId, ts, amount]);
    if (i % 100_000 === 99_999) {
      db.exec('COMMIT');
      db.exec('BEGIN');
    }
  }
  db.exec('COMMIT');
  db.close();
  fs.writeFileSync(path.join(dir, 'ready'), '');
  return dir;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Sequential latency of `requests` calls, in ms. */
async function latencies(
  agent: http.Agent,
  port: number,
  path_: string,
  body: string,
  requests: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await request(agent, port, path_, body);
    out.push(performance.now() - t0);
  }
  return out;
}

function request(agent: http.Agent, port: number, path_: string, body?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: path_,
        method: body ? 'POST' : 'GET',
        agent,
        headers: body
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
          : {},
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode} on ${path_}`));
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Load generator run in its own process, so client and server each have a core. */
const LOAD_SCRIPT = `
const http = require('node:http');
const [port, path, body, ms, connections] = JSON.parse(process.argv[1]);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
let done = 0;
const end = Date.now() + ms;
const one = () => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', agent,
    headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
    if (res.statusCode !== 200) return reject(new Error('HTTP ' + res.statusCode));
    res.resume(); res.on('end', resolve);
  });
  req.on('error', reject); req.end(body || undefined);
});
const t0 = Date.now();
Promise.all([...Array(connections)].map(async () => { while (Date.now() < end) { await one(); done++; } }))
  .then(() => {
    const cpu = process.cpuUsage();
    process.stdout.write(JSON.stringify({ rate: done / ((Date.now() - t0) / 1000), done, cpuMicros: cpu.user + cpu.system }));
    agent.destroy();
  });
`;

/** CPU time (user + system) of processes, in µs, from /proc; undefined where there is none. */
function cpuMicros(pids: number[]): number | undefined {
  try {
    let ticks = 0;
    for (const pid of pids) {
      // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** Linux reports process times in USER_HZ ticks, 100 per second on every architecture. */
const CLOCK_TICKS = 100;

interface Throughput {
  /** Requests per second. */
  rate: number;
  /** CPU per request of the server's processes and of the load generator, µs. */
  serverCpu?: number;
  clientCpu: number;
}

/**
 * Requests per second with `connections` keep-alive connections for `ms`, and what each request
 * cost the server's processes (`serverPids`) and the load generator in CPU time: on a machine
 * whose cores the two share, the rate alone does not say which side was the limit.
 */
async function throughput(
  port: number,
  path_: string,
  body: string | undefined,
  ms: number,
  serverPids: number[] = [],
  connections = 16,
): Promise<Throughput> {
  const before = cpuMicros(serverPids);
  const child = spawn(
    process.execPath,
    ['-e', LOAD_SCRIPT, JSON.stringify([port, path_, body ?? '', ms, connections])],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await new Promise((r) => child.once('exit', r));
  const after = cpuMicros(serverPids);
  const {
    rate,
    done,
    cpuMicros: client,
  } = JSON.parse(out) as { rate: number; done: number; cpuMicros: number };
  return {
    rate,
    serverCpu: before === undefined || after === undefined ? undefined : (after - before) / done,
    clientCpu: client / done,
  };
}

export async function dataBench(): Promise<BenchResult[]> {
  return [
    ...(PARTS.includes('indexing') ? await indexingFigures() : []),
    ...(PARTS.includes('list') ? await listFigures() : []),
  ];
}

/** Adds `count` P-chain BaseTxs in bursts the gas capacity takes; how many P txs were accepted. */
async function fillPChain(url: string, count: number): Promise<number> {
  let accepted = 0;
  for (let left = count; left > 0; left -= BURST) {
    const txs = await preparePBaseTxs(url, Math.min(BURST, left));
    await issuePTxs(url, txs, 16);
    accepted += txs.length + 1; // and the fan-out tx that made their coins
  }
  return accepted;
}

/** Indexing rate on SQLite and PostgreSQL (X- and P-chain txs), and head-following latency. */
async function indexingFigures(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const node = await startNodeProcess();
  try {
    const filled = await fillChain(node.url, node.facts, TXS);
    const pTxs = await fillPChain(node.url, P_TXS);
    const what = `${TXS + 1} X and ${pTxs} P txs, backfill over HTTP`;
    results.push({
      name: `indexing rate, SQLite (${what})`,
      value: await indexingRate(node.url),
      unit: 'tx/s',
    });
    const head = await headLatency(node.url, node.facts, filled, 30);
    results.push(
      {
        name: 'head following: tx issued → row in the store, p50 (SQLite)',
        value: percentile(head, 50),
        unit: 'ms',
        target: '<= 250 ms',
      },
      {
        name: 'head following: tx issued → row in the store, p99',
        value: percentile(head, 99),
        unit: 'ms',
        target: '<= 250 ms',
      },
    );
    const reason = postgresUnavailable();
    if (reason)
      results.push({ name: 'indexing rate, PostgreSQL', value: 0, unit: 'tx/s', note: `skipped: ${reason}` });
    else {
      const cluster = await startPostgres();
      try {
        results.push({
          name: `indexing rate, PostgreSQL (${what})`,
          value: await indexingRate(node.url, await cluster.createDatabase('bench')),
          unit: 'tx/s',
        });
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    node.child.kill('SIGTERM');
    await new Promise((r) => node.child.once('exit', r));
    fs.rmSync(node.dir, { recursive: true, force: true });
  }
  return results;
}

/** A list server (bench/data-list-server.ts) of `workers` processes over the big store. */
async function startListServer(
  dir: string,
  workers: number,
  mode?: 'memo-read',
): Promise<{ port: number; token: string; pids: number[]; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.resolve(import.meta.dirname, 'data-list-server.ts'),
      dir,
      String(workers),
      ...(mode ? [mode] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`list server exited (${code})`)));
  });
  const { port, token, pids } = JSON.parse(line) as { port: number; token: string; pids: number[] };
  return {
    port,
    token,
    pids,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    },
  };
}

/** List latency at page 1 and page 10,000 over 1,000,000 UTXOs, and throughput vs hello-world. */
async function listFigures(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const dir = await bigStore();
  // Migrations and the page-token secret once, before any server process opens the store.
  const database = await createDatabase({ dataDir: dir });
  await pageTokenSecret(database.db);
  await database.close();
  const address = utils.formatBech32('fuji', new Uint8Array(20).fill(1));
  const body = JSON.stringify({ addresses: `P-${address}` });
  const route = '/v1/networks/fuji/blockchains/p-chain/utxos';
  // One process, as `flurry api` runs by default; then one per core (`flurry api --workers 0`).
  const cores = os.availableParallelism();
  for (const workers of cores > 1 ? [1, cores] : [1]) {
    const server = await startListServer(dir, workers);
    const { port, token } = server;
    try {
      if (workers === 1) {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        await latencies(agent, port, `${route}?pageSize=10`, body, 200); // warm-up
        const first = await latencies(agent, port, `${route}?pageSize=10`, body, 2000);
        const deep = await latencies(agent, port, `${route}?pageSize=10&pageToken=${token}`, body, 2000);
        agent.destroy();
        results.push(
          {
            name: `UTXO list p50, page 1 (${ROWS.toLocaleString('en')} rows, SQLite)`,
            value: percentile(first, 50),
            unit: 'ms',
          },
          { name: 'UTXO list p99, page 1', value: percentile(first, 99), unit: 'ms' },
          {
            name: 'UTXO list p50, page 10,000',
            value: percentile(deep, 50),
            unit: 'ms',
            peers: [{ name: 'page 1', value: percentile(first, 50) }],
          },
          {
            name: 'UTXO list p99, page 10,000',
            value: percentile(deep, 99),
            unit: 'ms',
            peers: [{ name: 'page 1', value: percentile(first, 99) }],
          },
        );
      } else await throughput(port, `${route}?pageSize=10&pageToken=${token}`, body, 1000, server.pids); // warm-up
      const hello = await throughput(port, '/hello', undefined, 4000, server.pids);
      const list = await throughput(port, `${route}?pageSize=10&pageToken=${token}`, body, 4000, server.pids);
      const ratio = list.rate / hello.rate;
      const processes = `${workers} process${workers > 1 ? 'es' : ''}`;
      results.push({
        name: `UTXO list req/s vs hello-world on the same server (${processes})`,
        value: list.rate,
        unit: 'req/s',
        target: 'ratio >= 0.5',
        peers: [{ name: 'hello-world', value: hello.rate }],
        note: `${ratio >= 0.5 ? 'meets' : 'misses'} target; load generator: one process, 16 connections`,
      });
      // Which side limits each rate: the server's processes and the load generator share the cores.
      if (list.serverCpu !== undefined && hello.serverCpu !== undefined)
        results.push({
          name: `  server CPU per request, UTXO list vs hello-world (${processes})`,
          value: list.serverCpu,
          unit: 'µs',
          peers: [{ name: 'hello-world', value: hello.serverCpu }],
        });
      results.push({
        name: `  load generator CPU per request, UTXO list vs hello-world (${processes})`,
        value: list.clientCpu,
        unit: 'µs',
        peers: [{ name: 'hello-world', value: hello.clientCpu }],
      });
      // The generator is one process: it can make at most 1/(its CPU per request) requests a
      // second, so even a server costing nothing leaves the ratio at most this one.
      results.push({
        name: `  ceiling set by the load generator alone (${processes})`,
        value: 1e6 / list.clientCpu,
        unit: 'req/s',
        peers: [{ name: 'hello-world', value: 1e6 / hello.clientCpu }],
        note: '1 / its CPU per request',
      });
      if (workers === 1) {
        // The same list as the v1 GET (addresses in the query): a GET like the hello-world route,
        // without the POST body's parse and validation on either side.
        const get = await throughput(
          port,
          `${route}?addresses=P-${address}&pageSize=10&pageToken=${token}`,
          undefined,
          4000,
          server.pids,
        );
        results.push({
          name: '  UTXO list v1 (GET, addresses in the query) req/s (1 process)',
          value: get.rate,
          unit: 'req/s',
          peers: [{ name: 'hello-world', value: hello.rate }],
          note: `server ${get.serverCpu?.toFixed(0) ?? '?'} µs, load generator ${get.clientCpu.toFixed(0)} µs per request`,
        });
      }
    } finally {
      await server.stop();
    }
  }
  // The ceiling of the ratio: the same route with its page read answered from memory (one
  // process). What remains is HTTP, validation, page tokens and the 7 KB answer.
  const server = await startListServer(dir, 1, 'memo-read');
  try {
    const path_ = `${route}?pageSize=10&pageToken=${server.token}`;
    await throughput(server.port, path_, body, 1000, server.pids); // warm-up
    const hello = await throughput(server.port, '/hello', undefined, 4000, server.pids);
    const list = await throughput(server.port, path_, body, 4000, server.pids);
    results.push({
      name: '  diagnostic: UTXO list with its page read answered from memory (1 process)',
      value: list.rate,
      unit: 'req/s',
      peers: [{ name: 'hello-world', value: hello.rate }],
      note: `server ${list.serverCpu?.toFixed(0) ?? '?'} µs, load generator ${list.clientCpu.toFixed(0)} µs per request`,
    });
  } finally {
    await server.stop();
  }
  return results;
}
