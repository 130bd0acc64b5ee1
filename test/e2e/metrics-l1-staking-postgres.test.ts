/**
 * The L1 staking metrics suite again, with the store on PostgreSQL (a throwaway cluster from the
 * test helper): the L1 validations' weight history is written and read through the other dialect.
 * Skipped, with the reason, where PostgreSQL cannot start here.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres(
  'metrics-l1-staking',
  'flurry_metrics_l1_staking',
  () => import('./metrics-l1-staking.test.js'),
);
