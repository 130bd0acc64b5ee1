/**
 * The staking metrics of an L1 (`/v2/networks/{network}/metrics/{metric}?subnetId=…`, chainkit
 * metrics.networks.getStakingMetrics): a subnet converted to an L1 counts its ACP-77 validators
 * day by day — the conversion's, one registered later, a weight change, a removal (weight 0) —
 * each day's value the L1's validator set at the day's last P-chain block as the node reports it
 * (`platform.getValidatorsAt`, `platform.getCurrentValidators`). A validator whose balance ran out
 * and one disabled still count, with their weight, as the P-chain keeps them in the L1's set.
 * metrics-l1-staking-postgres.test.ts runs the suite again on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { Context, pvm, utils } from '@avalabs/avalanchejs';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { storeArgs } from '../helpers/postgres.js';
import { waitIndexed } from './data-helpers.js';
import {
  blsKey,
  builderBase,
  convertedL1,
  EWOQ_ADDR,
  EWOQ_KEY,
  l1Validator,
  pResult,
  registerPayload,
  signAndIssue,
  signedWarp,
  testNodeId,
  weightPayload,
} from './pchain-helpers.js';

const AVAX = 1_000_000_000n;
const DAY = 86_400;
const MANAGER = utils.hexToBuffer('0x' + 'fd'.repeat(20));
/** The reference's `ids.EmptyNodeID`: where the P-chain keeps the weight of inactive L1 validators. */
const EMPTY_NODE = 'NodeID-111111111111111111116DBWJs';
const METRICS = ['validatorCount', 'validatorWeight', 'delegatorCount', 'delegatorWeight'] as const;

interface Point {
  timestamp: number;
  value: number;
}

