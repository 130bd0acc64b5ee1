/**
 * Page walks on a PostgreSQL database whose default collation is a language's (ICU `en-US`, what
 * many installations create databases with), not byte order. Ids that break ties between equal
 * sort keys are mixed-case cb58: such a collation orders them differently from byte order, and a
 * list that merges rows or compares cursors in byte order while the database orders them its own
 * way repeats some rows and skips others. Here UTXOs with equal amounts and equal block times,
 * some spent and some not, are walked with `includeSpent` (two index ranges merged per page) a
 * few per page through chainkit: every UTXO once, in the order one big page gives.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { addTxSignatures, avm, Context, TransferableOutput, utils } from '@avalabs/avalanchejs';
import pg from 'pg';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { collectPages, waitIndexed } from './data-helpers.js';
import { EWOQ_ADDR, EWOQ_KEY } from './pchain-helpers.js';
import { waitAccepted } from './xchain-helpers.js';

/** An ICU en-US database, or why this cluster cannot make one (PostgreSQL before 15, no ICU). */
async function languageCollatedDatabase(cluster: PostgresCluster): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(
      `CREATE DATABASE flurry_collation TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
    );
  } finally {
    await client.end();
  }
  return cluster.url.replace(/\/postgres$/, '/flurry_collation');
}

const unavailable = postgresUnavailable();

describe('page walks on a PostgreSQL database with a language collation', { skip: unavailable }, () => {
  let cluster: PostgresCluster;
  let net: Devnet;
  let sdk: Avalanche;
  const at = () => ({ serverURL: net.facts.urls.data });
  const ewoqX = utils.format('X', 'fuji', EWOQ_ADDR);

  before(async () => {
    cluster = await startPostgres();
    const url = await languageCollatedDatabase(cluster);
    net = await startDevnet({ args: ['--network', 'fuji', '--database-url', url] });
    sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const ctx = await Context.getContextFromURI(net.url);
    const xApi = new avm.AVMApi(net.url);
    const send = async (outputs: TransferableOutput[]) => {
      const { utxos } = await xApi.getUTXOs({ addresses: [ewoqX] });
      const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, outputs);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
      await waitAccepted(net.url, txID);
    };
    // Each round: 16 equal outputs to ewoq in one tx (one block time, one amount), then a
    // payment that spends some of them, so spent and unspent rows tie on both sort keys.
    for (let round = 0; round < 3; round++) {
      await send(
        Array.from({ length: 16 }, () =>
          TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [EWOQ_ADDR]),
        ),
      );
      await send([TransferableOutput.fromNative(ctx.avaxAssetID, 4_000_000n, [new Uint8Array(20).fill(9)])]);
    }
    await waitIndexed(net.url, net.facts.urls.data);
  });
  after(async () => {
    await net?.stop();
    await cluster?.stop();
  });

  for (const sortBy of ['amount', 'timestamp'] as const)
    for (const sortOrder of ['asc', 'desc'] as const)
      it(`walks UTXOs with includeSpent by ${sortBy} ${sortOrder} a few per page: each once, in order`, async () => {
        const request = (pageSize: number) =>
          sdk.data.primaryNetwork.utxos.listByAddressesV2(
            {
              blockchainId: 'x-chain',
              primaryNetworkAddressesBodyDto: { addresses: ewoqX },
              includeSpent: true,
              sortBy,
              sortOrder,
              pageSize,
            },
            at(),
          );
        const whole = await collectPages<any>(await request(1024), 'utxos');
        assert.equal(whole.pages, 1);
        assert.ok(whole.items.filter((u) => u.consumingTxHash).length >= 3, 'spent UTXOs are listed');
        for (const pageSize of [2, 3]) {
          const walk = await collectPages<any>(await request(pageSize), 'utxos');
          assert.deepEqual(
            walk.items.map((u) => u.utxoId),
            whole.items.map((u) => u.utxoId),
            `pages of ${pageSize}`,
          );
        }
      });
});
