/**
 * Metrics service, end to end on the real Flurry C-chain: transactions are sent at known times
 * (the devnet clock moves forward with platform.advanceTime, and the C-chain stamps blocks with
 * it), the indexer maintains the buckets, and both the legacy `/v1/avg_tps` listing and the v2
 * chain metrics (through @avalanche-sdk/chainkit) must give exactly what the blocks say.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Avalanche } from '@avalanche-sdk/chainkit';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http as viemHttp,
  parseEther,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildMetricsApp } from '../../src/data/metrics/app.js';
import { startMetricsService, type RunningMetricsService } from '../../src/data/metrics/server.js';
import { createDatabase } from '../../src/data/store/database.js';
import { call } from '../helpers/devnet.js';
import { compileContracts } from '../helpers/evm-contracts.js';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';

const DAY = 86_400;
let stack: EvmDataStack;
let metrics: RunningMetricsService;
let now = Date.now();
let chainId: string;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
/** Per day: transactions, per-second maxima, active addresses, gas, fees, contracts, deployers — from the chain. */
const days = new Map<
  number,
  {
    txs: number;
    perSecond: Map<number, number>;
    addresses: Set<string>;
    gas: bigint;
    fees: bigint;
    /** Sum of the txs' effective gas prices (wei), for the day's average gas price. */
    prices: bigint;
    contracts: number;
    deployers: Set<string>;
  }
>();
let newestDay = 0;
let oldestDay = 0;

async function sendMany(n: number, to: Hex): Promise<void> {
  for (let i = 0; i < n; i++) {
    const hash = await wallet.sendTransaction({
      to,
      value: parseEther('0.001') * BigInt(i + 1),
      chain: wallet.chain,
      account: wallet.account!,
    });
    await pub.waitForTransactionReceipt({ hash });
  }
}

before(async () => {
  stack = await startEvmDataStack();
  metrics = await startMetricsService({ db: stack.database.db, host: '127.0.0.1', port: 0, now: () => now });
  const facts = stack.devnet.facts;
  chainId = String(facts.chains.C.evmChainId);
  const chain = defineChain({
    id: Number(chainId),
    name: 'Flurry C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [facts.urls.cChainRpc] } },
  });
  pub = createPublicClient({ chain, transport: viemHttp(facts.urls.cChainRpc) }) as any;
  wallet = createWalletClient({
    chain,
    account: privateKeyToAccount(facts.keys[0].privateKey as Hex),
    transport: viemHttp(facts.urls.cChainRpc),
  }) as any;

  // Day 0: three transfers; a day later two transfers and a deployment; 40 days later one transfer.
  await sendMany(3, '0x00000000000000000000000000000000000000a1');
  await call(`${stack.devnet.url}/ext/bc/P`, 'platform.advanceTime', { seconds: DAY });
  await sendMany(2, '0x00000000000000000000000000000000000000a2');
  const c = compileContracts();
  const deployHash = await wallet.deployContract({
    abi: c.Child.abi,
    bytecode: c.Child.bytecode,
    chain: wallet.chain,
    account: wallet.account!,
  });
  await pub.waitForTransactionReceipt({ hash: deployHash });
  await call(`${stack.devnet.url}/ext/bc/P`, 'platform.advanceTime', { seconds: 40 * DAY });
  await sendMany(1, '0x00000000000000000000000000000000000000a3');

  // What the chain says, block by block.
  const head = Number(await pub.getBlockNumber());
  for (let n = 1; n <= head; n++) {
    const block = await pub.getBlock({ blockNumber: BigInt(n), includeTransactions: true });
    const ts = Number(block.timestamp);
    const day = ts - (ts % DAY);
    const d = days.get(day) ?? {
      txs: 0,
      perSecond: new Map(),
      addresses: new Set(),
      gas: 0n,
      fees: 0n,
      prices: 0n,
      contracts: 0,
      deployers: new Set<string>(),
    };
    for (const tx of block.transactions) {
      const r = await pub.getTransactionReceipt({ hash: tx.hash });
      d.txs++;
      d.perSecond.set(ts, (d.perSecond.get(ts) ?? 0) + 1);
      d.addresses.add(tx.from.toLowerCase());
      d.addresses.add((tx.to ?? r.contractAddress!).toLowerCase());
      d.gas += r.gasUsed;
      d.fees += r.gasUsed * r.effectiveGasPrice;
      d.prices += r.effectiveGasPrice;
      if (r.contractAddress) {
        d.contracts++;
        d.deployers.add(tx.from.toLowerCase());
      }
    }
    days.set(day, d);
  }
  newestDay = Math.max(...days.keys());
  oldestDay = Math.min(...days.keys());
  assert.ok(newestDay - oldestDay >= 41 * DAY, 'the devnet clock moved the C-chain forward');
  await stack.indexer.waitFor(chainId, head);
});

