/**
 * Ponder, the EVM bench's peer indexer. It is not a project dependency (a clean `npm install` of
 * Flurry stays lean): the app in bench/peers/ponder is installed from the registry the first time
 * the bench needs it. `runPonder` starts `ponder start` on the replay node the Flurry indexer read,
 * over a fresh database, and times its backfill from its first JSON-RPC request until it has
 * indexed the last block with its table indexes built.
 *
 * Version: 0.16.10, the newest release that runs on Node 20 (0.17 requires Node 22; the
 * registry's `1.0.0` is a build of 0.10 published under the wrong number, and `0.0.1` a
 * placeholder).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const APP_DIR = path.resolve(import.meta.dirname, 'peers/ponder');
const BIN = path.join(APP_DIR, 'node_modules/ponder/dist/esm/bin/ponder.js');
const TIMEOUT_MS = 30 * 60_000;

/** Installs the Ponder app's dependencies when absent; the reason it cannot run, or undefined. */
export function ensurePonder(): string | undefined {
  if (fs.existsSync(BIN)) return undefined;
  console.log('  installing the Ponder peer in bench/peers/ponder (once) …');
  const res = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: APP_DIR,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (res.status === 0 && fs.existsSync(BIN)) return undefined;
  const why = (res.stderr || res.stdout || String(res.error ?? '')).trim().split('\n').slice(-3).join(' ');
  return `Ponder not compared: \`npm install\` in bench/peers/ponder failed (${why || `exit ${res.status}`})`;
}

export interface PonderRun {
  /** Seconds from Ponder's first JSON-RPC request to the range indexed. */
  seconds: number;
  /** Seconds from process start to the range indexed (build, database setup and backfill). */
  wallSeconds: number;
  /** Time Ponder reports for running the indexing functions over the fetched ranges. */
  indexingSeconds: number;
  /** Rows per table, read back through the app's `/counts` route. */
  counts: Record<string, number>;
}

export interface PonderOptions {
  rpcUrl: string;
  chainId: number;
  endBlock: number;
  senders: string[];
  /** PostgreSQL database URL; PGlite in a temp dir when absent. */
  databaseUrl?: string;
  /** performance.now() of Ponder's first request to the chain's node. */
  firstRequestAt: () => number | undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = (s.address() as net.AddressInfo) ?? { port: 0 };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Ponder's JSON log lines (`--log-format json`): the time its indexing step took, and the last
 * warnings and errors, in short, for the reason a run failed. PONDER_BENCH_LOG names a file to
 * copy the whole log to, for looking into a run.
 */
class PonderLog {
  indexingMs = 0;
  private partial = '';
  private readonly warnings: string[] = [];

  constructor(private readonly file?: string) {}

  add(chunk: Buffer): void {
    if (this.file) fs.appendFileSync(this.file, chunk);
    const lines = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      let entry: {
        level?: number;
        msg?: string;
        duration?: number;
        error?: { shortMessage?: string; message?: string; details?: string };
      };
      try {
        entry = JSON.parse(line);
      } catch {
        if (line.trim()) this.warnings.push(line.trim().slice(0, 300));
        continue;
      }
      if (entry.msg === 'Indexed block range' || entry.msg === 'Indexed block')
        this.indexingMs += entry.duration ?? 0;
      if ((entry.level ?? 0) >= 40) {
        const e = entry.error;
        const why = e ? `: ${(e.details ?? e.shortMessage ?? e.message ?? '').split('\n')[0]}` : '';
        this.warnings.push(`${entry.msg}${why}`);
      }
    }
    this.warnings.splice(0, Math.max(0, this.warnings.length - 5));
  }

  lastWarnings(): string {
    return this.warnings.join(' | ') || 'no warning logged';
  }
}

/**
 * Whether Ponder has indexed the whole range: `/ready` once its backfill is done and its table
 * indexes are built, and `/status` at the last block (blocks Ponder deems unfinalised come after
 * `/ready`, through its live sync).
 */
async function indexedThrough(base: string, endBlock: number): Promise<boolean> {
  try {
    if ((await fetch(`${base}/ready`)).status !== 200) return false;
    const status = (await (await fetch(`${base}/status`)).json()) as Record<
      string,
      { block?: { number: number } }
    >;
    return Object.values(status).some((c) => (c.block?.number ?? -1) >= endBlock);
  } catch {
    return false; // not listening yet
  }
}

export async function runPonder(o: PonderOptions): Promise<PonderRun> {
  const port = await freePort();
  const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-ponder-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      BIN,
      'start',
      '--port',
      String(port),
      '--hostname',
      '127.0.0.1',
      '--schema',
      'bench',
      '--log-format',
      'json',
    ],
    {
      cwd: APP_DIR,
      env: {
        ...process.env,
        PONDER_RPC_URL: o.rpcUrl,
        PONDER_CHAIN_ID: String(o.chainId),
        PONDER_END_BLOCK: String(o.endBlock),
        PONDER_SENDERS: o.senders.join(','),
        PONDER_PGLITE_DIR: pgliteDir,
        DATABASE_URL: o.databaseUrl ?? '',
        PONDER_TELEMETRY_DISABLED: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: Ponder's build step starts helper processes of its own.
      detached: true,
    },
  );
  const log = new PonderLog(process.env.PONDER_BENCH_LOG);
  child.stdout.on('data', (c: Buffer) => log.add(c));
  child.stderr.on('data', (c: Buffer) => log.add(c));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const base = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (exited !== undefined) throw new Error(`ponder exited (${exited}): ${log.lastWarnings()}`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error('ponder did not finish in 30 minutes');
      if (await indexedThrough(base, o.endBlock)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const done = performance.now();
    const counts = (await (await fetch(`${base}/counts`)).json()) as Record<string, number>;
    const first = o.firstRequestAt() ?? started;
    return {
      seconds: (done - first) / 1000,
      wallSeconds: (done - started) / 1000,
      indexingSeconds: log.indexingMs / 1000,
      counts,
    };
  } finally {
    if (exited === undefined) {
      const gone = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);
      if (exited === undefined) process.kill(-child.pid!, 'SIGKILL');
    }
    fs.rmSync(pgliteDir, { recursive: true, force: true });
  }
}