describe('staking metrics of an L1', () => {
  let net: Devnet;
  let api: pvm.PVMApi;
  let subnetId: string;
  const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
  const keys = [blsKey('stake-0'), blsKey('stake-1'), blsKey('stake-2'), blsKey('stake-3')];

  before(async () => {
    net = await startDevnet({ args: await storeArgs() });
    api = new pvm.PVMApi(net.url);
    const ctx = await Context.getContextFromURI(net.url);
    const base = () => builderBase(api);
    const now = async () => BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
    // Day 1: three validators of weight 10 (the third with a day and 3,000 s of the fee, 1 nAVAX a
    // second on local: it runs dry on day 2, after the changes), then a fourth of weight 5 registers.
    const l1 = await convertedL1(api, ctx, {
      chainName: 'stakechain',
      manager: MANAGER,
      validators: [AVAX, AVAX, BigInt(DAY + 3_000)].map((b, i) =>
        l1Validator(testNodeId(80 + i), 10n, b, keys[i]!),
      ),
    });
    subnetId = l1.subnetId;
    const chainId = l1.chainId;
    const registration = registerPayload(
      subnetId,
      testNodeId(83),
      keys[3]!,
      (await now()) + 300n,
      EWOQ_ADDR,
      5n,
    );
    await signAndIssue(
      api,
      pvm.newRegisterL1ValidatorTx(
        {
          ...(await base()),
          balance: AVAX,
          blsSignature: keys[3]!.pop,
          message: signedWarp(12345, chainId, MANAGER, registration, keys.slice(0, 3), new Uint8Array([7])),
        },
        ctx,
      ),
    );
    const validations = (await pResult(net.url, 'platform.getCurrentL1Validators', { subnetID: subnetId }))
      .validators as { validationID: string; nodeID: string }[];
    const byNode = (n: number) => validations.find((v) => v.nodeID === testNodeId(80 + n))!.validationID;

    // Day 2: the first goes to weight 20 and the fourth is removed, each signed by all four.
    await pResult(net.url, 'platform.advanceTime', { seconds: DAY });
    const setWeight = async (validationId: string, weight: bigint) =>
      signAndIssue(
        api,
        pvm.newSetL1ValidatorWeightTx(
          {
            ...(await base()),
            message: signedWarp(
              12345,
              chainId,
              MANAGER,
              weightPayload(validationId, 1n, weight),
              keys,
              new Uint8Array([15]),
            ),
          },
          ctx,
        ),
      );
    await setWeight(byNode(0), 20n);
    await setWeight(byNode(3), 0n);

    // The third runs dry, the second is disabled: both inactive, still in the L1's set.
    await pResult(net.url, 'platform.advanceTime', { seconds: 6_000 });
    await signAndIssue(
      api,
      pvm.newDisableL1ValidatorTx({ ...(await base()), validationId: byNode(1), disableAuth: [0] }, ctx),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    await pResult(net.url, 'platform.advanceTime', { seconds: DAY });
    // A block at the new time, so the P-chain's inactive validators are settled at its end.
    await signAndIssue(
      api,
      pvm.newIncreaseL1ValidatorBalanceTx({ ...(await base()), validationId: byNode(0), balance: 1n }, ctx),
    );
    await waitIndexed(net.url, net.facts.urls.data!);
  });
  after(async () => {
    await net?.stop();
  });

  const metricsAt = () => ({ serverURL: net.facts.urls.metrics! });
  async function walk(metric: (typeof METRICS)[number]): Promise<Point[]> {
    const days: Point[] = [];
    for await (const page of await sdk.metrics.networks.getStakingMetrics(
      { network: 'fuji', metric, subnetId: subnetId as any, pageSize: 2 },
      metricsAt(),
    ))
      days.push(...page.result.results);
    return days;
  }

  /** Each P-chain height with its block time, oldest first. */
  async function blockTimes(): Promise<{ height: number; time: number }[]> {
    const last = Number((await pResult(net.url, 'platform.getHeight')).height);
    const out: { height: number; time: number }[] = [];
    for (let height = 0; height <= last; height++) {
      const { block } = await pResult(net.url, 'platform.getBlockByHeight', { height, encoding: 'json' });
      // Blocks without a time of their own (genesis) count from the start.
      out.push({ height, time: Number(block.time ?? 0) });
    }
    return out;
  }

  it("counts the L1's validators and their weight at each day's last block, as getValidatorsAt", async () => {
    const [count, weight, delegators, delegated] = await Promise.all(METRICS.map(walk));
    const clock = Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000);
    assert.equal(count![0]!.timestamp, clock - (clock % DAY), 'newest first, today first');
    assert.ok(count!.length >= 3, `${count!.length} days: the conversion's, the change's, today`);
    for (let i = 1; i < count!.length; i++)
      assert.equal(count![i - 1]!.timestamp - count![i]!.timestamp, DAY);
    assert.deepEqual(
      weight!.map((p) => p.timestamp),
      count!.map((p) => p.timestamp),
    );

    const blocks = await blockTimes();
    const seen = new Set<string>();
    for (const [i, day] of count!.entries()) {
      const last = blocks.filter((b) => b.time < day.timestamp + DAY).at(-1)!;
      const set = (
        await pResult(net.url, 'platform.getValidatorsAt', { subnetID: subnetId, height: last.height })
      ).validators as Record<string, { weight: string }>;
      const total = Object.values(set).reduce((s, v) => s + Number(v.weight), 0);
      assert.equal(weight![i]!.value, total, `weight on day ${day.timestamp}`);
      // Inactive validators share the empty node's entry: counted one by one below, on the days
      // they exist (the days after every registration and removal).
      if (!(EMPTY_NODE in set))
        assert.equal(day.value, Object.keys(set).length, `count on day ${day.timestamp}`);
      else seen.add('inactive');
    }
    assert.ok(seen.has('inactive'), 'a day with inactive validators');
    assert.deepEqual(
      weight!.map((p) => p.value).reverse(),
      [35, 40, ...weight!.slice(0, -2).map(() => 40)],
      'conversion and registration (3×10 + 5); weight 20 and the removal (20 + 10 + 10)',
    );

    // Today: getCurrentValidators lists each of them, inactive ones too.
    const current = (await pResult(net.url, 'platform.getCurrentValidators', { subnetID: subnetId }))
      .validators as { weight: string; balance?: string }[];
    assert.equal(count![0]!.value, current.length);
    assert.equal(
      weight![0]!.value,
      current.reduce((s, v) => s + Number(v.weight), 0),
    );
    assert.equal(current.filter((v) => v.balance === '0').length, 2, 'two of the three are inactive');

    // An L1 has no delegators: 0 on every day.
    for (const series of [delegators!, delegated!])
      assert.deepEqual(
        series,
        count!.map((p) => ({ timestamp: p.timestamp, value: 0 })),
      );
  });

  it('serves the same days over plain fetch, and a window of them', async () => {
    const weight = await walk('validatorWeight');
    const res = await fetch(
      `${net.facts.urls.metrics}/v2/networks/testnet/metrics/validatorWeight?subnetId=${subnetId}&pageSize=100`,
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as { results: Point[]; nextPageToken?: string };
    assert.deepEqual(body.results, weight);
    assert.equal(body.nextPageToken, undefined);
    const first = weight.at(-1)!;
    const window = await sdk.metrics.networks.getStakingMetrics(
      {
        network: 'fuji',
        metric: 'validatorWeight',
        subnetId: subnetId as any,
        startTimestamp: first.timestamp,
        endTimestamp: first.timestamp,
      },
      metricsAt(),
    );
    assert.deepEqual(window.result.results, [first]);
  });
});
