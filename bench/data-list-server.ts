/**
 * The server of the list throughput figures: the chain-data REST app over the 1,000,000-UTXO
 * store plus a bare hello-world route, in `workers` processes sharing one port (node:cluster,
 * as `flurry api --workers N` runs). Run as
 *   node --import tsx bench/data-list-server.ts <store dir> <workers> [memo-read]
 * it prints one JSON line `{port, token, pids}` once every worker serves (token: the page token of
 * page 10,000; pids: the workers', whose CPU time the bench reads), and stops its workers on SIGTERM.
 */
import cluster from 'node:cluster';
import { utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { NETWORKS } from '../src/shared/networks.js';
import { parseApiAccessConfig } from '../src/data/api/api-keys.js';
import { buildDataApp } from '../src/data/api/app.js';
import { createRateLimiter } from '../src/data/api/rate-limiter.js';
import { createRouteDeps } from '../src/data/api/server.js';
import { createDatabase } from '../src/data/store/database.js';

const [dir, workersArg, mode] = process.argv.slice(2);
const memoRead = mode === 'memo-read';
const workers = Math.max(1, Number(workersArg ?? 1));

/** The owner of every row of the bench store. */
const LIST_ADDRESS = utils.formatBech32('fuji', new Uint8Array(20).fill(1));

async function serve(): Promise<void> {
  const database = await createDatabase({ dataDir: dir });
  const access = parseApiAccessConfig(
    { anonymous: 'bench', tiers: { bench: { cuPerMinute: 1_000_000_000 } } },
    'bench',
  );
  const deps = await createRouteDeps({ network: NETWORKS.fuji, database });
  if (memoRead) {
    // The diagnostic ceiling: the route's page read (query and UTXO documents) answered from
    // memory after its first run, so the figure is what HTTP, validation, tokens and the route
    // cost alone.
    const read = deps.repo.utxos.bind(deps.repo);
    let memo: ReturnType<typeof read> | undefined;
    deps.repo.utxos = (q) => (memo ??= read(q));
  }
  const app = await buildDataApp({ deps, access, limiter: createRateLimiter(), version: 'bench' });
  app.get(
    '/hello',
    { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } },
    async () => ({ hello: 'world' }),
  );
  // Port 0 in every worker: the cluster hands them all the same listening socket.
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  // The cursor after row 99,990 (rows are in timestamp order): page 10,000 of size 10.
  const scope = [
    'utxos',
    NETWORKS.fuji.pChainID,
    [LIST_ADDRESS],
    undefined,
    undefined,
    false,
    'timestamp',
    'asc',
  ];
  const deepRow = 10 * 9_999 - 1;
  const deepId = utils.base58check.encode(
    sha256(new Uint8Array([deepRow & 255, (deepRow >> 8) & 255, (deepRow >> 16) & 255, 7])),
  );
  const token = deps.tokens.issue(scope, { key: 1_700_000_000 + deepRow, id: deepId });
  process.send!({ port, token, pid: process.pid });
  process.once('SIGTERM', () => {
    void app.close().then(() => database.close().then(() => process.exit(0)));
  });
}

if (cluster.isWorker) await serve();
else {
  const pids: number[] = [];
  cluster.on('message', (_worker, message: { port: number; token: string; pid: number }) => {
    pids.push(message.pid);
    if (pids.length === workers)
      process.stdout.write(JSON.stringify({ port: message.port, token: message.token, pids }) + '\n');
  });
  cluster.on('exit', (_worker, code) => {
    if (code !== 0) process.exit(1);
  });
  for (let i = 0; i < workers; i++) cluster.fork();
  process.once('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
}
