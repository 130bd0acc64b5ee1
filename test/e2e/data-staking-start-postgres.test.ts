/**
 * The staking start suite (data-staking-start.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('staking start', 'flurry_staking_start', () => import('./data-staking-start.test.js'));
