/**
 * Two indexers started at once on an empty store, their nodes on different networks: one claims
 * the store and the other is refused, on SQLite and on PostgreSQL. Each used to read no network
 * and then write its own, so both went on indexing two networks into one store.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  postgresUnavailable,
  startPostgres,
  type PostgresCluster,
} from '../../../../test/helpers/postgres.js';
import { createDatabase, type DataDatabase } from '../../store/database.js';
import { getMeta } from '../../store/queries/meta.js';
import { NETWORKS } from '../../../shared/networks.js';
import type { IndexedNetwork } from './network.js';
import { checkStoreNetwork } from './primary-indexer.js';

for (const kind of ['sqlite', 'postgres'] as const) {
  const skip = kind === 'postgres' ? postgresUnavailable() : undefined;
  describe(`two indexers of different networks starting at once on one store (${kind})`, { skip }, () => {
    let cluster: PostgresCluster | undefined;
    let database: DataDatabase;

    before(async () => {
      if (kind === 'postgres') cluster = await startPostgres();
      database = await createDatabase({
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-store-network-')),
        databaseUrl: await cluster?.createDatabase('store_network'),
      });
    });
    after(async () => {
      await database?.close();
      await cluster?.stop();
    });

    it('lets the first claim the store and refuses the other', async () => {
      const networks: IndexedNetwork[] = [NETWORKS.fuji, NETWORKS.mainnet].map((n) => ({
        name: n.name,
        networkID: n.networkID,
        hrp: n.hrp,
        pChainID: n.pChainID,
        xChainID: n.xChainID,
        cChainID: n.cChainID,
        avaxAssetID: n.avaxAssetID,
      }));
      // Two connections open, so each indexer's read goes out before either's write.
      await Promise.all([0, 1].map(() => database.db.selectFrom('meta').selectAll().execute()));
      const outcomes = await Promise.allSettled(networks.map((n) => checkStoreNetwork(database.db, n)));
      const stored = JSON.parse((await getMeta(database.db, 'network'))!) as { networkID: number };
      const accepted = networks.filter((_, i) => outcomes[i]!.status === 'fulfilled');
      assert.deepEqual(
        accepted.map((n) => n.networkID),
        [stored.networkID],
      );
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      assert.match(String(refused.reason), /the data store holds network/);
    });
  });
}
