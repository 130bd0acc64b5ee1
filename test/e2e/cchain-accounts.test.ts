/**
 * The node's accounts (the devnet's prefunded keys) as dapp tools use them: ethers'
 * JsonRpcSigner and Hardhat's remote accounts send through eth_sendTransaction, sign through
 * eth_signTransaction; eth_fillTransaction and eth_pendingTransactions as coreth answers them,
 * the 100 AVAX cap on any transaction's fee, and raw transactions and receipts (blocks come
 * every 2 s here, so a transaction is seen in the pool first).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { ethers } from 'ethers';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { cChainClients, EWOQ } from '../helpers/cchain-clients.js';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';

describe('C-chain node accounts', () => {
  let net: Devnet;
  let url: string;
  let provider: ethers.JsonRpcProvider;
  let client: ReturnType<typeof cChainClients>['client'];

  before(async () => {
    // Blocks every 2 s, so that a transaction stays in the pool long enough to be listed.
    net = await startDevnet({ args: ['--block-time', '2000'] });
    url = net.facts.urls.cChainRpc;
    provider = new ethers.JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 50;
    ({ client } = cChainClients(url));
  });
  after(async () => {
    provider?.destroy();
    await net?.stop();
  });

  it('sends the transaction type its fields ask for through eth_sendTransaction', async () => {
    const signer = await provider.getSigner(EWOQ);
    const to = ethers.Wallet.createRandom().address;
    const accessList = [{ address: to, storageKeys: [ethers.zeroPadValue('0x07', 32)] }];
    // A gas price and an access list: an EIP-2930 transaction carrying the list.
    const sent = await signer.sendTransaction({ to, value: 5n, gasPrice: 10n ** 11n, accessList });
    const mined = await provider.getTransaction(sent.hash);
    assert.equal(mined!.type, 1);
    assert.deepEqual(
      mined!.accessList!.map((e) => ({ address: e.address, storageKeys: [...e.storageKeys] })),
      accessList,
    );
    assert.equal((await sent.wait())!.status, 1);
    // No price at all: EIP-1559 fees, the cap twice the head's base fee plus the tip.
    const plain = await rpc(url, 'eth_sendTransaction', [{ from: EWOQ, to, value: '0x1' }]);
    const receipt = await client.waitForTransactionReceipt({ hash: plain.body.result });
    assert.equal(receipt.type, 'eip1559');
    assert.equal(receipt.gasUsed, 21_000n);

    const refuse = async (args: Record<string, string>) =>
      (await rpc(url, 'eth_sendTransaction', [{ from: EWOQ, ...args }])).body.error;
    assert.deepEqual(await refuse({ value: '0x1' }), {
      code: -32000,
      message: 'contract creation without any data provided',
    });
    assert.equal(
      (await refuse({ to, chainId: '0x1' })).message,
      "chainId does not match node's (have=1, want=43112)",
    );
    assert.equal(
      (await refuse({ to, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' })).message,
      'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)',
    );
    assert.equal(
      (await refuse({ to, gasPrice: '0x0' })).message,
      'gasPrice must be non-zero after london fork',
    );
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    assert.equal(
      (await rpc(url, 'eth_sendTransaction', [{ from: stranger, to }])).body.error.message,
      'unknown account',
    );
  });

  it('signs without sending through eth_signTransaction, and fills through eth_fillTransaction', async () => {
    const to = ethers.Wallet.createRandom().address;
    const nonce = await provider.getTransactionCount(EWOQ, 'pending');
    const args = {
      from: EWOQ,
      to,
      value: '0x3',
      gas: '0x5208',
      maxFeePerGas: '0x174876e800',
      maxPriorityFeePerGas: '0x1',
      nonce: ethers.toQuantity(nonce),
    };
    const signed = await rpc(url, 'eth_signTransaction', [args]);
    const tx = ethers.Transaction.from(signed.body.result.raw);
    assert.equal(tx.from, EWOQ);
    assert.equal(tx.to, to);
    assert.equal(tx.nonce, nonce);
    assert.equal(tx.type, 2);
    assert.equal(signed.body.result.tx.hash, tx.hash);
    assert.equal(signed.body.result.tx.gasPrice, null);
    // Nothing was sent: the signed bytes go out when the caller sends them.
    assert.equal(await provider.getTransactionCount(EWOQ, 'pending'), nonce);
    const hash = await provider.send('eth_sendRawTransaction', [signed.body.result.raw]);
    assert.equal(hash, tx.hash);
    await provider.waitForTransaction(hash!);
    for (const [missing, message] of [
      ['nonce', 'nonce not specified'],
      ['gas', 'gas not specified'],
      ['maxFeePerGas', 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas'],
    ]) {
      const partial: Record<string, string> = { ...args };
      delete partial[missing];
      assert.equal((await rpc(url, 'eth_signTransaction', [partial])).body.error.message, message);
    }
    assert.equal(
      (await rpc(url, 'personal_signTransaction', [{ to, gas: '0x5208', gasPrice: '0x1', nonce: '0x0' }, '']))
        .body.error.message,
      'sender not specified',
    );

    const filled = (await rpc(url, 'eth_fillTransaction', [{ from: EWOQ, to, value: '0x1' }])).body.result;
    const unsigned = ethers.Transaction.from(filled.raw);
    const head = await client.getBlock();
    assert.equal(unsigned.nonce, nonce + 1);
    assert.equal(unsigned.gasLimit, 21_000n);
    assert.equal(filled.tx.maxFeePerGas, ethers.toQuantity(unsigned.maxFeePerGas!));
    assert.equal(unsigned.maxFeePerGas, unsigned.maxPriorityFeePerGas! + 2n * head.baseFeePerGas!);
    // Unsigned: v, r and s are zero.
    assert.deepEqual([filled.tx.v, filled.tx.r, filled.tx.s], ['0x0', '0x0', '0x0']);
  });

  it("lists only the node's own executable pool transactions in eth_pendingTransactions", async () => {
    const to = ethers.Wallet.createRandom().address as `0x${string}`;
    // A funded key the node does not hold: its transactions are not the node's.
    const outsider = privateKeyToAccount(generatePrivateKey());
    const funding = (
      await rpc(url, 'eth_sendTransaction', [
        { from: EWOQ, to: outsider.address, value: '0xde0b6b3a7640000' },
      ])
    ).body.result;
    await client.waitForTransactionReceipt({ hash: funding });
    const hash = (await rpc(url, 'eth_sendTransaction', [{ from: EWOQ, to, value: '0x1' }])).body.result;
    const theirs = await outsider.signTransaction({
      to,
      gas: 21_000n,
      gasPrice: 10n ** 10n,
      nonce: 0,
      chainId: 43112,
      type: 'legacy',
    });
    const theirHash = (await rpc(url, 'eth_sendRawTransaction', [theirs])).body.result;
    assert.match(theirHash, /^0x[0-9a-f]{64}$/);
    // txpool_inspect summarises each as geth does, the recipient checksummed.
    const inspect = (await rpc(url, 'txpool_inspect', [])).body.result;
    const nonce = Number((await rpc(url, 'eth_getTransactionByHash', [hash])).body.result.nonce);
    const fee = (await rpc(url, 'eth_getTransactionByHash', [hash])).body.result.maxFeePerGas;
    assert.equal(inspect.pending[EWOQ][String(nonce)], `${to}: 1 wei + 21000 gas × ${BigInt(fee)} wei`);
    assert.equal(inspect.pending[outsider.address]['0'], `${to}: 0 wei + 21000 gas × 10000000000 wei`);
    const listed = (await rpc(url, 'eth_pendingTransactions', [])).body.result;
    assert.deepEqual(
      listed.map((t: any) => [t.hash, t.from, t.blockHash]),
      [[hash, EWOQ.toLowerCase(), null]],
    );
    await client.waitForTransactionReceipt({ hash });
    await client.waitForTransactionReceipt({ hash: theirHash });
    assert.deepEqual((await rpc(url, 'eth_pendingTransactions', [])).body.result, []);
  });

  it('serves raw transactions, pooled or accepted, and a block’s raw receipts', async () => {
    const send = async (args: Record<string, string>) =>
      (await rpc(url, 'eth_sendTransaction', [{ from: EWOQ, ...args }])).body.result as `0x${string}`;
    // A transfer, and a creation whose init code logs (PUSH0 PUSH0 LOG0 STOP).
    const hashes = [await send({ to: EWOQ, value: '0x1' }), await send({ data: '0x5f5fa000' })];
    const raw = async (method: string, params: unknown[]) => (await rpc(url, method, params)).body.result;
    const pooled = await raw('eth_getRawTransactionByHash', [hashes[0]]);
    assert.equal(ethers.Transaction.from(pooled).hash, hashes[0], 'a pooled transaction’s bytes');
    assert.equal(await raw('debug_getRawTransaction', [hashes[0]]), pooled);
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
    for (const r of receipts) {
      const bytes = await raw('eth_getRawTransactionByHash', [r.transactionHash]);
      assert.equal(ethers.Transaction.from(bytes).hash, r.transactionHash);
      const index = ethers.toQuantity(r.transactionIndex);
      assert.equal(
        await raw('eth_getRawTransactionByBlockNumberAndIndex', [ethers.toQuantity(r.blockNumber), index]),
        bytes,
      );
      assert.equal(await raw('eth_getRawTransactionByBlockHashAndIndex', [r.blockHash, index]), bytes);
    }
    // Not found: geth's "0x".
    const nowhere = '0x' + '11'.repeat(32);
    assert.equal(await raw('eth_getRawTransactionByHash', [nowhere]), '0x');
    assert.equal(
      await raw('eth_getRawTransactionByBlockHashAndIndex', [receipts[0].blockHash, '0x63']),
      '0x',
    );
    // The raw receipts are what each block's receiptsRoot commits to.
    for (const blockNumber of new Set(receipts.map((r) => r.blockNumber))) {
      const encoded: string[] = await raw('debug_getRawReceipts', [ethers.toQuantity(blockNumber)]);
      const trie = new MerklePatriciaTrie();
      for (const [i, r] of encoded.entries()) await trie.put(RLP.encode(i), ethers.getBytes(r));
      const block = await client.getBlock({ blockNumber });
      assert.equal(ethers.hexlify(trie.root()), block.receiptsRoot);
      assert.equal(encoded.length, block.transactions.length);
    }
    assert.equal(await raw('debug_getRawReceipts', [nowhere]), null);
  });

  it('refuses a transaction its sender could not pay for after its pending ones', async () => {
    const sender = privateKeyToAccount(generatePrivateKey());
    const funding = (
      await rpc(url, 'eth_sendTransaction', [{ from: EWOQ, to: sender.address, value: '0xde0b6b3a7640000' }])
    ).body.result;
    await client.waitForTransactionReceipt({ hash: funding });
    const spend = (nonce: number) =>
      sender.signTransaction({
        to: EWOQ,
        value: 6n * 10n ** 17n,
        gas: 21_000n,
        gasPrice: 10n ** 10n,
        nonce,
        chainId: 43112,
        type: 'legacy',
      });
    const first = (await rpc(url, 'eth_sendRawTransaction', [await spend(0)])).body.result;
    assert.match(first, /^0x[0-9a-f]{64}$/);
    // Each alone is affordable; both are not (the second would fail in the block).
    const cost = 21_000n * 10n ** 10n + 6n * 10n ** 17n;
    const second = await rpc(url, 'eth_sendRawTransaction', [await spend(1)]);
    assert.equal(
      second.body.error.message,
      `insufficient funds for gas * price + value: balance ${10n ** 18n}, queued cost ${cost}, tx cost ${cost}, overshot ${2n * cost - 10n ** 18n}`,
    );
    assert.equal((await client.waitForTransactionReceipt({ hash: first })).status, 'success');
  });

  it('refuses a transaction offering more than 100 AVAX of fees, before anything else', async () => {
    const poor = privateKeyToAccount(generatePrivateKey());
    const raw = await poor.signTransaction({
      to: EWOQ,
      gas: 21_000n,
      gasPrice: 10n ** 16n,
      nonce: 0,
      chainId: 43112,
      type: 'legacy',
    });
    assert.deepEqual((await rpc(url, 'eth_sendRawTransaction', [raw])).body.error, {
      code: -32000,
      message: 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)',
    });
    const dear = await rpc(url, 'eth_sendTransaction', [
      { from: EWOQ, to: EWOQ, gas: '0x5208', gasPrice: '0x' + (10n ** 16n).toString(16) },
    ]);
    assert.equal(dear.body.error.message, 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)');
  });
});
