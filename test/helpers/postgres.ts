/**
 * A throwaway PostgreSQL 15 cluster for tests: `initdb` in a temp dir, `pg_ctl start` on a free
 * loopback port, trust auth, fsync off (tests need no durability across power loss). initdb
 * refuses to run as root, so as root (CI) the cluster runs as the `postgres` system user through
 * `runuser`. Where the binaries or that user are missing, `postgresUnavailable()` says why and
 * callers skip with that reason.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { after, test } from 'node:test';

const BIN_DIRS = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'];

function binDir(): string | undefined {
  return BIN_DIRS.find((d) => fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl')));
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function systemUserExists(name: string): boolean {
  return spawnSync('id', ['-u', name]).status === 0;
}

/** Why this machine cannot start a PostgreSQL cluster, or undefined when it can. */
export function postgresUnavailable(): string | undefined {
  if (!binDir()) return `PostgreSQL server binaries not found in ${BIN_DIRS.join(', ')}`;
  if (isRoot() && (!systemUserExists('postgres') || !fs.existsSync('/usr/sbin/runuser')))
    return 'running as root without a "postgres" system user and runuser: initdb refuses to run as root';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  /** URL of the cluster's `postgres` database. */
  readonly url: string;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

function run(cmd: string, args: string[]): string {
  const full = isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return execFileSync(full[0] as string, full[1] as string[], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startPostgres(): Promise<PostgresCluster> {
  const reason = postgresUnavailable();
  if (reason) throw new Error(reason);
  const bin = binDir()!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-pg-'));
  fs.chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  if (isRoot()) execFileSync('chown', ['postgres', dir]);
  run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    async createDatabase(name: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Where an end-to-end suite's store lives when a test does not say: SQLite unless a PostgreSQL
 * variant of the suite sets `databaseUrl` (see `againOnPostgres`). Suites that start `flurry`
 * pass it on with `storeArgs()`.
 */
export const storeChoice: { databaseUrl?: () => Promise<string> } = {};

/**
 * Runs an end-to-end suite (its module loaded by `load`) again with the store on a fresh database
 * of a throwaway PostgreSQL cluster; where PostgreSQL cannot start here, one skipped test names why.
 */
export async function againOnPostgres(suite: string, database: string, load: () => Promise<unknown>) {
  const reason = postgresUnavailable();
  if (reason) {
    test(`${suite} on PostgreSQL`, { skip: reason }, () => {});
    return;
  }
  let cluster: PostgresCluster | undefined;
  storeChoice.databaseUrl = async () => {
    cluster = await startPostgres();
    return cluster.createDatabase(database);
  };
  await load();
  // Registered after the suite's own hooks, so the cluster stops once the suite has let go of it.
  after(async () => {
    await cluster?.stop();
  });
}

/** `flurry` arguments putting the data store where `storeChoice` says (none for SQLite). */
export async function storeArgs(): Promise<string[]> {
  return storeChoice.databaseUrl ? ['--database-url', await storeChoice.databaseUrl()] : [];
}
