/**
 * The C-chain as dapp and tooling code drives it through ethers v6 and viem, compared with what
 * coreth answers: replacing a pooled transaction at the devnet's wei-level fees.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ethers } from 'ethers';
import { cChainSuite, EWOQ_KEY } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';

describe('C-chain through dapp clients', () => {
  const suite = cChainSuite();

  it('replaces a pooled transaction only when both fees rise, as geth does at wei-level fees', async () => {
    const provider = new ethers.JsonRpcProvider(suite.url, undefined, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    const signer = new ethers.Wallet(EWOQ_KEY, provider);
    const to = ethers.Wallet.createRandom().address;
    // A nonce gap keeps the transactions queued, so each send meets the one before it.
    const nonce = (await provider.getTransactionCount(signer.address, 'pending')) + 1;
    const fees = { maxFeePerGas: 3n, maxPriorityFeePerGas: 1n };
    const sign = (value: bigint, f: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) =>
      signer.signTransaction({ to, value, nonce, gasLimit: 21_000n, chainId: 43112n, type: 2, ...f });
    const first = await provider.broadcastTransaction(await sign(1n, fees));
    // 10% of 3 wei rounds to nothing: geth's list.Add also wants each cap strictly higher.
    for (const f of [fees, { maxFeePerGas: 4n, maxPriorityFeePerGas: 1n }]) {
      const raw = await sign(2n, f);
      assert.deepEqual((await rpc(suite.url, 'eth_sendRawTransaction', [raw])).body.error, {
        code: -32000,
        message: 'replacement transaction underpriced',
      });
      await assert.rejects(provider.broadcastTransaction(raw), { code: 'REPLACEMENT_UNDERPRICED' });
    }
    const second = await provider.broadcastTransaction(
      await sign(3n, { maxFeePerGas: 4n, maxPriorityFeePerGas: 2n }),
    );
    const queued = (await rpc(suite.url, 'txpool_content', [])).body.result.queued;
    const [pooled] = Object.values(queued).map((byNonce: any) => byNonce[String(nonce)]);
    assert.equal(pooled.hash, second.hash);
    assert.notEqual(first.hash, second.hash);
    // Filling the gap mines the replacement; ethers reports the first as replaced.
    await (await signer.sendTransaction({ to, value: 4n, nonce: nonce - 1 })).wait();
    await assert.rejects(first.wait(), { code: 'TRANSACTION_REPLACED', reason: 'replaced' });
    assert.equal((await second.wait())!.status, 1);
    assert.equal(await provider.getBalance(to), 7n);
    provider.destroy();
  });
});
