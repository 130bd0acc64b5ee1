/** Cold start: from spawning `flurry start` on an empty data dir to every API answering. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevnet } from '../test/helpers/devnet.js';
import type { BenchResult } from './index.js';

async function post(url: string, method: string, params: unknown = {}): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown };
    return body.result !== undefined;
  } catch {
    return false;
  }
}

async function once(fresh: boolean, dataDir: string): Promise<number> {
  if (fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  const t0 = performance.now();
  const net = await startDevnet({ dataDir, env: { FLURRY_LOG_LEVEL: 'error' } });
  const base = net.url;
  // Every API that is up must answer (routes that do not exist yet simply fail the check).
  const checks = [
    post(`${base}/ext/info`, 'info.getNetworkID'),
    fetch(`${base}/ext/health`)
      .then((r) => r.ok)
      .catch(() => false),
  ];
  if (!(await Promise.all(checks)).every(Boolean)) throw new Error('an API did not answer');
  const elapsed = performance.now() - t0;
  await net.stop();
  return elapsed;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function startupBench(): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-'));
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) cold.push(await once(true, path.join(dir, 'net')));
  for (let i = 0; i < 5; i++) warm.push(await once(false, path.join(dir, 'net')));
  fs.rmSync(dir, { recursive: true, force: true });
  return [
    {
      name: 'cold start to every API answering (empty data dir, median of 5)',
      value: median(cold),
      unit: 'ms',
      target: '<= 1500 ms',
    },
    {
      name: 'restart to every API answering (existing data dir, median of 5)',
      value: median(warm),
      unit: 'ms',
    },
  ];
}
