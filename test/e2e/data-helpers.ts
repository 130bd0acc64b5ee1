/**
 * Helpers of the chain-data end-to-end tests: waiting for the indexer, walking chainkit pages,
 * running the `flurry indexer` and `flurry api` roles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { call } from '../helpers/devnet.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/flurry.js');

export interface Role {
  child: ChildProcess;
  /** The JSON line the role printed when ready. */
  facts: any;
  exited: Promise<number | null>;
}

/**
 * Starts `flurry <args> --json` and resolves once it printed its ready line. A role serving
 * metrics gets a free port unless the test names one, so runs side by side never collide on the
 * default 9701.
 */
export async function startRole(args: string[], logLevel = 'warn'): Promise<Role> {
  const servesMetrics = (args[0] === 'api' || args[0] === 'start') && !args.includes('--metrics-port');
  const child = spawn(
    process.execPath,
    [BIN, ...args, ...(servesMetrics ? ['--metrics-port', '0'] : []), '--json'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FLURRY_LOG_LEVEL: logLevel },
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const facts = await new Promise<any>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${stderr}`)));
  });
  return { child, facts, exited };
}

/** Waits until the indexer has read everything the node's X and P indexes hold right now. */
export async function waitIndexed(nodeUrl: string, dataUrl: string): Promise<void> {
  const last = async (name: string) =>
    Number((await call(`${nodeUrl}/ext/index/${name}`, 'index.getLastAccepted', { encoding: 'hex' })).index);
  const want = { 'X/block': await last('X/block'), 'P/block': await last('P/block') };
  for (let i = 0; i < 400; i++) {
    const health = (await (await fetch(`${dataUrl}/v1/health-check`)).json()) as any;
    const cp = health.details.indexer.checkpoints;
    if (cp['X/block'] > want['X/block'] && cp['P/block'] > want['P/block']) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the indexer did not catch up');
}

/** Every item of a chainkit page iterator's `field`, and how many pages it took. */
export async function collectPages<T>(
  pages: AsyncIterable<any>,
  field: string,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    items.push(...(page.result[field] as T[]));
    count++;
  }
  return { items, pages: count };
}
