/**
 * The metrics end-to-end suite again, with the store on PostgreSQL (a throwaway cluster from the
 * test helper): the buckets, the all-time member sets and the cumulative columns are written and
 * read through the other dialect. Skipped, with the reason, where PostgreSQL cannot start here.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('metrics', 'flurry_metrics', () => import('./metrics.test.js'));
