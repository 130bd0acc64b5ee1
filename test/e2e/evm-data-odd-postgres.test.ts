/**
 * The odd-EVM-activity suite again with the store on PostgreSQL, whose text columns refuse what
 * SQLite takes (a NUL character in a token's name). Skipped, with the reason, where this machine
 * cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('odd EVM data', 'flurry_evm_odd', () => import('./evm-data-odd.test.js'));
