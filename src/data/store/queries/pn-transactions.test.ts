/**
 * The primary-network transaction lists over a real store (SQLite, and PostgreSQL when one can be
 * started): address rows written with the batch (creators, consumers, late spends), every walk
 * finds each transaction once in time order, filters, and the open-staking list.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  postgresUnavailable,
  startPostgres,
  type PostgresCluster,
} from '../../../../test/helpers/postgres.js';
import { transferOutputRow } from '../../../../test/helpers/utxo-rows.js';
import { amountKey } from '../amounts.js';
import { emptyBatch, writeBatch } from '../batch.js';
import { createDatabase, type DataDatabase } from '../database.js';
import { backfillTransactionAddresses } from '../migrations-pn-transactions.js';
import { listChainTransactions, listOpenStakingTransactions, type ChainTxQuery } from './pn-transactions.js';

const P = '11111111111111111111111111111111LpoYY';
const X = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';
const A = 'fuji1aaaa';
const B = 'fuji1bbbb';
const tx = (i: number) => `tx${String(i).padStart(4, '0')}`;

function output(txHash: string, i: number, chain: string, owners: string[], ts: number, seq: number) {
  return transferOutputRow({
    utxo_id: `${txHash}:${i}`,
    tx_hash: txHash,
    output_index: i,
    created_on: chain,
    consumed_on: chain,
    asset_id: 'asset',
    amount: amountKey(1000n),
    addresses: JSON.stringify(owners),
    block_height: Math.floor(seq / 1_000_000),
    block_ts: ts,
    seq,
  });
}

for (const kind of ['sqlite', 'postgres'] as const) {
  const skip = kind === 'postgres' ? postgresUnavailable() : undefined;
  describe(`primary-network transaction lists on ${kind}`, { skip }, () => {
    let cluster: PostgresCluster | undefined;
    let database: DataDatabase;
    const db = () => database.db;

    before(async () => {
      let databaseUrl: string | undefined;
      if (kind === 'postgres') {
        cluster = await startPostgres();
        databaseUrl = await cluster.createDatabase('pntxs');
      }
      database = await createDatabase({
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-pntxs-')),
        databaseUrl,
      });
      // 30 P-chain txs over 10 blocks (3 per block, several in one second): tx i creates an output
      // of A (even i) or B (odd i) and spends the output of tx i-1.
      const rows = emptyBatch();
      for (let i = 0; i < 30; i++) {
        const height = 1 + Math.floor(i / 3);
        const seq = height * 1_000_000 + (i % 3);
        const ts = 1_700_000_000 + Math.floor(height / 2);
        rows.transactions.push({
          tx_hash: tx(i),
          chain_id: P,
          seq,
          block_height: height,
          block_id: `block${height}`,
          timestamp: ts,
          tx_type: i % 5 === 0 ? 'AddPermissionlessValidatorTx' : 'BaseTx',
          memo: '0x',
          source_chain: null,
          destination_chain: null,
        });
        rows.utxos.push(output(tx(i), 0, P, [i % 2 === 0 ? A : B], ts, seq));
        if (i > 0)
          rows.spends.push({
            utxo_id: `${tx(i - 1)}:0`,
            consuming_tx: tx(i),
            consuming_height: height,
            consuming_ts: ts,
            credentials: '[]',
          });
        if (i % 5 === 0)
          rows.stakers.push({
            tx_hash: tx(i),
            kind: 'validator',
            node_id: `NodeID-${i}`,
            subnet_id: P,
            seq,
            amount_staked: amountKey(1n),
            delegation_shares: 20_000,
            start_ts: ts,
            end_ts: i === 10 ? ts + 1 : 1_800_000_000,
            bls_public_key: null,
            bls_pop: null,
            reward_addresses: JSON.stringify([i === 20 ? 'fuji1reward' : A]),
            reward_tx: i === 0 ? tx(1) : null,
            removed_tx: null,
            removed_ts: null,
          });
      }
      // An X-chain import whose spend arrives before the export output it consumes.
      rows.transactions.push({
        tx_hash: 'ximport',
        chain_id: X,
        seq: 5_000_000,
        block_height: 5,
        block_id: 'xblock5',
        timestamp: 1_700_000_500,
        tx_type: 'ImportTx',
        memo: '0x',
        source_chain: P,
        destination_chain: null,
      });
      rows.spends.push({
        utxo_id: 'pexport:0',
        consuming_tx: 'ximport',
        consuming_height: 5,
        consuming_ts: 1_700_000_500,
        credentials: '[]',
      });
      await writeBatch(db(), 'P/block', 0, 1, rows);
      const late = emptyBatch();
      late.transactions.push({
        tx_hash: 'pexport',
        chain_id: P,
        seq: 20_000_000,
        block_height: 20,
        block_id: 'block20',
        timestamp: 1_700_000_400,
        tx_type: 'ExportTx',
        memo: '0x',
        source_chain: null,
        destination_chain: X,
      });
      late.utxos.push({
        ...output('pexport', 0, P, ['fuji1cccc'], 1_700_000_400, 20_000_000),
        consumed_on: X,
      });
      await writeBatch(db(), 'P/block', 1, 2, late);
    });
    after(async () => {
      await database?.close();
      await cluster?.stop();
    });

    async function walk(q: Omit<ChainTxQuery, 'after' | 'limit'>, limit: number): Promise<string[]> {
      const seen: string[] = [];
      let after: ChainTxQuery['after'];
      for (let page = 0; page < 100; page++) {
        const { rows, next } = await listChainTransactions(db(), { ...q, after, limit });
        assert.ok(rows.length <= limit);
        seen.push(...rows.map((r) => r.tx_hash));
        if (!next) return seen;
        after = next;
      }
      throw new Error('the walk did not end');
    }

    it('walks every transaction of a chain once, in time order both ways', async () => {
      const all = [...Array.from({ length: 30 }, (_, i) => tx(i)), 'pexport'];
      for (const limit of [1, 4, 31, 100]) {
        assert.deepEqual(await walk({ chainId: P, addresses: [], sortOrder: 'asc' }, limit), all);
        assert.deepEqual(
          await walk({ chainId: P, addresses: [], sortOrder: 'desc' }, limit),
          [...all].reverse(),
        );
      }
    });

    it('filters by address (creator or consumer), several addresses merged without repeats', async () => {
      // A's outputs are created by even txs and spent by the next (odd) tx: every tx touches A.
      const a = await walk({ chainId: P, addresses: [A], sortOrder: 'asc' }, 3);
      assert.deepEqual(
        a,
        Array.from({ length: 30 }, (_, i) => tx(i)),
      );
      const both = await walk({ chainId: P, addresses: [A, B], sortOrder: 'desc' }, 7);
      assert.deepEqual(both, [...a].reverse());
      // The late spend: the import was written before the output it consumes.
      assert.deepEqual(await walk({ chainId: X, addresses: ['fuji1cccc'], sortOrder: 'asc' }, 2), [
        'ximport',
      ]);
      assert.deepEqual(await walk({ chainId: P, addresses: ['fuji1cccc'], sortOrder: 'asc' }, 2), [
        'pexport',
      ]);
      assert.deepEqual(await walk({ chainId: P, addresses: ['fuji1none'], sortOrder: 'asc' }, 2), []);
    });

    it('filters by types and time, with and without addresses', async () => {
      const staking = Array.from({ length: 6 }, (_, i) => tx(i * 5));
      assert.deepEqual(
        await walk(
          { chainId: P, addresses: [], txTypes: ['AddPermissionlessValidatorTx'], sortOrder: 'asc' },
          2,
        ),
        staking,
      );
      assert.deepEqual(
        await walk(
          {
            chainId: P,
            addresses: [],
            txTypes: ['AddPermissionlessValidatorTx', 'ExportTx'],
            sortOrder: 'desc',
          },
          3,
        ),
        [...staking, 'pexport'].reverse(),
      );
      assert.deepEqual(
        await walk(
          { chainId: P, addresses: [B], txTypes: ['AddPermissionlessValidatorTx'], sortOrder: 'asc' },
          1,
        ),
        staking.slice(1), // tx0 neither creates nor spends an output of B
      );
      // Blocks 4 and 5 share second 1_700_000_002: txs 9..14.
      const window = await walk(
        {
          chainId: P,
          addresses: [],
          startTimestamp: 1_700_000_002,
          endTimestamp: 1_700_000_002,
          sortOrder: 'asc',
        },
        4,
      );
      assert.deepEqual(window, [9, 10, 11, 12, 13, 14].map(tx));
    });

    it('maps a store indexed before migration 0011 as the indexer maps new rows', async () => {
      const all = () =>
        db()
          .selectFrom('transaction_addresses')
          .selectAll()
          .orderBy('chain_id')
          .orderBy('address')
          .orderBy('seq')
          .execute();
      const written = await all();
      assert.ok(written.length > 30);
      await db().deleteFrom('transaction_addresses').execute();
      await backfillTransactionAddresses(db());
      assert.deepEqual(await all(), written);
    });

    it('lists open staking periods only (not rewarded, not past their end), with address filters', async () => {
      const now = 1_700_000_100;
      const list = async (addresses: string[]) =>
        (
          await listOpenStakingTransactions(db(), {
            pChainId: P,
            addresses,
            sortOrder: 'asc',
            limit: 10,
            now,
          })
        ).rows.map((r) => r.tx_hash);
      // tx0 was rewarded, tx10 ended.
      assert.deepEqual(await list([]), [tx(5), tx(15), tx(20), tx(25)]);
      assert.deepEqual(await list(['fuji1reward']), [tx(20)]);
      const first = await listOpenStakingTransactions(db(), {
        pChainId: P,
        addresses: [],
        sortOrder: 'desc',
        limit: 3,
        now,
      });
      assert.deepEqual(
        first.rows.map((r) => r.tx_hash),
        [tx(25), tx(20), tx(15)],
      );
      const second = await listOpenStakingTransactions(db(), {
        pChainId: P,
        addresses: [],
        sortOrder: 'desc',
        limit: 3,
        now,
        after: first.next,
      });
      assert.deepEqual(
        second.rows.map((r) => r.tx_hash),
        [tx(5)],
      );
      assert.equal(second.next, undefined);
    });
  });
}
