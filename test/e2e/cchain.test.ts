/**
 * Issue 5, the C-chain through viem: genesis balances, transfers with receipts, the network's
 * chain id, durable blocks across kill -9, and bad transactions answered with geth's errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  parseGwei,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { rpc, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

function localChain(url: string) {
  return defineChain({
    id: 43112,
    name: 'Flurry C',
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
}

describe('C-chain through viem', () => {
  let net: Devnet;
  let url: string;
  let client: PublicClient;
  const dataDir = tempDir();
  before(async () => {
    net = await startDevnet({ dataDir });
    url = net.facts.urls.cChainRpc;
    client = createPublicClient({ chain: localChain(url), transport: http(url), cacheTime: 0 });
  });
  after(async () => {
    await net?.stop();
  });

  it('serves the network identity and the genesis allocation', async () => {
    assert.equal(await client.getChainId(), 43112);
    // Fees go to the blackhole, before the first block too.
    for (const method of ['eth_coinbase', 'eth_etherbase'])
      assert.equal((await rpc(url, method, [])).body.result, '0x0100000000000000000000000000000000000000');
    assert.equal(await client.getBalance({ address: EWOQ }), parseEther('50000000'));
    const genesis = await client.getBlock({ blockNumber: 0n });
    assert.equal(genesis.gasLimit, 100_000_000n);
    // Genesis carries the network's start time, not the zero of a dev chain.
    assert.ok(Number(genesis.timestamp) > 1_700_000_000 && Number(genesis.timestamp) <= Date.now() / 1000);
  });

  it('moves AVAX with a signed transfer and answers its receipt', async () => {
    const account = privateKeyToAccount(EWOQ_KEY);
    const wallet = createWalletClient({ account, chain: localChain(url), transport: http(url) });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const before = await client.getBlockNumber();
    const hash = await wallet.sendTransaction({ to, value: parseEther('1.5') });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    assert.equal(receipt.status, 'success');
    assert.equal(receipt.gasUsed, 21000n);
    assert.ok(receipt.blockNumber > before);
    assert.equal(await client.getBalance({ address: to }), parseEther('1.5'));
    const tx = await client.getTransaction({ hash });
    assert.equal(tx.from.toLowerCase(), EWOQ.toLowerCase());
    const block = await client.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true });
    assert.equal(block.transactions[0].hash, hash);
    assert.equal(block.hash, receipt.blockHash);
  });

  it("offers coreth's slow, normal and fast fee choices (eth_suggestPriceOptions)", async () => {
    // The base fee read either side, so a second boundary between the reads cannot fail the test.
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        ['eth_baseFee', 'eth_suggestPriceOptions', 'eth_maxPriorityFeePerGas', 'eth_baseFee'].map(
          (method, id) => ({
            jsonrpc: '2.0',
            id,
            method,
            params: [],
          }),
        ),
      ),
    });
    const [before, options, tip, after] = ((await res.json()) as any[]).map((r) => r.result);
    assert.deepEqual(Object.keys(options), ['slow', 'normal', 'fast']);
    const tips = ['slow', 'normal', 'fast'].map((k) => BigInt(options[k].maxPriorityFeePerGas));
    const doubled = new Set(
      ['slow', 'normal', 'fast'].map(
        (k) => BigInt(options[k].maxFeePerGas) - BigInt(options[k].maxPriorityFeePerGas),
      ),
    );
    // Each cap is twice the next block's base fee plus its tip; normal's tip is the suggested tip.
    assert.equal(doubled.size, 1);
    assert.ok([BigInt(before) * 2n, BigInt(after) * 2n].includes([...doubled][0]));
    assert.equal(tips[1], BigInt(tip));
    assert.equal(tips[0], (BigInt(tip) * 95n) / 100n > 1n ? (BigInt(tip) * 95n) / 100n : 1n);
    assert.equal(tips[2], (BigInt(tip) * 105n) / 100n);
    const extra = (await rpc(url, 'eth_suggestPriceOptions', [1])).body.error;
    assert.deepEqual(extra, { code: -32602, message: 'too many arguments, want at most 0' });
  });

  it('answers eth_feeHistory with reward percentiles, and refuses bad ones as coreth does', async () => {
    const head = await client.getBlockNumber();
    const history = await client.getFeeHistory({ blockCount: 2, rewardPercentiles: [25, 75] });
    assert.equal(history.oldestBlock, head - 1n);
    // One base fee per block, the head's last: coreth does not add the next block's as geth does.
    const bases = await Promise.all([head - 1n, head].map((n) => client.getBlock({ blockNumber: n })));
    assert.deepEqual(
      history.baseFeePerGas,
      bases.map((b) => b.baseFeePerGas),
    );
    assert.deepEqual(
      history.reward!.map((r) => r.length),
      [2, 2],
    );
    const feeHistory = async (params: unknown[]) => (await rpc(url, 'eth_feeHistory', params)).body;
    const refused = async (percentiles: number[]) => (await feeHistory(['0x2', 'latest', percentiles])).error;
    assert.deepEqual(await refused([50, 10]), {
      code: -32000,
      message: 'invalid reward percentile: #0:50.000000 >= #1:10.000000',
    });
    assert.equal(
      (await refused([10, 10]))?.message,
      'invalid reward percentile: #0:10.000000 >= #1:10.000000',
    );
    assert.equal((await refused([100.5]))?.message, 'invalid reward percentile: 100.500000');
    assert.deepEqual((await feeHistory(['0x0', 'latest', [10]])).result, {
      oldestBlock: '0x0',
      gasUsedRatio: null,
    });
    // `pending` is the head with one block fewer.
    assert.deepEqual((await feeHistory(['0x2', 'pending', []])).result, {
      oldestBlock: `0x${head.toString(16)}`,
      baseFeePerGas: [`0x${bases[1].baseFeePerGas!.toString(16)}`],
      gasUsedRatio: [Number(bases[1].gasUsed) / Number(bases[1].gasLimit)],
    });
    assert.deepEqual((await feeHistory(['0x1', 'pending', []])).result, {
      oldestBlock: '0x0',
      gasUsedRatio: null,
    });
    const beyond = Number(head) + 100;
    assert.deepEqual((await feeHistory(['0x1', `0x${beyond.toString(16)}`, []])).error, {
      code: -32000,
      message: `request beyond head block: requested ${beyond}, head ${head}`,
    });
  });

  it('words refused eth_call and eth_estimateGas runs as geth, not as the engine', async () => {
    const other = '0x1111111111111111111111111111111111111111';
    const failure = async (method: string, call: Record<string, string>) =>
      (await rpc(url, method, method === 'eth_call' ? [call, 'latest'] : [call])).body.error;
    assert.deepEqual(await failure('eth_call', { from: EWOQ, to: other, gas: '0x1' }), {
      code: -32000,
      message: 'err: intrinsic gas too low: have 1, want 21000 (supplied gas 1)',
    });
    assert.equal(
      (await failure('eth_call', { from: other, to: EWOQ, value: '0x10', gasPrice: '0x5' })).message,
      'err: insufficient funds for gas * price + value: address 0x1111111111111111111111111111111111111111 ' +
        'have 0 want 250000016 (supplied gas 50000000)',
    );
    // Fee fields that are all zero skip geth's fee cap check (NoBaseFee); a cap below a base fee
    // set by a block override is refused, a legacy gasPrice in the same words.
    const zero = await rpc(url, 'eth_call', [
      { from: EWOQ, to: other, maxFeePerGas: '0x0', maxPriorityFeePerGas: '0x0' },
      'latest',
    ]);
    assert.equal(zero.body.result, '0x');
    const below = await rpc(url, 'eth_call', [
      { from: EWOQ, to: other, gasPrice: '0x5' },
      'latest',
      null,
      { baseFee: '0x10' },
    ]);
    assert.equal(
      below.body.error.message,
      `err: max fee per gas less than block base fee: address ${EWOQ}, maxFeePerGas: 5, baseFee: 16 (supplied gas 50000000)`,
    );
    // geth's estimator ignores a gas limit below a transfer's and searches up to the block's.
    const estimate = await rpc(url, 'eth_estimateGas', [{ from: EWOQ, to: other, gas: '0x1' }]);
    assert.equal(estimate.body.result, '0x5208');
  });

  it('refuses a wrong chain id, an underpriced tx, a stale nonce and an unfunded sender', async () => {
    const account = privateKeyToAccount(EWOQ_KEY);
    const nonce = await client.getTransactionCount({ address: EWOQ });
    const base = { to: EWOQ as `0x${string}`, value: 1n, gas: 21000n, nonce };
    const wrongChain = await account.signTransaction({
      ...base,
      chainId: 1,
      maxFeePerGas: parseGwei('30'),
      maxPriorityFeePerGas: 1n,
      type: 'eip1559',
    });
    let r = await rpc(url, 'eth_sendRawTransaction', [wrongChain]);
    assert.equal(r.body.error.code, -32000);
    assert.match(r.body.error.message, /invalid chain id/);

    const underpriced = await account.signTransaction({
      ...base,
      chainId: 43112,
      gasPrice: 0n,
      type: 'legacy',
    });
    r = await rpc(url, 'eth_sendRawTransaction', [underpriced]);
    assert.match(r.body.error.message, /underpriced/);

    if (nonce > 0) {
      const stale = await account.signTransaction({
        ...base,
        nonce: 0,
        chainId: 43112,
        maxFeePerGas: parseGwei('30'),
        maxPriorityFeePerGas: 1n,
        type: 'eip1559',
      });
      r = await rpc(url, 'eth_sendRawTransaction', [stale]);
      assert.equal(r.body.error.message, `nonce too low: next nonce ${nonce}, tx nonce 0`);
    }
    const poor = privateKeyToAccount(generatePrivateKey());
    const unfunded = await poor.signTransaction({
      ...base,
      nonce: 0,
      chainId: 43112,
      maxFeePerGas: parseGwei('30'),
      maxPriorityFeePerGas: 1n,
      type: 'eip1559',
    });
    r = await rpc(url, 'eth_sendRawTransaction', [unfunded]);
    const cost = 21000n * parseGwei('30') + 1n;
    assert.equal(
      r.body.error.message,
      `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}`,
    );
    // The pool's own bounds, in coreth's words and order.
    const refused = async (tx: Record<string, unknown>) =>
      (
        await rpc(url, 'eth_sendRawTransaction', [
          await poor.signTransaction({
            nonce: 0,
            chainId: 43112,
            maxFeePerGas: parseGwei('30'),
            maxPriorityFeePerGas: 1n,
            type: 'eip1559',
            ...tx,
          }),
        ])
      ).body.error.message;
    assert.match(
      await refused({ to: EWOQ, gas: 10_000_000n, data: `0x${'01'.repeat(131_072)}` }),
      /^oversized data: transaction size 131\d{3}, limit 131072$/,
    );
    assert.equal(
      await refused({ gas: 10_000_000n, data: `0x${'00'.repeat(49_153)}` }),
      'max initcode size exceeded: code size 49153, limit 49152',
    );
    assert.match(
      await refused({ to: EWOQ, gas: 10n ** 12n, maxFeePerGas: 100n }),
      /^exceeds block gas limit: tx gas \(1000000000000\) > current max gas \(\d+\)$/,
    );
    assert.equal(
      await refused({ to: EWOQ, gas: 20_000n }),
      `intrinsic gas too low: address ${poor.address} tx gas (20000), minimum needed 21000`,
    );
    // EIP-7702 transactions are Prague's: their type is unknown here.
    const authorization = await poor.signAuthorization({ contractAddress: EWOQ, chainId: 43112, nonce: 1 });
    const setCode = await poor.signTransaction({
      to: EWOQ,
      gas: 50_000n,
      nonce: 0,
      chainId: 43112,
      type: 'eip7702',
      maxFeePerGas: parseGwei('30'),
      maxPriorityFeePerGas: 1n,
      authorizationList: [authorization],
    });
    assert.deepEqual((await rpc(url, 'eth_sendRawTransaction', [setCode])).body.error, {
      code: -32000,
      message: 'transaction type not supported',
    });
    const bigInit = await rpc(url, 'eth_call', [{ from: EWOQ, data: `0x${'00'.repeat(49_153)}` }, 'latest']);
    assert.equal(
      bigInit.body.error.message,
      'err: max initcode size exceeded: code size 49153 limit 49152 (supplied gas 50000000)',
    );

    r = await rpc(url, 'eth_sendRawTransaction', ['0xdeadbeef']);
    assert.equal(r.body.error.code, -32000);
    assert.match(r.body.error.message, /invalid transaction/);
    r = await rpc(url, 'eth_getBalance', ['0x1234', 'latest']);
    assert.equal(r.body.error.code, -32602);
    // Nothing of the refused transactions reached a block.
    assert.equal(await client.getTransactionCount({ address: EWOQ }), nonce);
  });

  it('keeps accepted blocks across kill -9 and resumes at the last one', async () => {
    const height = await client.getBlockNumber();
    const head = await client.getBlock({ blockNumber: height });
    await net.kill();
    net = await startDevnet({ dataDir });
    url = net.facts.urls.cChainRpc;
    client = createPublicClient({ chain: localChain(url), transport: http(url), cacheTime: 0 });
    assert.equal(await client.getBlockNumber(), height);
    assert.equal((await client.getBlock({ blockNumber: height })).hash, head.hash);
    // The chain goes on from there.
    const wallet = createWalletClient({
      account: privateKeyToAccount(EWOQ_KEY),
      chain: localChain(url),
      transport: http(url),
    });
    const hash = await wallet.sendTransaction({ to: EWOQ, value: 1n });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    assert.equal(receipt.blockNumber, height + 1n);
  });
});
