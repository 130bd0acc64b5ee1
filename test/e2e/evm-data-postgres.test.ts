/**
 * The EVM data end-to-end suite again, with the store on PostgreSQL (a throwaway cluster from the
 * test helper). Skipped, with the reason, where this machine cannot start PostgreSQL.
 */
import { after, test } from 'node:test';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { storeChoice } from '../helpers/evm-data.js';

const reason = postgresUnavailable();
let cluster: PostgresCluster | undefined;

if (reason) {
  test('EVM data on PostgreSQL', { skip: reason }, () => {});
} else {
  storeChoice.databaseUrl = async () => {
    cluster = await startPostgres();
    return cluster.createDatabase('flurry_evm');
  };
  after(async () => {
    await cluster?.stop();
  });
  await import('./evm-data.test.js');
}
