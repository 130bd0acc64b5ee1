/**
 * The primary-network suite of the chain-data service (data.test.ts) on PostgreSQL: the same
 * cases against a cluster the suite starts itself, skipped with the reason where the machine
 * has no PostgreSQL server.
 */
process.env.FLURRY_TEST_DATA_STORE = 'postgres';
await import('./data.test.js');

export {};
