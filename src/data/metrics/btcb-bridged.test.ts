import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { createDatabase } from '../store/database.js';
import { startMetricsService } from './server.js';
import { BTCB_CHAIN_ID, BTCB_TOKEN } from './btcb-bridged.js';
import { checksumAddress } from '../evm/abi.js';

const ZERO = '0x' + '00'.repeat(20);
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const D = '0x' + 'd4'.repeat(20);

test('BTC.b bridgers: net of the mints to and burns by each address, above the threshold, largest first', async () => {
  const database = await createDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-btcb-')) });
  const metrics = await startMetricsService({ db: database.db, host: '127.0.0.1', port: 0 });
  try {
    const opts = { serverURL: metrics.url };
    const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const walk = async (threshold: string, pageSize: number) => {
      const items: { address: string; sortKey: string }[] = [];
      let pages = 0;
      for await (const page of await sdk.metrics.chains.listBTCbBridgersAboveThreshold(
        { threshold, pageSize },
        opts,
      )) {
        items.push(...page.result.addresses);
        pages++;
      }
      return { items, pages };
    };
    // Nothing indexed: no address qualifies.
    assert.deepEqual(await walk('0', 10), { items: [], pages: 1 });

    // Token transfers as the indexer writes them: one row per party, in block order.
    let block = 0;
    const rows: object[] = [];
    const transfer = (from: string, to: string, value: bigint, token = BTCB_TOKEN, chain = BTCB_CHAIN_ID) => {
      block++;
      for (const address of new Set([from, to]))
        rows.push({
          chain,
          address,
          kind: 'erc20',
          block_number: block,
          log_index: 0,
          sub_index: 0,
          tx_hash: '0x' + block.toString(16).padStart(64, '0'),
          block_hash: '0x' + block.toString(16).padStart(64, '1'),
          block_ts: 1_700_000_000 + block,
          token,
          from_addr: from,
          to_addr: to,
          value: value.toString(),
          token_id: '',
        });
    };
    transfer(ZERO, A, 5_000_000n); // A bridges 0.05 BTC in …
    transfer(A, ZERO, 1_000_000n); // … and 0.01 back out: net 4,000,000
    transfer(ZERO, B, 4_000_000n); // B: 4,000,000 (ties with A: by address)
    transfer(ZERO, C, 9_000_000n); // C: 9,000,000, then hands some to D (not bridging)
    transfer(C, D, 3_000_000n);
    transfer(ZERO, D, 500_000n); // D: 500,000 bridged
    transfer(ZERO, A, 7_000_000n, '0x' + 'ee'.repeat(20)); // another token
    transfer(ZERO, B, 7_000_000n, BTCB_TOKEN, 43_113); // another chain
    await database.db
      .insertInto('evm_token_transfers')
      .values(rows as any)
      .execute();

    const all = await walk('1000000', 1);
    assert.deepEqual(all.items, [
      { address: checksumAddress(C), sortKey: '9000000' },
      { address: checksumAddress(A), sortKey: '4000000' },
      { address: checksumAddress(B), sortKey: '4000000' },
    ]);
    assert.equal(all.pages, 3);
    assert.deepEqual((await walk('0', 100)).items.at(-1), { address: checksumAddress(D), sortKey: '500000' });
    assert.deepEqual((await walk('9000001', 100)).items, []);

    // Bad input in the metrics error shape; a token is bound to its threshold.
    const first = (await (
      await fetch(`${metrics.url}/v2/chains/43114/btcb/bridged:getAddresses?threshold=1&pageSize=1`)
    ).json()) as any;
    assert.ok(first.nextPageToken);
    for (const query of [
      '',
      '?threshold=abc',
      '?threshold=-5',
      '?threshold=1.5',
      '?threshold=1&pageSize=0',
      '?threshold=1&pageSize=5001',
      '?threshold=1&pageToken=forged',
      `?threshold=2&pageToken=${first.nextPageToken}`,
    ]) {
      const res = await fetch(`${metrics.url}/v2/chains/43114/btcb/bridged:getAddresses${query}`);
      const body = (await res.json()) as any;
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(body)}`);
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
      assert.ok(Array.isArray(body.message));
    }
    // Weighed `large`: 500 compute units.
    const r1 = await fetch(`${metrics.url}/v2/chains/43114/btcb/bridged:getAddresses?threshold=1`);
    const r2 = await fetch(`${metrics.url}/v2/chains/43114/btcb/bridged:getAddresses?threshold=1`);
    assert.equal(
      Number(r1.headers.get('ratelimit-remaining')) - Number(r2.headers.get('ratelimit-remaining')),
      500,
    );
  } finally {
    await metrics.close();
    await database.close();
  }
});
