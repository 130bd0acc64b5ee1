/**
 * The Subnet-EVM chain data suite (evm-data-subnet.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres(
  'Subnet-EVM chain data',
  'flurry_evm_subnet',
  () => import('./evm-data-subnet.test.js'),
);
