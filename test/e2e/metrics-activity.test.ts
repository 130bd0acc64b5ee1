/**
 * Metrics of mixed, countable C-chain activity, read through @avalanche-sdk/chainkit (which
 * zod-validates every answer) and compared with what the chain says: native transfers from three
 * senders to four receivers, an ERC-20 deployment and transfers, a reverted call (counted as a
 * transaction, its sender active, nothing deployed), a factory call that deploys two contracts
 * with CREATE and CREATE2 (two contracts, the factory their deployer), and a reverted deployment
 * (a transaction, no contract). Every value is checked per hour, day, week and month against the
 * reference's definitions (the metrics OpenAPI document): transactions, gas, fees, gas prices;
 * active addresses and senders from transactions and token transfer events; contracts and
 * deployers from the CREATE/CREATE2 frames of the traces; and their running totals.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { createWalletClient, http as viemHttp, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bucketStart, type Span } from '../../src/data/metrics/buckets.js';
import { startMetricsService, type RunningMetricsService } from '../../src/data/metrics/server.js';
import { cChainClients } from '../helpers/cchain-clients.js';
import { compileContracts } from '../helpers/evm-contracts.js';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';

let stack: EvmDataStack;
let metrics: RunningMetricsService;
let chainId: string;

interface Counted {
  txs: number;
  gas: bigint;
  fees: bigint;
  priceSum: bigint;
  maxPrice: bigint;
  addresses: Set<string>;
  senders: Set<string>;
  contracts: number;
  deployers: Set<string>;
}
/** Per span, per bucket start: what the blocks and receipts say. */
const counted = new Map<Span, Map<number, Counted>>();
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();

interface Frame {
  type: string;
  from: string;
  to?: string;
  error?: string;
  calls?: Frame[];
}
/** The `from` of every CREATE/CREATE2 frame that did not fail (nor sit under a failed one). */
function creators(frame: Frame, failed = false, out: string[] = []): string[] {
  const bad = failed || frame.error !== undefined;
  if (!bad && (frame.type === 'CREATE' || frame.type === 'CREATE2')) out.push(frame.from.toLowerCase());
  for (const child of frame.calls ?? []) creators(child, bad, out);
  return out;
}