after(async () => {
  await metrics?.close();
  await stack?.stop();
});

/** Every day from newest to oldest with its exact average TPS. */
function expectedAvgTps(): { timestamp: number; value: number }[] {
  const out = [];
  for (let day = newestDay; day >= oldestDay; day -= DAY)
    out.push({ timestamp: day, value: (days.get(day)?.txs ?? 0) / DAY });
  return out;
}

describe('GET /v1/avg_tps/{chainId}', () => {
  test('newest first, exact values, UUID tokens page to the end', async () => {
    const all: { timestamp: number; value: number }[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await fetch(`${metrics.url}/v1/avg_tps/${chainId}${token ? `?pageToken=${token}` : ''}`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as any;
      assert.equal(body.status, 200);
      assert.ok(Number.isInteger(body.lastRun) && body.lastRun > 0);
      all.push(...body.results);
      token = body.nextPageToken;
      if (token) assert.match(token, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      pages++;
    } while (token && pages < 10);
    assert.equal(pages, 2, '42 days make two pages of 30');
    assert.deepEqual(all, expectedAvgTps());
    assert.equal(all[all.length - 1].value, 3 / DAY);
    assert.equal(all[all.length - 2].value, 3 / DAY, 'two transfers and a deployment on day 1');
  });

  test('an expired token gives the documented error and the listing restarts', async () => {
    const first = (await (await fetch(`${metrics.url}/v1/avg_tps/${chainId}`)).json()) as any;
    const token = first.nextPageToken as string;
    now += 24 * 3600_000 + 1;
    try {
      const res = await fetch(`${metrics.url}/v1/avg_tps/${chainId}?pageToken=${token}`);
      assert.equal(res.status, 400);
      const body = (await res.json()) as any;
      assert.equal(body.statusCode, 400);
      assert.equal(body.error, 'Bad Request');
      assert.ok(Array.isArray(body.message));
      assert.match(body.message[0], /expired.*restart/);
      const again = (await (await fetch(`${metrics.url}/v1/avg_tps/${chainId}`)).json()) as any;
      assert.deepEqual(again.results, first.results);
    } finally {
      now -= 24 * 3600_000 + 1;
    }
  });

  test('bad chain and token: metrics error bodies', async () => {
    const unknown = await fetch(`${metrics.url}/v1/avg_tps/777777`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys((await unknown.json()) as object).sort(), [
      'error',
      'message',
      'statusCode',
    ]);
    const forged = await fetch(
      `${metrics.url}/v1/avg_tps/${chainId}?pageToken=8c1a2b3c-0000-4000-8000-000000000000`,
    );
    assert.equal(forged.status, 400);
    const notUuid = await fetch(`${metrics.url}/v1/avg_tps/${chainId}?pageToken=hello`);
    assert.equal(notUuid.status, 400);
    // Refused before routing (broken percent-encoding, over-long parameter): the same body.
    for (const path of ['/v1/avg_tps/43%ZZ113', `/v1/avg_tps/${'1'.repeat(500)}`]) {
      const res = await fetch(`${metrics.url}${path}`);
      assert.equal(res.status, 400, path);
      const body = (await res.json()) as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode'], path);
      assert.ok(Array.isArray(body.message), path);
    }
  });
});

describe('GET /v2/chains/{chainId}/metrics/{metric} through chainkit', () => {
  const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
  async function series(metric: any, extra: Record<string, unknown> = {}) {
    const out: { timestamp: number; value: number }[] = [];
    const seen = new Set<number>();
    for await (const page of await sdk.metrics.chains.getMetrics(
      { chainId, metric, timeInterval: 'day', pageSize: 7, ...extra },
      { serverURL: metrics.url },
    )) {
      for (const r of page.result.results) {
        assert.ok(!seen.has(r.timestamp));
        seen.add(r.timestamp);
        out.push(r);
      }
    }
    return out;
  }
  const expected = (f: (d: NonNullable<ReturnType<typeof days.get>>) => number) =>
    expectedAvgTps().map(({ timestamp }) => ({
      timestamp,
      value: days.has(timestamp) ? f(days.get(timestamp)!) : 0,
    }));

  test('txCount, avgTps, maxTps, activeAddresses, gasUsed, contracts, deployers per day equal the blocks', async () => {
    assert.deepEqual(
      await series('txCount'),
      expected((d) => d.txs),
    );
    assert.deepEqual(
      await series('avgTps'),
      expected((d) => d.txs / DAY),
    );
    assert.deepEqual(
      await series('maxTps'),
      expected((d) => Math.max(0, ...d.perSecond.values())),
    );
    assert.deepEqual(
      await series('activeAddresses'),
      expected((d) => d.addresses.size),
    );
    assert.deepEqual(
      await series('gasUsed'),
      expected((d) => Number(d.gas)),
    );
    assert.deepEqual(
      await series('contracts'),
      expected((d) => d.contracts),
    );
    assert.deepEqual(
      await series('deployers'),
      expected((d) => (d.contracts > 0 ? 1 : 0)),
    );
    // Fees are tens of thousands of wei a day (1e-13 AVAX): only exact figures tell them from 0.
    const fees = await series('feesPaid');
    const feeExpected = expected((d) => Number(d.fees) / 1e18);
    assert.ok(
      feeExpected.some((f) => f.value > 0),
      'some day paid fees',
    );
    assert.deepEqual(fees, feeExpected);
    const prices = await series('avgGasPrice');
    const priceExpected = expected((d) => (d.txs ? Number(d.prices / BigInt(d.txs)) / 1e9 : 0));
    assert.ok(
      priceExpected.some((p) => p.value > 0),
      'some day has a gas price',
    );
    assert.deepEqual(prices, priceExpected);
  });

  test('cumulative metrics per day: running totals of the blocks, carried over empty days and pages', async () => {
    // Oldest day first: totals up to the end of each day, and every address and deployer seen so far.
    const running = new Map<
      number,
      { txs: number; addresses: number; contracts: number; deployers: number }
    >();
    const seen = { addresses: new Set<string>(), deployers: new Set<string>() };
    let txs = 0;
    let contracts = 0;
    for (let day = oldestDay; day <= newestDay; day += DAY) {
      const d = days.get(day);
      txs += d?.txs ?? 0;
      contracts += d?.contracts ?? 0;
      d?.addresses.forEach((a) => seen.addresses.add(a));
      d?.deployers.forEach((a) => seen.deployers.add(a));
      running.set(day, { txs, addresses: seen.addresses.size, contracts, deployers: seen.deployers.size });
    }
    const newestFirst = (pick: (r: NonNullable<ReturnType<typeof running.get>>) => number) =>
      expectedAvgTps().map(({ timestamp }) => ({ timestamp, value: pick(running.get(timestamp)!) }));
    const cumulativeTxCount = await series('cumulativeTxCount');
    assert.deepEqual(
      cumulativeTxCount,
      newestFirst((r) => r.txs),
    );
    assert.deepEqual(
      await series('cumulativeAddresses'),
      newestFirst((r) => r.addresses),
    );
    assert.deepEqual(
      await series('cumulativeContracts'),
      newestFirst((r) => r.contracts),
    );
    assert.deepEqual(
      await series('cumulativeDeployers'),
      newestFirst((r) => r.deployers),
    );
    // The known transactions: 3 transfers to a1 from one key; a day later 2 to a2 and a
    // deployment; 40 days later 1 to a3. Sender, a1, a2, the contract and a3 are 5 addresses.
    const at = (day: number) => cumulativeTxCount.find((r) => r.timestamp === day)!.value;
    assert.deepEqual(
      [at(oldestDay), at(oldestDay + DAY), at(oldestDay + 20 * DAY), at(newestDay)],
      [3, 6, 6, 7],
    );
    assert.deepEqual((await series('cumulativeAddresses'))[0], { timestamp: newestDay, value: 5 });
    assert.deepEqual((await series('cumulativeContracts'))[0], { timestamp: newestDay, value: 1 });
    assert.deepEqual((await series('cumulativeDeployers'))[0], { timestamp: newestDay, value: 1 });
    // A window starting on an empty day carries the total of the last day with a bucket.
    assert.deepEqual(
      await series('cumulativeAddresses', {
        startTimestamp: oldestDay + 2 * DAY,
        endTimestamp: oldestDay + 3 * DAY,
      }),
      [
        { timestamp: oldestDay + 3 * DAY, value: 4 },
        { timestamp: oldestDay + 2 * DAY, value: 4 },
      ],
    );
  });

  test('cumulativeTxCount per hour, week and month is the running sum of txCount', async () => {
    for (const timeInterval of ['hour', 'week', 'month'] as const) {
      const read = async (metric: 'txCount' | 'cumulativeTxCount') => {
        const out: { timestamp: number; value: number }[] = [];
        for await (const page of await sdk.metrics.chains.getMetrics(
          { chainId, metric, timeInterval, pageSize: 2160 },
          { serverURL: metrics.url },
        ))
          out.push(...page.result.results);
        return out.reverse();
      };
      const counts = await read('txCount');
      let sum = 0;
      assert.deepEqual(
        await read('cumulativeTxCount'),
        counts.map(({ timestamp, value }) => ({ timestamp, value: (sum += value) })),
        timeInterval,
      );
      assert.equal(sum, 7, timeInterval);
    }
  });

  test('hour, week and month buckets add up to the same transactions; start/end bound the series', async () => {
    const total = [...days.values()].reduce((s, d) => s + d.txs, 0);
    for (const timeInterval of ['hour', 'week', 'month'] as const) {
      const out: number[] = [];
      for await (const page of await sdk.metrics.chains.getMetrics(
        { chainId, metric: 'txCount', timeInterval, pageSize: 2160 },
        { serverURL: metrics.url },
      ))
        out.push(...page.result.results.map((r) => r.value));
      assert.equal(
        out.reduce((a, b) => a + b, 0),
        total,
        timeInterval,
      );
    }
    const bounded = await series('txCount', {
      startTimestamp: oldestDay + DAY,
      endTimestamp: oldestDay + DAY,
    });
    assert.deepEqual(bounded, [{ timestamp: oldestDay + DAY, value: days.get(oldestDay + DAY)!.txs }]);
  });

  test('bad metric, interval and rate limit answer in the metrics error shape', async () => {
    const bad = await fetch(`${metrics.url}/v2/chains/${chainId}/metrics/nonsense`);
    assert.equal(bad.status, 400);
    const badInterval = await fetch(`${metrics.url}/v2/chains/${chainId}/metrics/txCount?timeInterval=year`);
    assert.equal(badInterval.status, 400);
    assert.match(((await badInterval.json()) as any).message[0], /timeInterval/);
    // Its own store: budgets are pooled per database, and this one must start unspent.
    const own = await createDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-metrics-')) });
    const tiny = await startMetricsService({
      db: own.db,
      host: '127.0.0.1',
      port: 0,
      tier: { cuPerMinute: 60 },
    });
    try {
      // The chain is not in this store: 404s are charged as the answers they are.
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${tiny.url}/v1/avg_tps/${chainId}`)).status);
      assert.deepEqual(statuses, [404, 404, 404, 429]);
      const first = await fetch(`${tiny.url}/v2/chains`);
      // The headers the REST service sends, the policy naming the metrics tier and its window.
      assert.equal(first.headers.get('ratelimit-policy'), '60;w=60;name="metrics"');
      assert.equal(first.headers.get('ratelimit-limit'), '60');
      const limited = await fetch(`${tiny.url}/v2/chains/${chainId}/metrics/txCount`);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.deepEqual((await limited.json()) as any, {
        message: [((await (await fetch(`${tiny.url}/v1/avg_tps/${chainId}`)).json()) as any).message[0]],
        error: 'Too Many Requests',
        statusCode: 429,
      });
    } finally {
      await tiny.close();
      await own.close();
    }
  });

  test('two metrics processes on one store enforce one budget per client address', async () => {
    const own = await createDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-metrics-')) });
    const tier = { cuPerMinute: 10 };
    const a = await startMetricsService({ db: own.db, host: '127.0.0.1', port: 0, tier });
    const b = await startMetricsService({ db: own.db, host: '127.0.0.1', port: 0, tier });
    try {
      // `/v2/chains` costs 1 unit: A spends the whole minute's budget.
      const spent = [];
      for (let i = 0; i < 11; i++) spent.push((await fetch(`${a.url}/v2/chains`)).status);
      assert.deepEqual(spent, [...Array(10).fill(200), 429]);
      // B learns A's spending at its first pooling (every 250 ms) after serving the caller; alone
      // it would allow 10 more requests.
      let allowedByB = 0;
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${b.url}/v2/chains`);
        if (res.status === 429) break;
        assert.equal(res.status, 200);
        allowedByB++;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(allowedByB < 10, `B allowed ${allowedByB} requests of a spent budget`);
      // Budgets of the REST service's callers are apart from the metrics service's.
      const rows = await own.db.selectFrom('rate_limit_usage').select('caller').distinct().execute();
      assert.deepEqual(
        rows.map((r) => r.caller),
        ['metrics|anon:127.0.0.1'],
      );
    } finally {
      await a.close();
      await b.close();
      await own.close();
    }
  });
});

describe('GET /v2/chains/{chainId}/rollingWindowMetrics/{metric} through chainkit', () => {
  test('every metric over every window equals what the blocks say', async () => {
    const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
    // Every transaction with its time, parties, gas and fee, from the chain.
    const txs: {
      ts: number;
      from: string;
      to: string;
      gas: bigint;
      price: bigint;
      deployed: boolean;
    }[] = [];
    const head = Number(await pub.getBlockNumber());
    for (let n = 1; n <= head; n++) {
      const block = await pub.getBlock({ blockNumber: BigInt(n), includeTransactions: true });
      for (const tx of block.transactions) {
        const r = await pub.getTransactionReceipt({ hash: tx.hash });
        txs.push({
          ts: Number(block.timestamp),
          from: tx.from.toLowerCase(),
          to: (tx.to ?? r.contractAddress!).toLowerCase(),
          gas: r.gasUsed,
          price: r.effectiveGasPrice,
          deployed: !!r.contractAddress,
        });
      }
    }
    const hourOf = (ts: number) => ts - (ts % 3600);
    // The devnet clock is 41 days ahead of `now`: the newest indexed hour is the current one.
    const current = Math.max(...txs.map((t) => hourOf(t.ts)));
    const first = Math.min(...txs.map((t) => hourOf(t.ts)));
    const windows = {
      lastHour: 1,
      lastDay: 24,
      lastWeek: 168,
      lastMonth: 720,
      last90Days: 2160,
      lastYear: 8760,
      allTime: (current - first) / 3600 + 1,
    };
    const expected = (metric: string, hours: number) => {
      const w = txs.filter((t) => t.ts >= current - (hours - 1) * 3600);
      const seconds = hours * 3600;
      const perSecond = new Map<number, { n: number; gas: bigint }>();
      for (const t of w) {
        const s = perSecond.get(t.ts) ?? { n: 0, gas: 0n };
        perSecond.set(t.ts, { n: s.n + 1, gas: s.gas + t.gas });
      }
      const gas = w.reduce((s, t) => s + t.gas, 0n);
      switch (metric) {
        case 'txCount':
          return w.length;
        case 'gasUsed':
          return Number(gas);
        case 'avgTps':
          return w.length / seconds;
        case 'avgGps':
          return Number(gas) / seconds;
        case 'maxTps':
          return Math.max(0, ...[...perSecond.values()].map((s) => s.n));
        case 'maxGps':
          return Math.max(0, ...[...perSecond.values()].map((s) => Number(s.gas)));
        case 'avgGasPrice':
          return w.length ? Number(w.reduce((s, t) => s + t.price, 0n) / BigInt(w.length)) / 1e9 : 0;
        case 'maxGasPrice':
          return Number(w.reduce((m, t) => (t.price > m ? t.price : m), 0n)) / 1e9;
        case 'feesPaid':
          return Number(w.reduce((s, t) => s + t.gas * t.price, 0n)) / 1e18;
        case 'contracts':
          return w.filter((t) => t.deployed).length;
        case 'deployers':
          return new Set(w.filter((t) => t.deployed).map((t) => t.from)).size;
        case 'activeAddresses':
          return new Set(w.flatMap((t) => [t.from, t.to])).size;
        case 'activeSenders':
          return new Set(w.map((t) => t.from)).size;
      }
      throw new Error(metric);
    };
    const metricsList = [
      'gasUsed',
      'txCount',
      'avgGps',
      'maxGps',
      'avgTps',
      'maxTps',
      'avgGasPrice',
      'maxGasPrice',
      'feesPaid',
      'contracts',
      'deployers',
      'activeAddresses',
      'activeSenders',
    ] as const;
    for (const metric of metricsList) {
      const { result } = await sdk.metrics.chains.getRollingWindowMetrics(
        { chainId, metric },
        { serverURL: metrics.url },
      );
      for (const [window, hours] of Object.entries(windows)) {
        const got = (result as Record<string, number>)[window];
        const want = expected(metric, hours);
        assert.ok(
          Math.abs(got - want) <= Math.abs(want) * 1e-12,
          `${metric} ${window}: ${got}, expected ${want}`,
        );
      }
    }
    // The windows differ here: one transfer in the last month, all six in the last 90 days.
    const count = await sdk.metrics.chains.getRollingWindowMetrics(
      { chainId: stack.devnet.facts.chains.C.blockchainID, metric: 'txCount' },
      { serverURL: metrics.url },
    );
    assert.equal(count.result.lastMonth, 1);
    assert.equal(count.result.last90Days, txs.length);
    const bad = await fetch(`${metrics.url}/v2/chains/${chainId}/rollingWindowMetrics/cumulativeTxCount`);
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await bad.json()) as any).sort(), ['error', 'message', 'statusCode']);
    assert.equal((await fetch(`${metrics.url}/v2/chains/999999/rollingWindowMetrics/txCount`)).status, 404);
  });
});

