/**
 * Helpers of the chain-data end-to-end tests: waiting for the indexer, walking chainkit pages,
 * running the `flurry indexer` and `flurry api` roles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { rpc } from '../helpers/devnet.js';

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
  const last = (name: string) => lastIndex(`${nodeUrl}/ext/index/${name}`);
  const want = { 'X/block': await last('X/block'), 'P/block': await last('P/block') };
  for (let i = 0; i < 400; i++) {
    const health = (await (await fetch(`${dataUrl}/v1/health-check`)).json()) as any;
    const cp = health.details.indexer.checkpoints;
    // A source that has read nothing has no checkpoint yet (0); the genesis blocks, written last
    // of what genesis created, say the genesis rows are in.
    if (
      (cp['X/block'] ?? 0) > want['X/block'] &&
      (cp['P/block'] ?? 0) > want['P/block'] &&
      cp['X/genesis-block'] > 0 &&
      cp['P/genesis-block'] > 0
    )
      return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the indexer did not catch up');
}

/**
 * Position of an index's last container, -1 while it is empty (a fresh devnet's X and P block
 * indexes are: no genesis block is indexed, as on the reference node).
 */
export async function lastIndex(indexUrl: string): Promise<number> {
  const { body } = await rpc(indexUrl, 'index.getLastAccepted', { encoding: 'hex' });
  if (body.error?.message === 'no containers have been accepted') return -1;
  if (body.error) throw new Error(`index.getLastAccepted: ${body.error.message}`);
  return Number(body.result.index);
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
