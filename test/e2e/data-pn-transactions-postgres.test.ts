/**
 * The primary-network transactions suite (data-pn-transactions.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres(
  'primary-network transactions',
  'flurry_pn_txs',
  () => import('./data-pn-transactions.test.js'),
);