describe('GET /v2/chains and /v2/chains/{chainId}', () => {
  test('list and get the indexed chains through chainkit, for 1 compute unit each', async () => {
    const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const at = { serverURL: metrics.url };
    const cChain = {
      evmChainId: Number(chainId),
      chainName: 'c_chain',
      blockchainId: stack.devnet.facts.chains.C.blockchainID,
      subnetId: '11111111111111111111111111111111LpoYY',
      network: 'testnet',
    };
    const pages = [];
    for await (const page of await sdk.metrics.chains.list({}, at)) pages.push(page.result);
    assert.equal(pages.length, 1);
    assert.deepEqual(pages[0].chains, [cChain]);
    const testnet = await fetch(`${metrics.url}/v2/chains?network=fuji`);
    assert.deepEqual(((await testnet.json()) as any).chains, [cChain]);
    const before = Number(testnet.headers.get('ratelimit-remaining'));
    const mainnet = await fetch(`${metrics.url}/v2/chains?network=mainnet`);
    assert.deepEqual(await mainnet.json(), { chains: [] });
    assert.equal(Number(mainnet.headers.get('ratelimit-remaining')), before - 1);
    for (const id of [chainId, stack.devnet.facts.chains.C.blockchainID])
      assert.deepEqual(await sdk.metrics.chains.get({ chainId: id }, at), cChain);
    const unknown = await fetch(`${metrics.url}/v2/chains/999999`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys((await unknown.json()) as any).sort(), ['error', 'message', 'statusCode']);
    assert.equal((await fetch(`${metrics.url}/v2/chains/abc`)).status, 400);
    assert.equal((await fetch(`${metrics.url}/v2/chains?network=devnet`)).status, 400);
    assert.equal((await fetch(`${metrics.url}/v2/chains?pageToken=abc`)).status, 400);
  });
});

