/**
 * EVM half of the data platform:
 *  1. Backfill rate: a chain of 2,000 blocks holding 100,000 mixed transfers (ERC-20, ERC-721,
 *     ERC-1155, internal value calls and native transactions) is generated on Anvil (the Flurry
 *     C-chain would take far longer to produce it); each block's JSON-RPC answers are recorded as
 *     it is mined and served by a local replay node, which the indexer backfills from block 0
 *     into a fresh SQLite store: blocks/s and transfers/s. Ponder, the named peer, backfills the
 *     same range from the same replay node (bench/ponder-peer.ts installs it on first use).
 *  2. listErc20 latency for an address with 1,000,000 transfers seeded directly in the store:
 *     p50/p99 over HTTP of the first page and of the 10,000th page (pageSize 100).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import solc from 'solc';
import type { BenchResult } from './index.js';
import { startReplayNode, type RecordedBlock, type ReplayNode } from './evm-replay-node.js';
import { ensurePonder, runPonder, type PonderRun } from './ponder-peer.js';
import { postgresUnavailable, startPostgres } from '../test/helpers/postgres.js';
import { parseApiAccessConfig } from '../src/data/api/api-keys.js';
import { createPageTokens } from '../src/data/api/page-token.js';
import { createEvmRoutes } from '../src/data/api/routes/evm/index.js';
import { startDataApi } from '../src/data/api/server.js';
import { recordEvmChain } from '../src/data/indexer/evm/chain-discovery.js';
import { startEvmChains } from '../src/data/indexer/evm/evm-indexer.js';
import { EvmRpcClient } from '../src/data/indexer/evm/rpc-client.js';
import { keccakHex } from '../src/data/evm/abi.js';
import { createDatabase } from '../src/data/store/database.js';
import { pageTokenSecret } from '../src/data/store/queries/meta.js';
import { openSqlite } from '../src/data/store/sqlite.js';
import { NETWORKS } from '../src/shared/networks.js';
import { createLogger } from '../src/shared/logger.js';

const BLOCKS = Number(process.env.EVM_BENCH_BLOCKS ?? 2000);
const RECIPIENTS = 12; // per spray: 12 × (ERC-20 + ERC-721 + ERC-1155 + internal value call)
const NATIVE_PER_BLOCK = 2;
const TRANSFERS_PER_BLOCK = RECIPIENTS * 4 + NATIVE_PER_BLOCK;
const HEAVY_ROWS = 1_000_000;

const SPRAY = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Spray {
  event Transfer(address indexed from, address indexed to, uint256 value);
  event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
  uint256 public nextId;
  /** Per recipient: an ERC-20 and an ERC-1155 transfer, an ERC-721 mint, and 1 wei sent internally. */
  function spray(address[] calldata to) external payable {
    uint256 id = nextId;
    for (uint256 i = 0; i < to.length; i++) {
      emit Transfer(msg.sender, to[i], 1000 + i);
      emit TransferSingle(msg.sender, msg.sender, to[i], i % 5, 1);
      assembly { log4(0, 0, 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef, 0, calldataload(add(to.offset, mul(i, 32))), add(id, i)) }
      payable(to[i]).transfer(1);
    }
    nextId = id + to.length;
  }
}`;

function compileSpray(): { abi: unknown; bytecode: string } {
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'Spray.sol': { content: SPRAY } },
        settings: {
          evmVersion: 'paris',
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  );
  const err = (out.errors ?? []).find((e: any) => e.severity === 'error');
  if (err) throw new Error(err.formattedMessage);
  const c = out.contracts['Spray.sol'].Spray;
  return { abi: c.abi, bytecode: '0x' + c.evm.bytecode.object };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startAnvil(automine = false): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const bin = path.resolve(import.meta.dirname, '../node_modules/.bin/anvil');
  const child = spawn(
    bin,
    [
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--silent',
      ...(automine ? [] : ['--no-mining']),
      '--gas-limit',
      '60000000',
      '--prune-history',
      '64',
    ],
    // Its own process group: the .bin entry is a wrapper that spawns the real binary.
    { stdio: 'ignore', detached: true },
  );
  const url = `http://127.0.0.1:${port}`;
  const rpc = new EvmRpcClient(url);
  for (let i = 0; i < 100; i++) {
    try {
      await rpc.call('eth_chainId');
      return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('anvil did not start');
}

function encodeSpray(recipients: string[]): string {
  // spray(address[]): selector, offset 0x20, length, addresses.
  const selector = keccakHex('spray(address[])').slice(0, 10);
  const words = [32n, BigInt(recipients.length), ...recipients.map((a) => BigInt(a))];
  return selector + words.map((w) => w.toString(16).padStart(64, '0')).join('');
}

/** Empty blocks mined past the measured range, so that all of it is final to Ponder (it treats
 * the newest 30 blocks of an unknown chain as unfinalised and follows them live, one by one). */
const FINALITY_PADDING = 32;

/**
 * 2,000 blocks: each one spray (48 transfers) and two native transfers. Each block's answers
 * (block with transactions, receipts, callTracer traces) are recorded as soon as it is mined,
 * while Anvil still holds its state: Anvil re-executes history to trace old blocks and becomes
 * the bottleneck (and grows to gigabytes) when an indexer traces 2,000 blocks after the fact.
 */
async function generateChain(
  url: string,
): Promise<{ head: number; chainId: number; blocks: RecordedBlock[]; senders: string[] }> {
  const rpc = new EvmRpcClient(url);
  const blocks: RecordedBlock[] = [];
  const accounts = await rpc.call<string[]>('eth_accounts');
  const { bytecode } = compileSpray();
  const record = async (n: number) => {
    const tag = '0x' + n.toString(16);
    const [block, receipts, traces] = await rpc.batch([
      { method: 'eth_getBlockByNumber', params: [tag, true] },
      { method: 'eth_getBlockReceipts', params: [tag] },
      { method: 'debug_traceBlockByNumber', params: [tag, { tracer: 'callTracer' }] },
    ]);
    if (!block.ok || !receipts.ok || !traces.ok) throw new Error(`cannot record block ${n}`);
    blocks[n] = { block: block.value, receipts: receipts.value, traces: traces.value } as RecordedBlock;
  };
  await record(0);
  await rpc.call('eth_sendTransaction', [{ from: accounts[0], data: bytecode, gas: '0x300000' }]);
  await rpc.call('evm_mine');
  await record(1);
  const spray = (await rpc.call<{ contractAddress: string }[]>('eth_getBlockReceipts', ['latest']))[0]
    .contractAddress;
  const pool = Array.from({ length: 600 }, (_, i) => '0x' + (0x100000 + i).toString(16).padStart(40, '0'));
  for (let b = 0; b < BLOCKS; b++) {
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => pool[(b * RECIPIENTS + i) % pool.length]);
    await rpc.batch([
      {
        method: 'eth_sendTransaction',
        params: [
          { from: accounts[0], to: spray, data: encodeSpray(recipients), value: '0x100', gas: '0x200000' },
        ],
      },
      {
        method: 'eth_sendTransaction',
        params: [{ from: accounts[1], to: recipients[0], value: '0x1', gas: '0x5208' }],
      },
      {
        method: 'eth_sendTransaction',
        params: [{ from: accounts[2], to: recipients[1], value: '0x2', gas: '0x5208' }],
      },
    ]);
    await rpc.call('evm_mine');
    await record(b + 2);
  }
  const head = Number(BigInt(await rpc.call<string>('eth_blockNumber')));
  for (let i = 1; i <= FINALITY_PADDING; i++) {
    await rpc.call('evm_mine');
    await record(head + i);
  }
  return {
    head,
    chainId: Number(BigInt(await rpc.call<string>('eth_chainId'))),
    blocks,
    // Ponder's transaction and transfer sources take addresses: every sender, and the contract
    // whose internal calls send value.
    senders: [accounts[0], accounts[1], accounts[2], spray],
  };
}

