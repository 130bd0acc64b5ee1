/**
 * A staker's start in the chain-data service is the node's: since Durango the P-chain ignores the
 * start time a staking tx declares and starts the staker at the accepting block's time. Wallets
 * still declare a start ahead of now (avalanchejs examples use now + a minute), so here a
 * delegation declares one ten minutes ahead, and every route that shows the stake must show it
 * running from its block, as `platform.getCurrentValidators` does: not pending, not later.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { Context, pvm, utils } from '@avalabs/avalanchejs';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { storeArgs } from '../helpers/postgres.js';
import { collectPages, waitIndexed } from './data-helpers.js';
import { EWOQ_ADDR, signAndIssue } from './pchain-helpers.js';

const AVAX = 1_000_000_000n;

describe('a delegation that declares a start ahead of its block', () => {
  let net: Devnet;
  let data: string;
  let sdk: Avalanche;
  const at = () => ({ serverURL: data });
  const ewoqP = utils.format('P', 'fuji', EWOQ_ADDR);
  let nodeId: string;
  let delegationTx: string;
  let declaredStart: bigint;
  /** The delegation as platform.getCurrentValidators reports it. */
  let live: { startTime: string; endTime: string; weight: string };

  before(async () => {
    net = await startDevnet({ args: ['--network', 'fuji', ...(await storeArgs())] });
    data = net.facts.urls.data;
    sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const ctx = await Context.getContextFromURI(net.url);
    const pApi = new pvm.PVMApi(net.url);
    const chainNow = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    nodeId = ((await pApi.getCurrentValidators()).validators[0] as any).nodeID;
    declaredStart = chainNow + 600n;
    delegationTx = await signAndIssue(
      pApi,
      pvm.newAddPermissionlessDelegatorTx(
        {
          feeState: await pApi.getFeeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: (await pApi.getUTXOs({ addresses: [ewoqP] })).utxos,
          nodeId,
          subnetId: ctx.pBlockchainID,
          start: declaredStart,
          end: chainNow + 3600n,
          weight: 25n * AVAX,
          rewardAddresses: [EWOQ_ADDR],
        },
        ctx,
      ),
    );
    await waitIndexed(net.url, data);
    const current = await call(`${net.url}/ext/bc/P`, 'platform.getCurrentValidators', { nodeIDs: [nodeId] });
    live = current.validators[0].delegators.find((d: any) => d.txID === delegationTx);
    assert.ok(live, 'the node lists the delegation as current');
    assert.ok(BigInt(live.startTime) < declaredStart, 'the node started it before the declared start');
  });
  after(async () => {
    await net?.stop();
  });

  it('lists the delegation as active from the start the node reports', async () => {
    const { items } = await collectPages<any>(
      await sdk.data.primaryNetwork.listDelegators({ nodeIds: nodeId }, at()),
      'delegators',
    );
    const mine = items.find((d) => d.txHash === delegationTx);
    assert.ok(mine, 'the delegation is listed');
    assert.equal(mine.delegationStatus, 'active');
    assert.equal(mine.startTimestamp, Number(live.startTime));
    assert.equal(mine.endTimestamp, Number(live.endTime));
    const pending = await sdk.data.primaryNetwork.listDelegators(
      { nodeIds: nodeId, delegationStatus: 'pending' },
      at(),
    );
    assert.deepEqual(pending.result.delegators, [], 'nothing is pending');
  });

  it('counts it in the validator it delegates to, as the node does', async () => {
    const details = await sdk.data.primaryNetwork.getValidatorDetails({ nodeId }, at());
    const v = details.result.validators[0] as any;
    const node = (await call(`${net.url}/ext/bc/P`, 'platform.getCurrentValidators', { nodeIDs: [nodeId] }))
      .validators[0];
    assert.equal(v.validationStatus, 'active');
    assert.equal(v.delegatorCount, Number(node.delegatorCount));
    assert.equal(v.amountDelegated, node.delegatorWeight);
    assert.equal(v.delegatorCount, 1);
  });

  it("shows the stake output's window and the staked balance from the block on", async () => {
    const utxos = await collectPages<any>(
      await sdk.data.primaryNetwork.utxos.listByAddressesV2(
        { blockchainId: 'p-chain', primaryNetworkAddressesBodyDto: { addresses: ewoqP }, pageSize: 100 },
        at(),
      ),
      'utxos',
    );
    const stake = utxos.items.find((u) => u.txHash === delegationTx && u.utxoType === 'STAKE');
    assert.ok(stake, 'the stake output is listed');
    assert.equal(stake.utxoStartTimestamp, Number(live.startTime));
    assert.equal(stake.utxoEndTimestamp, Number(live.endTime));

    const balances = (
      await sdk.data.primaryNetwork.balances.listByAddresses(
        { blockchainId: 'p-chain', addresses: ewoqP },
        at(),
      )
    ).balances as any;
    assert.deepEqual(balances.pendingStaked, [], 'the delegation is not pending');
    const staked = await call(`${net.url}/ext/bc/P`, 'platform.getStake', { addresses: [ewoqP] });
    assert.equal(balances.unlockedStaked[0].amount, String(staked.staked));
  });

  it('gives the staking transaction the start the node reports', async () => {
    const tx = (await sdk.data.primaryNetwork.transactions.get(
      { blockchainId: 'p-chain', txHash: delegationTx },
      at(),
    )) as any;
    assert.equal(tx.startTimestamp, Number(live.startTime));
    assert.equal(tx.endTimestamp, Number(live.endTime));
  });
});
