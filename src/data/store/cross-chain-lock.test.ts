/**
 * Two chains' indexers writing an output and its spend at the same moment (an export indexed
 * while the import on the other chain is being written): the spend is applied whatever the
 * interleaving, on SQLite and on PostgreSQL, where it was lost under READ COMMITTED.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { describeEachStore } from '../../../test/helpers/each-store.js';
import { transferOutputRow } from '../../../test/helpers/utxo-rows.js';
import { amountKey } from './amounts.js';
import { emptyBatch, writeBatch, writeUtxoRows } from './batch.js';
import { lockUtxoWrites } from './cross-chain-lock.js';

const C = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';
const P = '11111111111111111111111111111111LpoYY';

/** An output the C-chain's export created in the P-chain's atomic memory. */
const exported = transferOutputRow({
  utxo_id: 'export:0',
  tx_hash: 'export',
  output_index: 0,
  created_on: C,
  consumed_on: P,
  asset_id: 'asset',
  amount: amountKey(5n),
  addresses: JSON.stringify(['fuji1owner']),
  block_height: 7,
  block_ts: 1_700_000_000,
  seq: 7_000_000,
});

describeEachStore(`an output and its spend written at once by two indexers`, 'spends', (store) => {
  it('applies the spend when the output commits while the spend is being written', async () => {
    // The P-chain indexer's transaction: the import's spend, held open until the export's
    // batch has had every chance to run beside it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let spendWritten!: () => void;
    const written = new Promise<void>((resolve) => (spendWritten = resolve));
    const importing = store()
      .db.transaction()
      .execute(async (trx) => {
        await lockUtxoWrites(trx);
        await writeUtxoRows(
          trx,
          [],
          [
            {
              utxo_id: exported.utxo_id,
              consuming_tx: 'import',
              consuming_height: 3,
              consuming_ts: 1_700_000_001,
              credentials: '[]',
            },
          ],
        );
        spendWritten();
        await held;
      });
    await written;
    // The export's batch from the other indexer. Without the lock it committed here, before
    // the spend, and settled nothing; the spend then waited for ever.
    const exporting = writeBatch(store().db, 'C-atomic', 0, 1, { ...emptyBatch(), utxos: [exported] });
    await Promise.race([exporting, delay(300)]);
    release();
    await Promise.all([importing, exporting]);

    const row = await store()
      .db.selectFrom('utxos')
      .select(['consuming_tx', 'consuming_ts'])
      .where('utxo_id', '=', exported.utxo_id)
      .executeTakeFirstOrThrow();
    assert.equal(row.consuming_tx, 'import');
    assert.equal(Number(row.consuming_ts), 1_700_000_001);
    const address = await store()
      .db.selectFrom('utxo_addresses')
      .select('spent')
      .where('utxo_id', '=', exported.utxo_id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(address.spent), 1);
  });
});
