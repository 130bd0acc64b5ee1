/**
 * The P-chain never lets a block's time pass the next staker change, as avalanchego's builder
 * caps it (`NextBlockTime`): when the devnet clock jumps over several changes — a permissioned
 * subnet validator's end, two primary-network validators' ends (one with a delegator ending with
 * it), an L1 validator's balance running out — each change gets its block at its own time, in
 * order, before the block of a tx issued afterwards. Read through avalanchejs and plain
 * JSON-RPC (`getBlockByHeight` json, `getValidatorsAt`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context, pvm } from '@avalabs/avalanchejs';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  builderBase,
  EWOQ_ADDR,
  EWOQ_KEY,
  l1Validator,
  pResult,
  PRIMARY_NETWORK,
  primaryValidatorTx,
  signAndIssue,
  testNodeId,
} from './pchain-helpers.js';

const AVAX = 1_000_000_000n;
const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
/** What runs dry: 200 nAVAX at local's 1 nAVAX a second (two active validators, far below target). */
const DRY_BALANCE = 200n;

interface Block {
  kind: 'standard' | 'proposal' | 'commit';
  time: number;
  height: number;
  /** The staking tx a proposal block's RewardValidatorTx rewards. */
  rewards?: string;
  txs: string[];
}

describe('P-chain block times capped at the next staker change', () => {
  let net: Devnet;
  let api: pvm.PVMApi;
  let ctx: Context.Context;
  const nodeA = testNodeId(201);
  const nodeB = testNodeId(202);
  const dryNode = testNodeId(203);
  const fullNode = testNodeId(204);
  let t0: number;
  let convertedAt: number;
  let l1Subnet: string;
  const staking: Record<'subnetValidator' | 'a' | 'b' | 'delegator', string> = {} as any;
  let startHeight: number;
  let moved: { timestamp: string; height: string };
  let lateTx: string;
  let blocks: Block[];

  const seconds = (rfc3339: string) => Date.parse(rfc3339) / 1000;
  const base = () => builderBase(api);
  const blockAt = async (height: number): Promise<Block> => {
    const { block } = await pResult(net.url, 'platform.getBlockByHeight', { height, encoding: 'json' });
    const kind = block.tx ? 'proposal' : block.txs ? 'standard' : 'commit';
    return {
      kind,
      time: Number(block.time),
      height,
      rewards: block.tx?.unsignedTx.txID,
      txs: (block.txs ?? []).map((t: any) => t.id),
    };
  };
  const validator = async (nodeId: string, end: number, seed: string) =>
    signAndIssue(
      api,
      primaryValidatorTx(ctx, await base(), {
        nodeId,
        start: BigInt(t0),
        end: BigInt(end),
        weight: 2_000n * AVAX,
        key: blsKey(seed),
      }),
    );
  const createSubnet = async () =>
    signAndIssue(api, pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx));

  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--min-stake-duration', '60'] });
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
    t0 = seconds((await pResult(net.url, 'platform.advanceTime', { seconds: 1 })).timestamp);

    staking.a = await validator(nodeA, t0 + 100, 'change-a');
    staking.b = await validator(nodeB, t0 + 300, 'change-b');
    staking.delegator = await signAndIssue(
      api,
      pvm.newAddPermissionlessDelegatorTx(
        {
          ...(await base()),
          nodeId: nodeB,
          subnetId: PRIMARY_NETWORK,
          start: BigInt(t0),
          end: BigInt(t0 + 300),
          weight: 25n * AVAX,
          rewardAddresses: [EWOQ_ADDR],
        },
        ctx,
      ),
    );
    const permissioned = await createSubnet();
    staking.subnetValidator = await signAndIssue(
      api,
      pvm.newAddSubnetValidatorTx(
        {
          ...(await base()),
          nodeId: nodeA,
          subnetId: permissioned,
          subnetAuth: [0],
          start: BigInt(t0),
          end: BigInt(t0 + 80),
          weight: 7n,
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );

    l1Subnet = await createSubnet();
    const chainId = await signAndIssue(
      api,
      pvm.newCreateChainTx(
        {
          ...(await base()),
          chainName: 'dry',
          subnetId: l1Subnet,
          subnetAuth: [0],
          vmId: SUBNET_EVM,
          fxIds: [],
          genesisData: {},
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    await signAndIssue(
      api,
      pvm.newConvertSubnetToL1Tx(
        {
          ...(await base()),
          subnetId: l1Subnet,
          chainId,
          address: new Uint8Array(20).fill(0xfe),
          subnetAuth: [0],
          validators: [
            l1Validator(dryNode, 10n, DRY_BALANCE, blsKey('change-dry')),
            l1Validator(fullNode, 10n, AVAX, blsKey('change-full')),
          ],
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    convertedAt = seconds((await api.getTimestamp()).timestamp);
    startHeight = Number((await api.getHeight()).height);
    assert.ok(convertedAt + Number(DRY_BALANCE) < t0 + 300, 'the setup took too long to interleave');

    // The clock jumps over every change at once; a tx comes afterwards.
    moved = await pResult(net.url, 'platform.advanceTime', { seconds: 1_000 });
    lateTx = await createSubnet();
    const tip = Number((await api.getHeight()).height);
    blocks = [];
    for (let h = startHeight + 1; h <= tip; h++) blocks.push(await blockAt(h));
  });
  after(async () => {
    await net?.stop();
  });

  it('gives each staker change its own block at its own time, in order, then the time and the tx', () => {
    const dryAt = convertedAt + Number(DRY_BALANCE);
    const shape = blocks.map((b) => ({ kind: b.kind, time: b.time, rewards: b.rewards, txs: b.txs }));
    const moveTo = seconds(moved.timestamp);
    assert.deepEqual(shape.slice(0, -1), [
      // The permissioned subnet validator leaves at its end, with no reward.
      { kind: 'standard', time: t0 + 80, rewards: undefined, txs: [] },
      { kind: 'proposal', time: t0 + 100, rewards: staking.a, txs: [] },
      { kind: 'commit', time: t0 + 100, rewards: undefined, txs: [] },
      // The L1 validator goes inactive the second its balance runs out.
      { kind: 'standard', time: dryAt, rewards: undefined, txs: [] },
      // At one end time the delegator comes before its validator.
      { kind: 'proposal', time: t0 + 300, rewards: staking.delegator, txs: [] },
      { kind: 'commit', time: t0 + 300, rewards: undefined, txs: [] },
      { kind: 'proposal', time: t0 + 300, rewards: staking.b, txs: [] },
      { kind: 'commit', time: t0 + 300, rewards: undefined, txs: [] },
      { kind: 'standard', time: moveTo, rewards: undefined, txs: [] },
    ]);
    const last = shape.at(-1)!;
    assert.deepEqual([last.kind, last.txs], ['standard', [lateTx]]);
    assert.ok(last.time >= moveTo);
    assert.equal(blocks.at(-2)!.height, Number(moved.height));
  });

  it('takes the L1 validator out of the signing set at the block of its time, not later', async () => {
    const dryBlock = blocks.find((b) => b.time === convertedAt + Number(DRY_BALANCE))!;
    assert.ok(dryBlock, 'a block at the time the balance ran out');
    const setAt = async (height: number) =>
      Object.keys(
        (await pResult(net.url, 'platform.getValidatorsAt', { height, subnetID: l1Subnet })).validators,
      ).sort();
    assert.deepEqual(await setAt(dryBlock.height - 1), [dryNode, fullNode].sort());
    assert.ok(!(await setAt(dryBlock.height)).includes(dryNode));
    const dry = (
      await pResult(net.url, 'platform.getCurrentL1Validators', { subnetID: l1Subnet })
    ).validators.find((v: any) => v.nodeID === dryNode);
    assert.equal(dry.balance, '0');
  });

  it('leaves none of the ended stakers current, each rewarded', async () => {
    const { validators } = await api.getCurrentValidators({ nodeIDs: [nodeA, nodeB] });
    assert.deepEqual(validators, []);
    for (const tx of [staking.a, staking.b, staking.delegator])
      assert.ok((await api.getRewardUTXOs({ txID: tx })).utxos.length > 0, tx);
  });
});
