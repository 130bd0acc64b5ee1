/**
 * `npm run bench -- evm`: the C-chain side by side with Anvil and Hardhat's node, in one run,
 * each a separate process on a loopback port, all driven the same way through JSON-RPC:
 * native transfers/s (a first batch, then the next with the peer warmed up) and ERC-20
 * transfers/s (pre-signed txs through eth_sendRawTransaction, 8 in flight, until the last
 * receipt), eth_call latency (ERC-20 balanceOf), and eth_getLogs over 10,000 blocks (Flurry
 * fills its chain with real blocks; the peers pad with their mine RPCs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { encodeFunctionData, parseGwei, type Abi, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startDevnet } from '../test/helpers/devnet.js';
import type { BenchResult } from './index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const N_TRANSFERS = Number(process.env.EVM_BENCH_TXS ?? 1000);
const LOG_BLOCKS = 10_000;
const IN_FLIGHT = 8;
/** How long the last tx of a throughput run may take to be mined before the peer is given up. */
const RECEIPT_TIMEOUT_MS = 120_000;
/** Which peers run (e.g. `flurry` alone while profiling); all by default. */
const PEERS = (process.env.EVM_BENCH_PEERS ?? 'flurry,anvil,hardhat').split(',');
/** `EVM_BENCH_LOGS=off` skips the 10,000-block eth_getLogs figure (its padding takes minutes). */
const LOGS = process.env.EVM_BENCH_LOGS !== 'off';
/**
 * `EVM_BENCH_COMMAND=node` runs the node alone; by default (`start`) the data service runs in the
 * same process and indexes every block the bench makes while it is measured.
 */
