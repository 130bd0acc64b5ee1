/**
 * The NFT metadata suite (evm-data-nft.test.ts) again, with the store on PostgreSQL (a throwaway cluster
 * from the test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { againOnPostgres } from '../helpers/postgres.js';

await againOnPostgres('NFT metadata', 'flurry_nft', () => import('./evm-data-nft.test.js'));
