/**
 * Two indexers started at once on an empty store, their nodes on different networks: one claims
 * the store and the other is refused, on SQLite and on PostgreSQL. Each used to read no network
 * and then write its own, so both went on indexing two networks into one store.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachStore } from '../../../../test/helpers/each-store.js';
import { getMeta } from '../../store/queries/meta.js';
import { NETWORKS } from '../../../shared/networks.js';
import type { IndexedNetwork } from './network.js';
import { checkStoreNetwork } from './primary-indexer.js';

describeEachStore(
  `two indexers of different networks starting at once on one store`,
  'store_network',
  (store) => {
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
      await Promise.all([0, 1].map(() => store().db.selectFrom('meta').selectAll().execute()));
      const outcomes = await Promise.allSettled(networks.map((n) => checkStoreNetwork(store().db, n)));
      const stored = JSON.parse((await getMeta(store().db, 'network'))!) as { networkID: number };
      const accepted = networks.filter((_, i) => outcomes[i]!.status === 'fulfilled');
      assert.deepEqual(
        accepted.map((n) => n.networkID),
        [stored.networkID],
      );
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      assert.match(String(refused.reason), /the data store holds network/);
    });
  },
);