describe('GET /v2/chains/43114/btcb/bridged:getAddresses through chainkit', () => {
  test('a devnet without the mainnet C-chain has no BTC.b bridgers; a threshold is required', async () => {
    const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const pages = [];
    for await (const page of await sdk.metrics.chains.listBTCbBridgersAboveThreshold(
      { threshold: '0' },
      { serverURL: metrics.url },
    ))
      pages.push(page.result);
    assert.deepEqual(pages, [{ addresses: [] }]);
    await assert.rejects(
      sdk.metrics.chains.listBTCbBridgersAboveThreshold({ threshold: 'lots' }, { serverURL: metrics.url }),
      (err: any) => err.constructor.name === 'BadRequestError' && err.statusCode === 400,
    );
  });
});

describe('GET /v2/health-check', () => {
  test('answers through chainkit, free of rate-limit charges', async () => {
    const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const health = await sdk.metrics.healthCheck({ serverURL: metrics.url });
    assert.equal(health.status, 'ok');
    assert.deepEqual(health.details, { database: { status: 'up' } });
    const res = await fetch(`${metrics.url}/v2/health-check`);
    assert.equal(res.headers.get('ratelimit-remaining'), null);
  });

  test('GET /v2/live-check answers through chainkit without asking the store, free of charge', async () => {
    const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const live = await sdk.metrics.liveCheck({ serverURL: metrics.url });
    assert.deepEqual(JSON.parse(JSON.stringify(live)), { status: 'ok', info: {}, error: {}, details: {} });
    const res = await fetch(`${metrics.url}/v2/live-check`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('ratelimit-remaining'), null);
    // Alive while the store is gone (the health check says 503 then).
    const database = await createDatabase({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-metrics-')),
    });
    const app = await buildMetricsApp({ db: database.db });
    try {
      await database.close();
      assert.equal((await app.inject({ url: '/v2/live-check' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  test('is a 503 naming the database when the store cannot be read', async () => {
    const database = await createDatabase({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-metrics-')),
    });
    const app = await buildMetricsApp({ db: database.db });
    try {
      assert.equal((await app.inject({ url: '/v2/health-check' })).statusCode, 200);
      await database.close();
      const res = await app.inject({ url: '/v2/health-check' });
      assert.equal(res.statusCode, 503);
      const body = res.json();
      assert.equal(body.status, 'error');
      assert.equal(body.details.database.status, 'down');
    } finally {
      await app.close();
    }
  });
});

describe('GET /openapi.json and /docs', () => {
  test('the metrics service publishes its own document, naming its routes as the reference does, unmetered', async () => {
    const res = await fetch(`${metrics.url}/openapi.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('ratelimit-remaining'), null);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    assert.match(doc.openapi, /^3\./);
    // Every route the service answers, and none of the chain-data service's.
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/v1/avg_tps/{chainId}',
      '/v2/chains',
      '/v2/chains/43114/btcb/bridged:getAddresses',
      '/v2/chains/{chainId}',
      '/v2/chains/{chainId}/metrics/{metric}',
      '/v2/chains/{chainId}/rollingWindowMetrics/{metric}',
      '/v2/health-check',
      '/v2/icm/summary',
      '/v2/icm/timeseries',
      '/v2/live-check',
      '/v2/networks/{network}/metrics/{metric}',
      '/v2/subnet/{subnetId}/metrics/{metric}',
      '/v2/subnets/{subnetId}/validators:getAddresses',
      '/v2/validation/{l1ValidationId}/metrics/{metric}',
      '/v2/validator/{nodeId}/metrics/{metric}',
      '/v2/validators/metrics/{metric}',
    ]);
    assert.equal(doc.paths['/v2/chains/{chainId}/metrics/{metric}'].get.operationId, 'getEvmChainMetrics');
    assert.equal(doc.paths['/v2/chains'].get.operationId, 'listChains');
    assert.equal(doc.paths['/v2/chains/{chainId}'].get.operationId, 'getChain');
    assert.equal(doc.paths['/v2/health-check'].get.operationId, 'metrics-health-check');
    assert.equal(doc.paths['/v2/live-check'].get.operationId, 'metrics-live-check');
    assert.equal(
      doc.paths['/v2/chains/{chainId}/rollingWindowMetrics/{metric}'].get.operationId,
      'getEvmChainRollingWindowMetrics',
    );
    assert.equal(doc.paths['/v2/networks/{network}/metrics/{metric}'].get.operationId, 'getStakingMetrics');
    assert.equal(doc.paths['/v2/icm/timeseries'].get.operationId, 'getICMTimeseries');
    assert.equal(doc.paths['/v2/icm/summary'].get.operationId, 'getICMSummary');
    assert.deepEqual(doc.paths['/v2/icm/summary'].get.tags, ['Chain Metrics']);
    assert.equal(
      doc.paths['/v2/chains/43114/btcb/bridged:getAddresses'].get.operationId,
      'getAddressesByBtcbBridged',
    );
    const validators = doc.paths['/v2/subnets/{subnetId}/validators:getAddresses'].get;
    assert.equal(validators.operationId, 'getValidatorsByDateRange');
    assert.deepEqual(validators.tags, ['Looking Glass']);
    // The browsable page.
    const page = await fetch(`${metrics.url}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /html/);
  });
});