const COMMAND = process.env.EVM_BENCH_COMMAND === 'node' ? 'node' : 'start';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
/** The first well-known dev key of Anvil and Hardhat. */
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Token {
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor() { balanceOf[msg.sender] = 1e30; }
  function transfer(address to, uint256 value) external returns (bool) {
    require(balanceOf[msg.sender] >= value, "insufficient balance");
    balanceOf[msg.sender] -= value; balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }
}`;

function compileToken(): { abi: Abi; bytecode: Hex } {
  const solc = require('solc');
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'T.sol': { content: TOKEN } },
        settings: {
          evmVersion: 'cancun',
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  );
  const c = out.contracts['T.sol'].Token;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

let rpcId = 0;
async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function waitRpc(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`peer exited with ${child.exitCode}`);
    try {
      await call(url, 'eth_chainId');
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

interface Peer {
  name: string;
  url: string;
  key: Hex;
  /** Sends in flight at once (Hardhat's automine refuses nonce gaps, so it gets one). */
  inFlight?: number;
  /** Pads the chain to at least `height` blocks. */
  padTo(height: number): Promise<void>;
  stop(): void;
}

async function startFlurry(): Promise<Peer> {
  const devnet = await startDevnet({
    command: COMMAND,
    env: { FLURRY_LOG_LEVEL: 'error' },
    // e.g. FLURRY_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the node.
    nodeOptions: (process.env.FLURRY_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  });
  const url = devnet.facts.urls.cChainRpc;
  return {
    name: 'flurry',
    url,
    key: EWOQ_KEY,
    async padTo(height) {
      // Real blocks: one cheap self-transfer each, sent one after the other.
      const account = privateKeyToAccount(EWOQ_KEY);
      let n = Number(await call(url, 'eth_blockNumber'));
      let nonce = Number(await call(url, 'eth_getTransactionCount', [account.address, 'latest']));
      while (n < height) {
        const raw = await account.signTransaction({
          to: account.address,
          value: 0n,
          gas: 21000n,
          nonce: nonce++,
          chainId: 43112,
          type: 'eip1559',
          maxFeePerGas: parseGwei('1'),
          maxPriorityFeePerGas: 1n,
        });
        const hash = await call(url, 'eth_sendRawTransaction', [raw]);
        while (!(await call(url, 'eth_getTransactionReceipt', [hash])))
          await new Promise((r) => setTimeout(r, 1));
        n++;
      }
    },
    stop() {
      void devnet.stop().then(() => fs.rmSync(devnet.dataDir, { recursive: true, force: true }));
    },
  };
}

async function startAnvil(): Promise<Peer> {
  const port = await freePort();
  const child = spawn(
    path.join(ROOT, 'node_modules/.bin/anvil'),
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      '43112',
      '--silent',
      '--hardfork',
      'cancun',
      '--gas-limit',
      '100000000',
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitRpc(url, child);
  return {
    name: 'anvil',
    url,
    key: DEV_KEY,
    async padTo(height) {
      const n = Number(await call(url, 'eth_blockNumber'));
      if (n < height) await call(url, 'anvil_mine', ['0x' + (height - n).toString(16)]);
    },
    stop: () => void child.kill('SIGTERM'),
  };
}

async function startHardhat(): Promise<Peer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-hardhat-'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(
    path.join(dir, 'hardhat.config.cjs'),
    `module.exports = { networks: { hardhat: { chainId: 43112, hardfork: 'cancun', blockGasLimit: 100000000 } } };\n`,
  );
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"bench-hardhat","private":true}\n');
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/hardhat/internal/cli/bootstrap.js'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitRpc(url, child);
  return {
    name: 'hardhat',
    url,
    inFlight: 1,
    key: DEV_KEY,
    async padTo(height) {
      const n = Number(await call(url, 'eth_blockNumber'));
      if (n < height) await call(url, 'hardhat_mine', ['0x' + (height - n).toString(16)]);
    },
    stop() {
      child.kill('SIGTERM');
      setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 2000).unref();
    },
  };
}

/** Sends pre-signed txs with a few in flight, then waits for the last receipt; returns tx/s. */
async function throughput(url: string, raws: Hex[], inFlight = IN_FLIGHT): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  const hashes: string[] = new Array(raws.length);
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < raws.length) {
        const i = next++;
        hashes[i] = await call(url, 'eth_sendRawTransaction', [raws[i]]);
      }
    }),
  );
  // A peer whose pool never mines the last tx (seen with Anvil: txs sent out of nonce order left
  // queued behind a gap) fails its figures after a while instead of hanging the whole bench.
  const deadline = performance.now() + RECEIPT_TIMEOUT_MS;
  while (!(await call(url, 'eth_getTransactionReceipt', [hashes[hashes.length - 1]]))) {
    if (performance.now() > deadline)
      throw new Error(
        `${url}: the last of ${raws.length} txs was not mined within ${RECEIPT_TIMEOUT_MS / 1000} s`,
      );
    await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = (performance.now() - t0) / 1000;
  const last = await call(url, 'eth_getTransactionReceipt', [hashes[hashes.length - 1]]);
  if (last.status !== '0x1') throw new Error(`${url}: last tx failed`);
  return raws.length / seconds;
}

function median(sorted: number[]): number {
  return sorted[Math.floor(sorted.length / 2)];
}

interface PeerFigures {
  transfers: number;
  /** The next batch of native transfers, right after the first. */
  warmTransfers: number;
  erc20: number;
  callMs: number;
  logsMs: number;
  logs: number;
}

async function measure(peer: Peer, token: { abi: Abi; bytecode: Hex }): Promise<PeerFigures> {
  const account: PrivateKeyAccount = privateKeyToAccount(peer.key);
  const baseFee = BigInt(await call(peer.url, 'eth_gasPrice'));
  const fees = { maxFeePerGas: baseFee * 3n + parseGwei('1'), maxPriorityFeePerGas: parseGwei('1') };
  let nonce = Number(await call(peer.url, 'eth_getTransactionCount', [account.address, 'latest']));
  const sign = (tx: Record<string, unknown>) =>
    account.signTransaction({ chainId: 43112, type: 'eip1559', nonce: nonce++, ...fees, ...tx } as any);

  const nativeBatch = async (offset: number) => {
    const raws: Hex[] = [];
    for (let i = 0; i < N_TRANSFERS; i++) {
      const to = ('0x' + (0x100000n + BigInt(offset + i)).toString(16).padStart(40, '0')) as Hex;
      raws.push(await sign({ to, value: 1n, gas: 21000n }));
    }
    return raws;
  };
  // The first batch is the peer's first work (a JavaScript peer's JIT still warming up, as in a
  // short script); the second, to fresh recipients too, shows the peer warmed up. Both are kept.
  const tps = await throughput(peer.url, await nativeBatch(0), peer.inFlight);
  const warmTps = await throughput(peer.url, await nativeBatch(N_TRANSFERS), peer.inFlight);

  const deploy = await sign({ data: token.bytecode, gas: 1_000_000n });
  const deployHash = await call(peer.url, 'eth_sendRawTransaction', [deploy]);
  let receipt: any;
  while (!(receipt = await call(peer.url, 'eth_getTransactionReceipt', [deployHash])))
    await new Promise((r) => setTimeout(r, 10));
  const address = receipt.contractAddress as Hex;
  const erc20: Hex[] = [];
  for (let i = 0; i < N_TRANSFERS; i++) {
    const to = ('0x' + (0x200000n + BigInt(i)).toString(16).padStart(40, '0')) as Hex;
    erc20.push(
      await sign({
        to: address,
        gas: 80_000n,
        data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [to, 1n] }),
      }),
    );
  }
  const erc20Tps = await throughput(peer.url, erc20, peer.inFlight);

  const data = encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [account.address] });
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    await call(peer.url, 'eth_call', [{ to: address, data }, 'latest']);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);

  if (!LOGS)
    return {
      transfers: tps,
      warmTransfers: warmTps,
      erc20: erc20Tps,
      callMs: median(samples),
      logsMs: NaN,
      logs: 0,
    };
  await peer.padTo(LOG_BLOCKS);
  const head = Number(await call(peer.url, 'eth_blockNumber'));
  const from = Math.max(0, head - LOG_BLOCKS + 1);
  const logTimes: number[] = [];
  let logs = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const got = await call(peer.url, 'eth_getLogs', [
      { address, fromBlock: '0x' + from.toString(16), toBlock: '0x' + head.toString(16) },
    ]);
    logTimes.push(performance.now() - t);
    logs = got.length;
  }
  logTimes.sort((a, b) => a - b);
  return {
    transfers: tps,
    warmTransfers: warmTps,
    erc20: erc20Tps,
    callMs: median(samples),
    logsMs: logTimes[2],
    logs,
  };
}

export async function evmBench(): Promise<BenchResult[]> {
  const token = compileToken();
  const figures = new Map<string, PeerFigures>();
  const starters = { flurry: startFlurry, anvil: startAnvil, hardhat: startHardhat };
  for (const [name, start] of Object.entries(starters)) {
    if (!PEERS.includes(name)) continue;
    let peer: Peer | undefined;
    try {
      peer = await start();
      figures.set(peer.name, await measure(peer, token));
    } catch (err) {
      console.error(`  (${start.name}: ${(err as Error).message})`);
    } finally {
      peer?.stop();
    }
  }
  const ours = figures.get('flurry');
  if (!ours) throw new Error('the Flurry C-chain could not be measured');
  const peersOf = (pick: (f: PeerFigures) => number) =>
    [...figures].filter(([n]) => n !== 'flurry').map(([name, f]) => ({ name, value: pick(f) }));
  const results: BenchResult[] = [
    {
      name: `native transfers via eth_sendRawTransaction (${N_TRANSFERS}, ${IN_FLIGHT} in flight)`,
      value: ours.transfers,
      unit: 'tx/s',
      target: 'match anvil',
      peers: peersOf((f) => f.transfers),
    },
    {
      name: `  the next ${N_TRANSFERS} native transfers (peer warmed up)`,
      value: ours.warmTransfers,
      unit: 'tx/s',
      target: 'match anvil',
      peers: peersOf((f) => f.warmTransfers),
    },
    {
      name: `ERC-20 transfers via eth_sendRawTransaction (${N_TRANSFERS})`,
      value: ours.erc20,
      unit: 'tx/s',
      target: 'match anvil',
      peers: peersOf((f) => f.erc20),
    },
    {
      name: 'eth_call latency (ERC-20 balanceOf, median of 300)',
      value: ours.callMs,
      unit: 'ms',
      peers: peersOf((f) => f.callMs),
      note: 'lower is better',
    },
    {
      name: `eth_getLogs over ${LOG_BLOCKS} blocks (${ours.logs} logs, median of 5)`,
      value: ours.logsMs,
      unit: 'ms',
      peers: peersOf((f) => f.logsMs),
      note: 'lower is better',
    },
  ];
  return LOGS ? results : results.slice(0, 4);
}
