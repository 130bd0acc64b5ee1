/**
 * The metrics of counted activity suite (metrics-activity.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres(
  'metrics of counted activity',
  'flurry_metrics_activity',
  () => import('./metrics-activity.test.js'),
);
