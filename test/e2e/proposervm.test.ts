/**
 * The Granite `proposervm.*` API on every chain, through @avalanche-sdk/client's proposervm
 * clients: the proposed height follows the P-chain tip, and an epoch keeps one P-chain height
 * until time moves past its end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';

const EPOCH_SECONDS = 300;

describe('proposervm API', () => {
  let net: Devnet;
  let client: any;
  before(async () => {
    net = await startDevnet();
    // The SDK adds its sub-clients only for Avalanche chain ids, which its types do not track.
    client = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
  });
  after(async () => {
    await net?.stop();
  });

  const pHeight = async () => BigInt((await call(`${net.url}/ext/bc/P`, 'platform.getHeight')).height);

  it('answers the proposed height on the P-, X- and C-chains', async () => {
    const tip = await pHeight();
    for (const chain of ['pChain', 'xChain', 'cChain']) {
      const { height } = await client.proposervm[chain].getProposedHeight();
      assert.equal(typeof height, 'string');
      assert.equal(BigInt(height), tip, chain);
    }
  });

  it('pins each epoch to one P-chain height and moves on with time', async () => {
    const first = await client.proposervm.pChain.getCurrentEpoch();
    for (const field of ['number', 'startTime', 'pChainHeight']) assert.equal(typeof first[field], 'string');
    assert.ok(Number(first.number) >= 1);
    assert.ok(BigInt(first.pChainHeight) <= (await pHeight()));

    await call(`${net.url}/ext/bc/P`, 'platform.advanceTime', { seconds: 2 * EPOCH_SECONDS });
    const later = await client.proposervm.xChain.getCurrentEpoch();
    assert.ok(Number(later.number) >= Number(first.number) + 2);
    const elapsed = Number(later.startTime) - Number(first.startTime);
    assert.equal(elapsed % EPOCH_SECONDS, 0);
    assert.equal(elapsed / EPOCH_SECONDS, Number(later.number) - Number(first.number));
    assert.ok(BigInt(later.pChainHeight) >= BigInt(first.pChainHeight));

    // A block within the same epoch does not move its height. Into the first seconds of the next
    // epoch first, so that one more second (and the P-chain block it brings) stays within it.
    const advance = async (seconds: number) =>
      Date.parse((await call(`${net.url}/ext/bc/P`, 'platform.advanceTime', { seconds })).timestamp) / 1000;
    const now = await advance(1);
    const start = Number(later.startTime);
    const next = start + EPOCH_SECONDS * Math.ceil((now + 1 - start) / EPOCH_SECONDS);
    await advance(next - now + 1);
    const current = await client.proposervm.xChain.getCurrentEpoch();
    assert.equal(Number(current.startTime), next);
    const height = await pHeight();
    await advance(1);
    assert.ok((await pHeight()) > height, 'the second brought a P-chain block');
    assert.deepEqual(await client.proposervm.cChain.getCurrentEpoch(), current);
  });

  it('answers on the legacy and id paths, and refuses unknown methods in the JSON-RPC shape', async () => {
    const byId = await call(
      `${net.url}/ext/bc/${net.facts.chains.X.blockchainID}/proposervm`,
      'proposervm.getProposedHeight',
    );
    assert.equal(BigInt(byId.height), await pHeight());
    const { body } = await rpc(`${net.url}/ext/bc/P/proposervm`, 'proposervm.nope');
    assert.match(body.error.message, /can't find method "proposervm.Nope"/);
  });
});
