/**
 * The metrics from genesis suite (metrics-genesis.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres(
  'metrics from genesis',
  'flurry_metrics_genesis',
  () => import('./metrics-genesis.test.js'),
);
