/**
 * Registers a store-level suite once per store: SQLite in a temp dir, and PostgreSQL on a
 * throwaway cluster (skipped, with the reason, where this machine cannot start one). The suite
 * reads the open database through `store()` in its hooks and tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import { createDatabase, type DataDatabase } from '../../src/data/store/database.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from './postgres.js';

export function describeEachStore(
  title: string,
  /** Names the temp dir and the PostgreSQL database (letters, digits, underscores). */
  name: string,
  suite: (store: () => DataDatabase) => void,
): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const skip = kind === 'postgres' ? postgresUnavailable() : undefined;
    describe(`${title} (${kind})`, { skip }, () => {
      let cluster: PostgresCluster | undefined;
      let database: DataDatabase | undefined;
      before(async () => {
        if (kind === 'postgres') cluster = await startPostgres();
        database = await createDatabase({
          dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `flurry-${name}-`)),
          databaseUrl: await cluster?.createDatabase(name),
        });
      });
      after(async () => {
        await database?.close();
        await cluster?.stop();
      });
      suite(() => database!);
    });
  }
}
