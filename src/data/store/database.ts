/**
 * The one door to the data platform's storage: `createDatabase(config)` opens SQLite (a file
 * `data.db` in the data dir) by default, or PostgreSQL when given a `postgres://` URL, runs the
 * migrations, and hands back one typed kysely instance. Every dialect difference lives in this
 * folder (sqlite.ts, postgres.ts, errors below); queries elsewhere are dialect-free.
 */
import path from 'node:path';
import { Kysely, Migrator, type MigrationProvider } from 'kysely';
import { StoreError } from '../internal/errors.js';
import { MIGRATIONS } from './migrations.js';
import type { DataSchema } from './schema.js';
import { registerFastReader } from './query-cache.js';
import { openSqlite, withWriteLock } from './sqlite.js';

export interface DatabaseConfig {
  /** Directory of the embedded store (`data.db`). */
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; absent selects SQLite. */
  databaseUrl?: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
}

export type DialectKind = 'sqlite' | 'postgres';

export interface DataDatabase {
  readonly kind: DialectKind;
  readonly db: Kysely<DataSchema>;
  /** File path, or the URL with its password hidden: safe to log and print. */
  readonly location: string;
  close(): Promise<void>;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

/** Hides the password of a database URL. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/** Opens the store and brings its schema up to date. */
export async function createDatabase(config: DatabaseConfig): Promise<DataDatabase> {
  let db: Kysely<DataSchema>;
  let kind: DialectKind;
  let location: string;
  let closeReader: (() => void) | undefined;
  // SQLite: one process migrates a store at a time (see withWriteLock); PostgreSQL: kysely's
  // own advisory lock does it.
  let migrateLocked: (db: Kysely<DataSchema>) => Promise<void>;
  if (config.databaseUrl !== undefined && config.databaseUrl !== '') {
    if (!isPostgresUrl(config.databaseUrl))
      throw new StoreError(
        `--database-url must be a postgres:// URL, got "${redactUrl(config.databaseUrl)}"`,
        false,
      );
    // Loaded only for PostgreSQL: the driver is ~40 files no SQLite store needs.
    const { openPostgres } = await import('./postgres.js');
    const { dialect } = openPostgres(config.databaseUrl, config.poolSize);
    db = new Kysely<DataSchema>({ dialect });
    const { textInByteOrder } = await import('./postgres-collation.js');
    migrateLocked = async (db) => {
      await migrate(db);
      await textInByteOrder(db);
    };
    kind = 'postgres';
    location = redactUrl(config.databaseUrl);
  } else {
    const file = path.join(config.dataDir, 'data.db');
    const sqlite = openSqlite(file);
    db = new Kysely<DataSchema>({ dialect: sqlite.dialect });
    if (sqlite.reader) registerFastReader(db, sqlite.reader.read);
    closeReader = sqlite.reader?.close;
    migrateLocked = (db) => withWriteLock(sqlite.raw, () => migrate(db));
    kind = 'sqlite';
    location = file;
  }
  try {
    await migrateLocked(db);
  } catch (err) {
    closeReader?.();
    await db.destroy().catch(() => {});
    throw toStoreError(err, `cannot open the data store at ${location}`);
  }
  let closed = false;
  return {
    kind,
    db,
    location,
    async close() {
      if (closed) return;
      closed = true;
      closeReader?.();
      await db.destroy();
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

async function migrate(db: Kysely<DataSchema>): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (!error) return;
  // kysely calls a store holding a migration this build lacks "corrupted": after an upgrade was
  // rolled back, or beside a newer role on the same database, it is a newer flurry's store.
  const newer = /previously executed migration (\S+) is missing/.exec(
    error instanceof Error ? error.message : '',
  );
  if (newer)
    throw new Error(
      `the store was migrated by a newer flurry (migration ${newer[1]} is not one this version knows); run that version or a newer one`,
    );
  throw error;
}

const RETRYABLE_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin shutdown
  '57P03', // cannot connect now
  '40001', // serialization failure
  '40P01', // deadlock
]);

/**
 * `pg` reports a lost or never-made connection without a code: a server that went away under a
 * pooled client, or a connect that hit `connectionTimeoutMillis` (a host that does not answer).
 */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Codes of a store that is away rather than busy: no connection to be had, or the server
 * shutting down, starting up or in recovery (class 57P, which a restart goes through).
 */
const AWAY_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a failure is the store being away (stopped, restarting, unreachable) and not contention
 * between writers (a deadlock, a serialization failure, SQLite's busy lock), which retrying
 * soon resolves and which is no outage to report.
 */
export function isStoreAway(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: string }).code ?? '';
    if (AWAY_CODES.has(code) || code.startsWith('08') || code.startsWith('57P')) return true;
    if (e instanceof Error && CONNECTION_LOST.test(e.message)) return true;
  }
  return false;
}

/**
 * The code of a store that refuses every write for good, if `err` (or an error it wraps) is one:
 * a SQLite file or mount the process may not write (SQLITE_READONLY and its extended codes), a
 * PostgreSQL hot standby or read-only transaction (25006) or a role without write privilege
 * (42501). Retrying cannot help, unlike an outage.
 */
export function readOnlyStoreCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code.startsWith('SQLITE_READONLY') || code === '25006' || code === '42501')
    )
      return code;
  }
  return undefined;
}

/** Maps a driver error to a StoreError that says whether another attempt may succeed. */
export function toStoreError(err: unknown, message?: string): StoreError {
  if (err instanceof StoreError) return err;
  const code = (err as { code?: string })?.code ?? '';
  const retryable =
    RETRYABLE_CODES.has(code) ||
    // SQLite's extended codes name why a lock was not had (SQLITE_BUSY_SNAPSHOT: another
    // connection committed under this transaction's snapshot; SQLITE_BUSY_RECOVERY): the whole
    // transaction may be tried again, as for plain SQLITE_BUSY.
    /^SQLITE_(BUSY|LOCKED)_/.test(code) ||
    code.startsWith('08') ||
    (code === '' && err instanceof Error && CONNECTION_LOST.test(err.message));
  const text = err instanceof Error ? err.message : String(err);
  return new StoreError(message ? `${message}: ${text}` : text, retryable, { cause: err });
}

/** Runs `fn`, retrying retryable store errors a few times with a short backoff. */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const e = toStoreError(err);
      if (!e.retryable || i + 1 >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    }
  }
}