before(async () => {
  stack = await startEvmDataStack();
  metrics = await startMetricsService({ db: stack.database.db, host: '127.0.0.1', port: 0 });
  const facts = stack.devnet.facts;
  chainId = String(facts.chains.C.evmChainId);
  const { chain, client: pub } = cChainClients(facts.urls.cChainRpc);
  const wallets = facts.keys.slice(0, 3).map((k) =>
    createWalletClient({
      chain,
      account: privateKeyToAccount(k.privateKey as Hex),
      transport: viemHttp(facts.urls.cChainRpc),
    }),
  );
  const receivers: Hex[] = [1, 2, 3, 4].map((i) => `0x${i.toString(16).padStart(40, 'c')}` as Hex);
  const wait = (hash: Hex) => pub.waitForTransactionReceipt({ hash });
  const c = compileContracts();

  for (let i = 0; i < 9; i++) {
    const w = wallets[i % 3]!;
    await wait(
      await w.sendTransaction({
        to: receivers[i % 4],
        value: parseEther('0.01'),
        chain,
        account: w.account!,
      }),
    );
  }
  const [w0, w1] = wallets as [(typeof wallets)[0], (typeof wallets)[0]];
  const token = (
    await wait(
      await w0.deployContract({
        abi: c.Token20.abi,
        bytecode: c.Token20.bytecode,
        args: ['Token', 'TKN', 18, 10n ** 24n],
        chain,
        account: w0.account!,
      }),
    )
  ).contractAddress!;
  for (const to of receivers.slice(0, 3))
    await wait(
      await w0.writeContract({
        address: token,
        abi: c.Token20.abi,
        functionName: 'transfer',
        args: [to, 5n],
        chain,
        account: w0.account!,
      }),
    );
  // w1 holds no tokens: the transfer reverts (mined with an explicit gas limit).
  const reverted = await wait(
    await w1.writeContract({
      address: token,
      abi: c.Token20.abi,
      functionName: 'transfer',
      args: [receivers[0]!, 5n],
      chain,
      account: w1.account!,
      gas: 100_000n,
    }),
  );
  assert.equal(reverted.status, 'reverted');
  const factory = (
    await wait(
      await w0.deployContract({
        abi: c.Factory.abi,
        bytecode: c.Factory.bytecode,
        chain,
        account: w0.account!,
      }),
    )
  ).contractAddress!;
  const deployed = await wait(
    await w0.writeContract({
      address: factory,
      abi: c.Factory.abi,
      functionName: 'deployAndForward',
      args: [receivers[3]!, `0x${'11'.repeat(32)}`],
      value: 1000n,
      chain,
      account: w0.account!,
    }),
  );
  assert.equal(deployed.status, 'success');
  // A creation whose code is the INVALID opcode: mined, reverted, nothing deployed.
  const failedCreation = await wait(
    await w1.sendTransaction({ data: '0xfe', gas: 60_000n, chain, account: w1.account! }),
  );
  assert.equal(failedCreation.status, 'reverted');
  await stack.indexer.waitFor(Number(chainId), Number(failedCreation.blockNumber));

  const head = Number(await pub.getBlockNumber());
  for (let n = 1; n <= head; n++) {
    const block = await pub.getBlock({ blockNumber: BigInt(n), includeTransactions: true });
    const ts = Number(block.timestamp);
    for (const span of ['hour', 'day', 'week', 'month'] as const) {
      const bySpan = counted.get(span) ?? new Map<number, Counted>();
      counted.set(span, bySpan);
      const start = bucketStart(span, ts);
      const d = bySpan.get(start) ?? {
        txs: 0,
        gas: 0n,
        fees: 0n,
        priceSum: 0n,
        maxPrice: 0n,
        addresses: new Set<string>(),
        senders: new Set<string>(),
        contracts: 0,
        deployers: new Set<string>(),
      };
      bySpan.set(start, d);
      for (const tx of block.transactions) {
        const r = await pub.getTransactionReceipt({ hash: tx.hash });
        const trace = (await pub.request({
          method: 'debug_traceTransaction' as any,
          params: [tx.hash, { tracer: 'callTracer' }] as any,
        })) as Frame;
        const from = tx.from.toLowerCase();
        d.txs++;
        d.gas += r.gasUsed;
        d.fees += r.gasUsed * r.effectiveGasPrice;
        d.priceSum += r.effectiveGasPrice;
        if (r.effectiveGasPrice > d.maxPrice) d.maxPrice = r.effectiveGasPrice;
        d.senders.add(from);
        d.addresses.add(from);
        // A creation's recipient is the address it created (reverted or not).
        d.addresses.add((tx.to ?? r.contractAddress!).toLowerCase());
        // ERC-20 Transfer events: their parties are active, their senders senders (a mint's zero address too).
        for (const log of r.logs)
          if (log.topics[0] === TRANSFER && log.topics.length === 3) {
            d.addresses.add(topicAddress(log.topics[1]!));
            d.addresses.add(topicAddress(log.topics[2]!));
            d.senders.add(topicAddress(log.topics[1]!));
          }
        // Contracts: the CREATE and CREATE2 frames of the trace; deployers: those frames' `from`.
        const made = creators(trace);
        d.contracts += made.length;
        made.forEach((a) => d.deployers.add(a));
      }
    }
  }
});

after(async () => {
  await metrics?.close();
  await stack?.stop();
});

const sdk = () => new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });

async function series(metric: string, timeInterval: Span): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const pages = await sdk().metrics.chains.getMetrics(
    { chainId, metric: metric as any, timeInterval, pageSize: 2160 },
    { serverURL: metrics.url },
  );
  for await (const page of pages) for (const r of page.result.results) out.set(r.timestamp, r.value);
  return out;
}

