/**
 * Issue 3: with `--block-time`, txs wait in the mempool (status Processing) and the ones issued
 * within one interval share a block — including a tx spending a still-pending tx's output.
 * Also: a node restarted with indexing turned on catches its X indexes up.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  avaxSerial,
  avm,
  avmSerial,
  Context,
  TransferableOutput,
  TransferOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { EWOQ_ADDR, EWOQ_KEY, EWOQ_X, utxosOf, waitAccepted, xCall, xResult } from './xchain-helpers.js';
import { innerHex, unwrapContainer } from './proposer-helpers.js';

describe('X-chain block time and index catch-up', () => {
  let net: Devnet;
  let ctx: Context.Context;
  const dataDir = tempDir();

  before(async () => {
    net = await startDevnet({ dataDir, args: ['--block-time', '1500', '--index-enabled', 'false'] });
    ctx = await Context.getContextFromURI(net.url);
  });
  after(async () => {
    await net?.stop();
  });

  it('batches txs issued within one interval, a pending tx’s output spendable', async () => {
    const url = net.url;
    const other = utils.bech32ToBytes(net.facts.keys[1].xAddress);
    const utxos = await utxosOf(url, EWOQ_X);
    const first = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 5n, [other]),
    ]);
    await addTxSignatures({ unsignedTx: first, privateKeys: [EWOQ_KEY] });
    const { txID: firstID } = await new avm.AVMApi(url).issueSignedTx(first.getSignedTx());
    assert.equal((await xResult(url, 'avm.getTxStatus', { txID: firstID })).status, 'Processing');
    // Not accepted yet, so getTx does not know it; the change output is not a UTXO yet either.
    assert.match((await xCall(url, 'avm.getTx', { txID: firstID })).error!.message, /not found/);

    // Spend the pending change output: the second tx builds on the first before any block.
    const outputs = (first.getSignedTx().unsignedTx as avmSerial.BaseTx).baseTx.outputs;
    const changeIndex = outputs.findIndex((o) => (o.output as TransferOutput).amount() !== 5n);
    const pendingUtxo = new Utxo(
      avaxSerial.UTXOID.fromNative(firstID, changeIndex),
      outputs[changeIndex].assetId,
      outputs[changeIndex].output,
    );
    const second = avm.newBaseTx(
      ctx,
      [EWOQ_ADDR],
      [pendingUtxo],
      [TransferableOutput.fromNative(ctx.avaxAssetID, 7n, [other])],
    );
    await addTxSignatures({ unsignedTx: second, privateKeys: [EWOQ_KEY] });
    const { txID: secondID } = await new avm.AVMApi(url).issueSignedTx(second.getSignedTx());

    await waitAccepted(url, firstID);
    await waitAccepted(url, secondID);
    const { height } = await xResult(url, 'avm.getHeight');
    assert.equal(height, '1', 'one block for both');
    const { block } = await xResult(url, 'avm.getBlockByHeight', { height: 1, encoding: 'json' });
    assert.deepEqual(
      block.txs.map((t: any) => t.id),
      [firstID, secondID],
    );
  });

  it('fills the X indexes when indexing is turned on', async () => {
    const route = await fetch(`${net.url}/ext/index/X/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(route.status, 404, 'no index API while indexing is off');
    await net.stop();
    net = await startDevnet({ dataDir, args: ['--index-enabled', 'true'] });
    const url = net.url;
    const blocks = await xResult(
      url,
      'index.getContainerRange',
      { startIndex: 0, numToFetch: 10, encoding: 'hex' },
      '/ext/index/X/block',
    );
    assert.equal(blocks.containers.length, 1, 'block 1 (the genesis is not indexed)');
    const one = await xResult(url, 'avm.getBlockByHeight', { height: 1 });
    const genesis = await xResult(url, 'avm.getBlockByHeight', { height: 0, encoding: 'json' });
    // Caught up as the reference indexes blocks: block 1 in a proposervm block on the genesis.
    assert.equal(innerHex(blocks.containers[0]), one.block);
    const wrapped = unwrapContainer(blocks.containers[0].bytes);
    assert.equal(blocks.containers[0].id, wrapped.id);
    assert.equal(wrapped.parentId, genesis.block.id);
    const txs = await xResult(
      url,
      'index.getContainerRange',
      { startIndex: 0, numToFetch: 10, encoding: 'hex' },
      '/ext/index/X/tx',
    );
    assert.equal(txs.containers.length, 2);
    const { block } = await xResult(url, 'avm.getBlockByHeight', { height: 1, encoding: 'json' });
    assert.deepEqual(
      txs.containers.map((c: any) => c.id),
      block.txs.map((t: any) => t.id),
    );
  });
});
