/**
 * The primary-network blocks suite (data-pn-blocks.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('primary-network blocks', 'flurry_pn_blocks', () => import('./data-pn-blocks.test.js'));