for (const span of ['hour', 'day', 'week', 'month'] as const)
  test(`every chain metric per ${span} equals what the blocks and receipts say`, async () => {
    const buckets = counted.get(span)!;
    const starts = [...buckets.keys()].sort((a, b) => a - b);
    assert.ok(starts.length > 0, `the blocks fill some ${span}`);
    // The bucket's length in seconds: UTC hours, days and weeks are fixed; a month runs from its
    // 1st to the next month's.
    const length = (start: number) => {
      if (span !== 'month') return { hour: 3600, day: 86_400, week: 7 * 86_400 }[span];
      const d = new Date(start * 1000);
      assert.equal(d.getUTCDate(), 1, `month bucket ${start} starts on the 1st`);
      return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - start * 1000) / 1000;
    };
    const checks: Record<string, (d: Counted) => number> = {
      txCount: (d) => d.txs,
      gasUsed: (d) => Number(d.gas),
      activeAddresses: (d) => d.addresses.size,
      activeSenders: (d) => d.senders.size,
      contracts: (d) => d.contracts,
      deployers: (d) => d.deployers.size,
      feesPaid: (d) => Number(d.fees) / 1e18,
      maxGasPrice: (d) => Number(d.maxPrice) / 1e9,
      avgGasPrice: (d) => (d.txs > 0 ? Number(d.priceSum / BigInt(d.txs)) / 1e9 : 0),
    };
    for (const [metric, pick] of Object.entries(checks)) {
      const got = await series(metric, span);
      for (const start of starts)
        assert.equal(got.get(start), pick(buckets.get(start)!), `${metric} per ${span} at ${start}`);
    }
    const tps = await series('avgTps', span);
    for (const start of starts)
      assert.equal(tps.get(start), buckets.get(start)!.txs / length(start), `avgTps per ${span} at ${start}`);
    // Totals up to the end of each bucket, oldest first.
    let txs = 0;
    let contracts = 0;
    const addresses = new Set<string>();
    const deployers = new Set<string>();
    const cumulative = {
      cumulativeTxCount: await series('cumulativeTxCount', span),
      cumulativeContracts: await series('cumulativeContracts', span),
      cumulativeAddresses: await series('cumulativeAddresses', span),
      cumulativeDeployers: await series('cumulativeDeployers', span),
    };
    for (const start of starts) {
      const d = buckets.get(start)!;
      txs += d.txs;
      contracts += d.contracts;
      d.addresses.forEach((a) => addresses.add(a));
      d.deployers.forEach((a) => deployers.add(a));
      assert.equal(cumulative.cumulativeTxCount.get(start), txs);
      assert.equal(cumulative.cumulativeContracts.get(start), contracts);
      assert.equal(cumulative.cumulativeAddresses.get(start), addresses.size);
      assert.equal(cumulative.cumulativeDeployers.get(start), deployers.size);
    }
  });

test('the whole activity, over the rolling windows: 17 transactions, 4 senders, 4 contracts by 2 deployers', async () => {
  const all = [...counted.get('month')!.values()];
  const sum = (f: (d: Counted) => number) => all.reduce((s, d) => s + f(d), 0);
  assert.equal(
    sum((d) => d.txs),
    17,
    'nine transfers, token, three token transfers, a revert, factory, its call, a failed creation',
  );
  assert.equal(
    sum((d) => d.contracts),
    4,
    'token, factory and the factory’s two children',
  );
  assert.equal(
    new Set(all.flatMap((d) => [...d.deployers])).size,
    2,
    'the first wallet (token, factory) and the factory (its children)',
  );
  for (const [metric, want] of [
    ['txCount', 17],
    // The three wallets, and the zero address that the token's mint event names as its sender.
    ['activeSenders', 4],
    ['contracts', 4],
    ['deployers', 2],
  ] as const) {
    const { result } = await sdk().metrics.chains.getRollingWindowMetrics(
      { chainId, metric },
      { serverURL: metrics.url },
    );
    assert.equal(result.allTime, want, metric);
    assert.equal(result.lastYear, want, metric);
  }
});
