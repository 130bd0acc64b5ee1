/**
 * The C-chain as dapp and tooling code drives it through ethers v6 and viem, compared with what
 * coreth answers: replacing a pooled transaction at the devnet's wei-level fees, what a block
 * looks like from inside the EVM (PREVRANDAO, COINBASE) in mined transactions and in calls with
 * block overrides, batches of notifications and odd request ids, state override slots, when a
 * pending transaction is announced, and estimates that run out of gas.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ethers } from 'ethers';
import { type Hex } from 'viem';
import { cChainSuite, EWOQ_KEY } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { openWsRpc } from '../helpers/ws-rpc.js';

/**
 * Runtime code that returns, as six words: NUMBER, TIMESTAMP, BASEFEE, COINBASE, PREVRANDAO,
 * GASLIMIT. `BLOCK_PROBE_INIT` deploys it and also stores PREVRANDAO in slot 0 while being mined.
 */
const BLOCK_PROBE = '0x435f52426020524860405241606052446080524560a05260c05ff3';
const BLOCK_PROBE_INIT = ('0x445f55' + '601b600d5f39601b5ff3' + BLOCK_PROBE.slice(2)) as Hex;

function words(data: string): bigint[] {
  const hex = data.slice(2);
  const out: bigint[] = [];
  for (let i = 0; i < hex.length; i += 64) out.push(BigInt('0x' + hex.slice(i, i + 64)));
  return out;
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

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

  it('runs blocks and calls with PREVRANDAO set to the difficulty, and applies coinbase and difficulty overrides', async () => {
    const { client, wallet, url } = suite;
    const hash = await wallet.sendTransaction({ data: BLOCK_PROBE_INIT } as any);
    const receipt = await client.waitForTransactionReceipt({ hash });
    const probe = receipt.contractAddress!;
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    assert.equal(block.difficulty, 1n);
    // coreth copies the header's difficulty (always 1) into PREVRANDAO since Shanghai.
    assert.equal(BigInt((await client.getStorageAt({ address: probe, slot: '0x0' }))!), 1n);

    const at = (await rpc(url, 'eth_call', [{ to: probe }, 'latest'])).body.result as string;
    const [number, time, , coinbase, prevrandao, gasLimit] = words(at);
    assert.equal(number, receipt.blockNumber);
    assert.equal(time, block.timestamp);
    assert.equal(coinbase, BigInt(block.miner));
    assert.equal(prevrandao, 1n);
    assert.ok(gasLimit >= block.gasLimit);

    const overridden = await rpc(url, 'eth_call', [
      { to: probe },
      'latest',
      {},
      { coinbase: '0x2222222222222222222222222222222222222222', difficulty: '0x2a', number: '0x100' },
    ]);
    const w = words(overridden.body.result);
    assert.equal(w[0], 0x100n);
    assert.equal(w[3], 0x2222222222222222222222222222222222222222n);
    assert.equal(w[4], 0x2an);

    // A pending call runs as the next block; an override of one field leaves the others so.
    const pending = await rpc(url, 'eth_call', [{ to: probe }, 'pending', {}, { gasLimit: '0x1234567' }]);
    const p = words(pending.body.result);
    assert.equal(p[0], receipt.blockNumber + 1n);
    assert.equal(p[5], 0x1234567n);
  });

  it('answers a batch of notifications with nothing and object ids as invalid, as geth, and still runs the batch', async () => {
    const { url, client } = suite;
    const to = ethers.Wallet.createRandom().address;
    const signer = new ethers.Wallet(EWOQ_KEY);
    const nonce = await client.getTransactionCount({ address: signer.address as Hex });
    const raw = (n: number) =>
      signer.signTransaction({ to, value: 1n, nonce: n, gasLimit: 21_000n, chainId: 43112n, gasPrice: 10n });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', method: 'eth_sendRawTransaction', params: [await raw(nonce)] },
        { jsonrpc: '2.0', method: 'eth_blockNumber' },
      ]),
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    // An object or array is no id to geth (hasValidID): the request is invalid, the answer's id null.
    const odd = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: [1], method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 'x', method: 'eth_chainId' },
      ]),
    }).then((r) => r.json());
    const invalid = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } };
    assert.deepEqual(odd, [invalid, invalid, { jsonrpc: '2.0', id: 'x', result: '0xa868' }]);
    const ws = await openWsRpc(suite.net.facts.urls.cChainWs);
    try {
      ws.socket.send(
        JSON.stringify([
          { jsonrpc: '2.0', method: 'eth_sendRawTransaction', params: [await raw(nonce + 1)] },
        ]),
      );
      // Replies come in order: the answer to a later call proves none came for the batch.
      const after = await ws.call('eth_chainId', []);
      assert.equal(after.result, '0xa868');
      assert.deepEqual(ws.messages, [after]);
    } finally {
      ws.socket.close();
    }
    await until(async () => (await client.getBalance({ address: to as Hex })) === 2n);
  });

  it('reads state override slots as 32-byte hashes, as coreth, and refuses state with stateDiff', async () => {
    const { url, client } = suite;
    const at = '0x00000000000000000000000000000000000000c1';
    // Runtime code returning storage slot 1.
    const code = '0x60015460005260206000f3';
    const slot1: Hex = `0x${'00'.repeat(31)}01`;
    const value: Hex = `0x${'00'.repeat(31)}2a`;
    const read = (state: Record<string, string>, key: 'state' | 'stateDiff' = 'stateDiff') =>
      rpc(url, 'eth_call', [{ to: at }, 'latest', { [at]: { code, [key]: state } }]);
    assert.equal(BigInt((await read({ [slot1]: value })).body.result), 42n);
    assert.equal(BigInt((await read({ [slot1]: value }, 'state')).body.result), 42n);
    // A short key is refused: it used to be read as slot 0 ('0x1' has an odd number of digits).
    for (const short of ['0x1', '0x01'])
      assert.deepEqual((await read({ [short]: value })).body.error, {
        code: -32602,
        message: `invalid argument 2: hex string has length ${short.length - 2}, want 64 for common.Hash`,
      });
    // viem sends stateOverride the same way.
    const viaViem = await client.call({
      to: at,
      stateOverride: [{ address: at, code, stateDiff: [{ slot: slot1, value }] }],
    });
    assert.equal(BigInt(viaViem.data!), 42n);
    const both = await rpc(url, 'eth_call', [
      { to: at },
      'latest',
      { [at]: { code, state: {}, stateDiff: {} } },
    ]);
    assert.deepEqual(both.body.error, {
      code: -32000,
      message: "account 0x00000000000000000000000000000000000000C1 has both 'state' and 'stateDiff'",
    });
  });

  it('announces a pending transaction once it is executable, as geth: a queued one when its gap fills', async () => {
    const { url, client } = suite;
    const ws = await openWsRpc(suite.net.facts.urls.cChainWs);
    try {
      const sub = (await ws.call('eth_subscribe', ['newPendingTransactions'])).result as string;
      const filter = (await rpc(url, 'eth_newPendingTransactionFilter', [])).body.result as string;
      const signer = new ethers.Wallet(EWOQ_KEY);
      const nonce = await client.getTransactionCount({ address: signer.address as Hex });
      const to = ethers.Wallet.createRandom().address;
      const raw = (n: number) =>
        signer.signTransaction({
          to,
          value: 1n,
          nonce: n,
          gasLimit: 21_000n,
          chainId: 43112n,
          gasPrice: 10n,
        });
      const later = (await rpc(url, 'eth_sendRawTransaction', [await raw(nonce + 1)])).body.result as string;
      // A call answered after the send proves no notification is on its way for it.
      await ws.call('eth_chainId', []);
      assert.equal(ws.notes.length, 0);
      assert.deepEqual((await rpc(url, 'eth_getFilterChanges', [filter])).body.result, []);
      const first = (await rpc(url, 'eth_sendRawTransaction', [await raw(nonce)])).body.result as string;
      await until(async () => ws.notes.length >= 2);
      assert.deepEqual(
        ws.notes.map((n) => [n.subscription, n.result]),
        [
          [sub, first],
          [sub, later],
        ],
      );
      assert.deepEqual((await rpc(url, 'eth_getFilterChanges', [filter])).body.result, [first, later]);
      await client.waitForTransactionReceipt({ hash: later as Hex });
    } finally {
      ws.socket.close();
    }
  });

  it('estimates a call that runs out of gas at the highest limit as needing more than the allowance', async () => {
    const at = '0x00000000000000000000000000000000000000c2';
    const loop = { [at]: { code: '0x5b5f56' } }; // JUMPDEST PUSH0 JUMP: loops until out of gas
    const estimate = await rpc(suite.url, 'eth_estimateGas', [{ to: at, gas: '0x30d40' }, 'latest', loop]);
    assert.deepEqual(estimate.body.error, {
      code: -32000,
      message: 'gas required exceeds allowance (200000)',
    });
    // A call says what happened to it.
    const call = await rpc(suite.url, 'eth_call', [{ to: at, gas: '0x30d40' }, 'latest', loop]);
    assert.deepEqual(call.body.error, { code: -32000, message: 'out of gas' });
  });
});
