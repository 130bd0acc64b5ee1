/**
 * Starts the real `flurry` binary on free ports in a temporary data dir and reads the JSON line
 * it prints when ready, as a script or a new user would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { ReadyFacts } from '../../src/cli/banner.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/flurry.js');

export interface Devnet {
  readonly facts: ReadyFacts;
  readonly url: string;
  readonly dataDir: string;
  readonly process: ChildProcess;
  /** SIGTERM and wait for a clean exit; resolves the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** What the process wrote to stderr so far (its log at FLURRY_LOG_LEVEL, warn by default). */
  stderr(): string;
}

export interface DevnetOptions {
  dataDir?: string;
  /** The role to run: every service (`start`, the default) or the node alone (`node`). */
  command?: 'start' | 'node';
  args?: string[];
  /** Options for node itself, before the script (e.g. `--cpu-prof`). */
  nodeOptions?: string[];
  env?: Record<string, string>;
}

export function tempDir(prefix = 'flurry-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const dataDir = options.dataDir ?? tempDir();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeOptions ?? []),
      BIN,
      options.command ?? 'start',
      '--json',
      '--node-port',
      '0',
      // The node alone serves no data ports (and refuses their flags).
      ...(options.command === 'node' ? [] : ['--data-port', '0', '--metrics-port', '0']),
      '--data-dir',
      dataDir,
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLURRY_LOG_LEVEL: 'warn', ...options.env } },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const facts = await new Promise<ReadyFacts>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`devnet did not start in 60 s: ${stderr}`)), 60_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as ReadyFacts);
      } catch {
        reject(new Error(`unexpected first line: ${line}\n${stderr}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited with ${code} before ready: ${stderr}`));
    });
  });
  return {
    facts,
    url: facts.urls.node,
    dataDir,
    process: child,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
    stderr: () => stderr,
    async kill() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One raw JSON-RPC call; returns the parsed body and the HTTP status. */
export async function rpc(
  url: string,
  method: string,
  params?: unknown,
  id: number | string = 1,
): Promise<{ status: number; body: any }> {
  const payload: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (params !== undefined) payload.params = params;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The `result` of a JSON-RPC call; throws with the node's message on an error. */
export async function call<T = any>(url: string, method: string, params?: unknown): Promise<T> {
  const { body } = await rpc(url, method, params);
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
