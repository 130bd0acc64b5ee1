/**
 * The primary-network chain data suite (data.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('primary-network chain data', 'flurry_primary', () => import('./data.test.js'));
