/**
 * Issue 4: the P-chain's state survives `kill -9` — accepted blocks, UTXOs, stakers, the index
 * and the moved clock are all there after a restart, and the chain keeps building on them.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Context, pvm, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { call, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { EWOQ_ADDR, EWOQ_P, pResult, signAndIssue } from './pchain-helpers.js';

const AVAX = 1_000_000_000n;

describe('P-chain durability', () => {
  const dataDir = tempDir();
  let net: Devnet | undefined;
  after(async () => {
    await net?.stop();
  });

  it('keeps blocks, balances, the index and the clock across kill -9', async () => {
    net = await startDevnet({ dataDir });
    let api = new pvm.PVMApi(net.url);
    let ctx = await Context.getContextFromURI(net.url);
    const to = utils.hexToBuffer('0x' + '33'.repeat(20));
    const tx = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 7n * AVAX, [to])],
      },
      ctx,
    );
    const txID = await signAndIssue(api, tx);
    const moved = await pResult(net.url, 'platform.advanceTime', { seconds: 86_400 });
    const before = {
      height: (await api.getHeight()).height,
      balance: (await api.getBalance({ addresses: [EWOQ_P] })).balance,
      timestamp: (await api.getTimestamp()).timestamp,
      last: await call(`${net.url}/ext/index/P/block`, 'index.getLastAccepted', { encoding: 'hex' }),
    };
    await net.kill();

    net = await startDevnet({ dataDir });
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
    assert.equal((await api.getHeight()).height, before.height);
    assert.equal((await api.getBalance({ addresses: [EWOQ_P] })).balance, before.balance);
    assert.equal((await api.getTxStatus({ txID })).status, 'Committed');
    assert.deepEqual(
      await call(`${net.url}/ext/index/P/block`, 'index.getLastAccepted', { encoding: 'hex' }),
      before.last,
    );
    const fee = await api.getFeeState();

    const again = pvm.newBaseTx(
      {
        feeState: fee,
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [to])],
      },
      ctx,
    );
    await signAndIssue(api, again);
    assert.equal(BigInt((await api.getHeight()).height), BigInt(before.height) + 1n);
    // The next block is stamped by the clock, so its time shows the move survived the restart.
    const { timestamp } = await api.getTimestamp();
    assert.ok(Date.parse(timestamp) >= Date.parse(moved.timestamp), 'the moved clock survived');
    const toBalance = await api.getBalance({ addresses: [utils.format('P', 'local', to)] });
    assert.equal(toBalance.unlocked, 8n * AVAX);
  });
});