/** Flurry's indexer backfilling the replay node into a fresh SQLite store. */
async function flurryBackfill(rpcUrl: string, chainId: number, head: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-evm-'));
  const database = await createDatabase({ dataDir: dir });
  try {
    const chain = {
      blockchain_id: 'bench-anvil',
      evm_chain_id: chainId,
      name: 'anvil',
      description: 'bench chain',
      subnet_id: '',
      vm_id: '',
      rpc_url: rpcUrl,
      ws_url: '',
      token_name: 'Ether',
      token_symbol: 'ETH',
      token_decimals: 18,
      network: 'local',
      is_testnet: 1,
      features: '[]',
      discovered_at: Date.now(),
    };
    await recordEvmChain(database.db, chain);
    const t0 = performance.now();
    const indexers = startEvmChains(database.db, [chain], {
      maxBlocksPerRange: 100,
      logger: createLogger('warn', 'bench'),
    });
    const indexer = indexers.get('bench-anvil')!;
    await indexer.waitFor(head);
    const seconds = (performance.now() - t0) / 1000;
    await indexer.stop();
    const transfers = await database.db
      .selectFrom('evm_token_transfers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('address', '!=', '0x0000000000000000000000000000000000000000')
      .executeTakeFirst();
    return { seconds, partyRows: Number(transfers?.n ?? 0) };
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Ponder on the same replay node, over PostgreSQL (its production database) when a cluster can
 * start here, else over its embedded PGlite. The peer figure, or the reason there is none.
 */
async function ponderBackfill(
  replay: ReplayNode,
  chain: { chainId: number; head: number; senders: string[] },
): Promise<{ run: PonderRun; requests: number; database: string } | { skipped: string }> {
  if (process.env.EVM_BENCH_PONDER === 'off') return { skipped: 'Ponder not run (EVM_BENCH_PONDER=off)' };
  const missing = ensurePonder();
  if (missing) return { skipped: missing };
  const pgMissing =
    process.env.PONDER_DATABASE === 'pglite' ? 'PONDER_DATABASE=pglite' : postgresUnavailable();
  const cluster = pgMissing ? undefined : await startPostgres();
  try {
    replay.reset();
    const run = await runPonder({
      rpcUrl: replay.url,
      chainId: chain.chainId,
      endBlock: chain.head,
      senders: chain.senders,
      databaseUrl: cluster ? await cluster.createDatabase('ponder') : undefined,
      firstRequestAt: replay.firstRequestAt,
    });
    const requests = Object.values(replay.methods()).reduce((a, b) => a + b, 0);
    return { run, requests, database: cluster ? 'PostgreSQL 15' : `PGlite (${pgMissing})` };
  } catch (e) {
    return { skipped: `Ponder did not complete: ${(e as Error).message}` };
  } finally {
    await cluster?.stop();
  }
}

export async function indexingRate(): Promise<BenchResult[]> {
  const anvil = await startAnvil();
  try {
    const tGen = performance.now();
    const { head, chainId, blocks, senders } = await generateChain(anvil.url);
    const genSeconds = (performance.now() - tGen) / 1000;
    const replay = await startReplayNode(blocks, chainId, anvil.url);
    try {
      const flurry = await flurryBackfill(replay.url, chainId, head);
      const ponder = await ponderBackfill(replay, { chainId, head, senders });
      const totalTransfers = BLOCKS * TRANSFERS_PER_BLOCK;
      const peer = (perSecond: (seconds: number) => number) =>
        'run' in ponder ? { peers: [{ name: 'Ponder', value: perSecond(ponder.run.seconds) }] } : {};
      // Ponder paces its JSON-RPC requests with an adaptive limiter (it starts at 20 requests/s
      // and grows 5% at a time while requests succeed), whatever the node: most of its time is
      // waiting on the chain's data, which the note says by giving its indexing step's share.
      const ponderNote =
        'run' in ponder
          ? `Ponder ${ponder.run.seconds.toFixed(1)} s from its first RPC request to the range indexed ` +
            `(${ponder.run.wallSeconds.toFixed(1)} s from process start) on ${ponder.database}, ` +
            `${ponder.requests} JSON-RPC requests, its indexing step ${ponder.run.indexingSeconds.toFixed(1)} s ` +
            `(the rest waits on RPC data its adaptive limiter paces from 20 req/s); its rows: ` +
            Object.entries(ponder.run.counts)
              .map(([t, n]) => `${t} ${n}`)
              .join(', ')
          : ponder.skipped;
      return [
        {
          name: `EVM backfill: ${head} blocks (${totalTransfers} transfers), SQLite`,
          value: head / flurry.seconds,
          unit: 'blocks/s',
          target: '≥ 5× Ponder',
          ...peer((s) => head / s),
          note: `chain generated on Anvil in ${genSeconds.toFixed(0)} s; Flurry ${flurry.seconds.toFixed(1)} s, ${flurry.partyRows} transfer party rows`,
        },
        {
          name: 'EVM backfill transfers',
          value: totalTransfers / flurry.seconds,
          unit: 'xfers/s',
          target: '≥ 5× Ponder',
          ...peer((s) => totalTransfers / s),
          note: ponderNote,
        },
      ];
    } finally {
      replay.close();
    }
  } finally {
    // The .bin entry is a wrapper that spawns the real binary: end the whole process group.
    process.kill(-anvil.child.pid!, 'SIGKILL');
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function heavyAddressLatency(): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-erc20-'));
  const database = await createDatabase({ dataDir: dir });
  const chainId = 43112;
  const address = '0x00000000000000000000000000000000000a11ce';
  const token = '0x0000000000000000000000000000000000070c3e';
  await recordEvmChain(database.db, {
    blockchain_id: NETWORKS.local.cChainID,
    evm_chain_id: chainId,
    name: 'bench',
    description: '',
    subnet_id: '',
    vm_id: '',
    rpc_url: 'http://127.0.0.1:9',
    ws_url: '',
    token_name: 'Avalanche',
    token_symbol: 'AVAX',
    token_decimals: 18,
    network: 'local',
    is_testnet: 1,
    features: '[]',
    discovered_at: 0,
  });
  await database.db
    .insertInto('evm_contracts')
    .values({
      chain: chainId,
      address: token,
      erc_type: 'ERC-20',
      name: 'Heavy',
      symbol: 'HVY',
      decimals: 18,
      tx_hash: null,
      block_number: null,
      deployer: null,
      deployer_contract: null,
    })
    .execute();
  // Seed through the raw driver: one prepared statement in one transaction.
  const { raw } = openSqlite(database.location);
  const t0 = performance.now();
  const insert = raw.prepare(
    'INSERT INTO evm_token_transfers (chain, address, kind, block_number, log_index, sub_index, tx_hash, block_hash, block_ts, token, from_addr, to_addr, value, token_id) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  raw.exec('BEGIN');
  for (let i = 0; i < HEAVY_ROWS; i++) {
    const block = Math.floor(i / 10);
    const hash = '0x' + i.toString(16).padStart(64, '0');
    const other = '0x' + (i % 5000).toString(16).padStart(40, '0');
    insert.run(
      chainId,
      address,
      'erc20',
      block,
      i % 10,
      hash,
      '0x' + block.toString(16).padStart(64, '0'),
      1_700_000_000 + block,
      token,
      i % 2 ? address : other,
      i % 2 ? other : address,
      String(1000 + i),
      '',
    );
  }
  raw.exec('COMMIT');
  raw.close();
  const seedSeconds = (performance.now() - t0) / 1000;

  const access = parseApiAccessConfig(
    { tiers: { bench: { cuPerMinute: 1e9 } }, anonymous: 'bench' },
    'bench',
  );
  const api = await startDataApi({
    host: '127.0.0.1',
    port: 0,
    network: NETWORKS.local,
    database,
    access,
    version: 'bench',
    extraRoutes: createEvmRoutes({ db: database.db, prices: {} }),
  });
  // The token the service would hand out after page 9,999: the keyset of that page's last row.
  const tokens = createPageTokens(await pageTokenSecret(database.db));
  const lastOfPage9999 = HEAVY_ROWS - 9_999 * 100; // rows are numbered 0..N-1, newest first
  const cursor = [Math.floor(lastOfPage9999 / 10), lastOfPage9999 % 10];
  const deepToken = tokens.issue(['listErc20', chainId, address, null, null], cursor);
  const base = `${api.url}/v1/chains/${chainId}/addresses/${address}/transactions:listErc20?pageSize=100`;
  const urls = { first: base, deep: `${base}&pageToken=${deepToken}` };
  const deepPage = (await (await fetch(urls.deep)).json()) as {
    transactions: unknown[];
    nextPageToken?: string;
  };
  if (deepPage.transactions.length !== 100 || deepPage.nextPageToken !== undefined)
    throw new Error('page 10,000 is not the last full page');
  const times: Record<'first' | 'deep', number[]> = { first: [], deep: [] };
  for (let i = 0; i < 400; i++)
    for (const k of ['first', 'deep'] as const) {
      const t = performance.now();
      const res = await fetch(urls[k]);
      await res.arrayBuffer();
      times[k].push(performance.now() - t);
    }
  await api.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const out: BenchResult[] = [];
  for (const k of ['first', 'deep'] as const) {
    const sorted = times[k].slice(50).sort((a, b) => a - b);
    const label = k === 'first' ? 'page 1' : 'page 10,000';
    out.push({ name: `listErc20, 1M transfers, ${label} p50`, value: percentile(sorted, 50), unit: 'ms' });
    out.push({
      name: `listErc20, 1M transfers, ${label} p99`,
      value: percentile(sorted, 99),
      unit: 'ms',
      ...(k === 'first'
        ? { note: `1,000,000 rows seeded in ${seedSeconds.toFixed(1)} s; HTTP through fastify` }
        : {}),
    });
  }
  return out;
}

/** Time from a block being mined (its transaction's hash returned by the node) to being in the store. */
export async function headLag(): Promise<BenchResult[]> {
  const anvil = await startAnvil(true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-head-'));
  const database = await createDatabase({ dataDir: dir });
  try {
    const rpc = new EvmRpcClient(anvil.url);
    const chainId = Number(BigInt(await rpc.call<string>('eth_chainId')));
    const chain = {
      blockchain_id: 'bench-head',
      evm_chain_id: chainId,
      name: 'anvil',
      description: '',
      subnet_id: '',
      vm_id: '',
      rpc_url: anvil.url,
      ws_url: '',
      token_name: 'Ether',
      token_symbol: 'ETH',
      token_decimals: 18,
      network: 'local',
      is_testnet: 1,
      features: '[]',
      discovered_at: 0,
    };
    await recordEvmChain(database.db, chain);
    const indexer = startEvmChains(database.db, [chain]).get('bench-head')!;
    const [from, to] = await rpc.call<string[]>('eth_accounts');
    const lags: number[] = [];
    for (let i = 0; i < 60; i++) {
      await rpc.call('eth_sendTransaction', [{ from, to, value: '0x1', gas: '0x5208' }]);
      const t = performance.now();
      const head = Number(BigInt(await rpc.call<string>('eth_blockNumber')));
      await indexer.waitFor(head);
      lags.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 37)); // land at varying points of the poll cycle
    }
    await indexer.stop();
    const sorted = lags.slice(5).sort((a, b) => a - b);
    return [
      {
        name: 'EVM head following: mined → indexed, p50',
        value: percentile(sorted, 50),
        unit: 'ms',
        target: '≤ 250',
      },
      {
        name: 'EVM head following: mined → indexed, p99',
        value: percentile(sorted, 99),
        unit: 'ms',
        target: '≤ 250',
      },
    ];
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
    process.kill(-anvil.child.pid!, 'SIGKILL');
  }
}

export async function evmDataBench(): Promise<BenchResult[]> {
  return [...(await indexingRate()), ...(await headLag()), ...(await heavyAddressLatency())];
}
