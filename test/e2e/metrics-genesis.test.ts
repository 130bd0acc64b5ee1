/**
 * Metrics of a chain whose genesis block is stamped 0, as most Subnet-EVM genesis files (and the
 * public C-chains') have it: the series start with the chain's first activity, not in 1970. An L1
 * with `"timestamp": "0x0"` is created on the devnet, one transfer is sent on it, and its series
 * are read from the metrics service over the store the indexer fills.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bucketStart } from '../../src/data/metrics/buckets.js';
import { startMetricsService, type RunningMetricsService } from '../../src/data/metrics/server.js';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';
import { createSubnetEvmChain, evmClients, EWOQ_EVM, EWOQ_EVM_KEY } from './subnet-evm-helpers.js';

const CHAIN_ID = 77_124;
let stack: EvmDataStack;
let metrics: RunningMetricsService;
/** Time of the block holding the L1's one transaction. */
let txTime: number;

before(async () => {
  stack = await startEvmDataStack();
  metrics = await startMetricsService({ db: stack.database.db, host: '127.0.0.1', port: 0 });
  const { chainId } = await createSubnetEvmChain(
    stack.devnet.url,
    {
      config: { chainId: CHAIN_ID, feeConfig: { gasLimit: 15_000_000, minBaseFee: 25_000_000_000 } },
      alloc: { [EWOQ_EVM.slice(2)]: { balance: '0x' + (1_000n * 10n ** 18n).toString(16) } },
      timestamp: '0x0',
      gasLimit: '0xe4e1c0',
      difficulty: '0x0',
    },
    'genesis at zero',
  );
  const { client, wallet } = evmClients(
    `${stack.devnet.url}/ext/bc/${chainId}/rpc`,
    CHAIN_ID,
    privateKeyToAccount(EWOQ_EVM_KEY as Hex),
  );
  assert.equal((await client.getBlock({ blockNumber: 0n })).timestamp, 0n, 'the genesis block is stamped 0');
  const hash = await wallet.sendTransaction({
    to: '0x0000000000000000000000000000000000001a1b',
    value: parseEther('1'),
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  txTime = Number((await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp);
  // The indexer discovers the chain within seconds, then indexes it.
  for (let i = 0; i < 300; i++) {
    if ((await fetch(`${metrics.url}/v2/chains/${CHAIN_ID}`)).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stack.indexer.waitFor(CHAIN_ID, Number(receipt.blockNumber));
});

after(async () => {
  await metrics?.close();
  await stack?.stop();
});

test('/v1/avg_tps starts at the day of the first transaction: one page, no 1970 days', async () => {
  const res = await fetch(`${metrics.url}/v1/avg_tps/${CHAIN_ID}`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as any;
  assert.deepEqual(body.results, [{ timestamp: bucketStart('day', txTime), value: 1 / 86_400 }]);
  assert.equal(body.nextPageToken, undefined, 'nothing older to page through');
});

test('every v2 series and interval starts with the chain’s first activity', async () => {
  const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
  for (const timeInterval of ['hour', 'day', 'week', 'month'] as const)
    for (const metric of ['txCount', 'cumulativeTxCount', 'activeAddresses'] as const) {
      const pages = await sdk.metrics.chains.getMetrics(
        { chainId: String(CHAIN_ID), metric, timeInterval, pageSize: 100 },
        { serverURL: metrics.url },
      );
      const results: { timestamp: number; value: number }[] = [];
      let count = 0;
      for await (const page of pages) {
        results.push(...page.result.results);
        // A series back to 1970 is thousands of pages long: a few are enough to tell.
        if (++count === 3) break;
      }
      const expected = metric === 'activeAddresses' ? 2 : 1;
      assert.deepEqual(
        results,
        [{ timestamp: bucketStart(timeInterval, txTime), value: expected }],
        `${metric} per ${timeInterval}`,
      );
    }
});
