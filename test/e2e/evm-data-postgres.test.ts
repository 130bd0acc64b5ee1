/**
 * The EVM data end-to-end suite again, with the store on PostgreSQL (a throwaway cluster from the
 * test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('EVM data', 'flurry_evm', () => import('./evm-data.test.js'));
