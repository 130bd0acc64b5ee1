/**
 * P-chain figures: BaseTxs accepted per second (a burst of independent signed txs issued with
 * bounded concurrency; `platform.issueTx` answers once the tx's block is accepted), and the
 * latency of `platform.getValidatorsAt` at a past height on a network with 1,000 validators; then
 * the per-block cost of 1,000 active L1 validators, timed in-process (pchain-l1.ts).
 *
 * The burst stays within the ACP-103 gas capacity (1,000,000 gas, about 190 BaseTxs); beyond it a
 * real P-chain — and this one — refuses txs until capacity refills at 100,000 gas/s.
 */
import fs from 'node:fs';
import { pvm } from '@avalabs/avalanchejs';
import { startDevnet } from '../test/helpers/devnet.js';
import type { BenchResult } from './index.js';
import { pchainL1Bench } from './pchain-l1.js';
import { BURST, issuePTxs, preparePBaseTxs } from './pchain-txs.js';

const CONCURRENCY = 16;
const VALIDATORS = 1000;
const QUERIES = 50;

async function post(url: string, method: string, params: unknown = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function pchainBench(): Promise<BenchResult[]> {
  const devnet = await startDevnet({
    args: ['--validators', String(VALIDATORS)],
    // e.g. FLURRY_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the node
    nodeOptions: (process.env.FLURRY_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    env: { FLURRY_LOG_LEVEL: 'error' },
  });
  try {
    const url = devnet.url;
    const pUrl = `${url}/ext/bc/P`;
    const api = new pvm.PVMApi(url);
    const signed = await preparePBaseTxs(url, BURST);
    const heightBefore = Number((await api.getHeight()).height);
    const t0 = performance.now();
    await issuePTxs(url, signed, CONCURRENCY);
    const seconds = (performance.now() - t0) / 1000;
    const heightAfter = Number((await api.getHeight()).height);

    const pastHeight = 1;
    const latencies: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const q0 = performance.now();
      const r = await post(pUrl, 'platform.getValidatorsAt', { height: pastHeight });
      latencies.push(performance.now() - q0);
      if (Object.keys(r.validators).length !== VALIDATORS) throw new Error('unexpected validator count');
    }
    const allLatencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const q0 = performance.now();
      await post(pUrl, 'platform.getAllValidatorsAt', { height: pastHeight });
      allLatencies.push(performance.now() - q0);
    }
    return [
      {
        name: 'P-chain BaseTxs accepted per second',
        value: signed.length / seconds,
        unit: 'tx/s',
        note: `${signed.length} txs in ${heightAfter - heightBefore} blocks, ${CONCURRENCY} in flight`,
      },
      {
        name: `getValidatorsAt(height ${pastHeight}) with ${VALIDATORS} validators, median`,
        value: median(latencies),
        unit: 'ms',
        note: `${heightAfter - pastHeight} blocks above`,
      },
      {
        name: `getAllValidatorsAt(height ${pastHeight}) canonical sets, median`,
        value: median(allLatencies),
        unit: 'ms',
      },
      ...pchainL1Bench(),
    ];
  } finally {
    await devnet.stop();
    fs.rmSync(devnet.dataDir, { recursive: true, force: true });
  }
}
