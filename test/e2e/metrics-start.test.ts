/**
 * `flurry start` serves the whole EVM data path by itself: its indexer follows the C-chain, the
 * REST service lists what was sent, and the metrics service answers on its own port.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http as viemHttp,
  parseEther,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startDevnet, type Devnet } from '../helpers/devnet.js';

let devnet: Devnet;

before(async () => {
  devnet = await startDevnet();
});

after(async () => {
  await devnet?.stop();
});

test('a transfer sent to flurry start appears in listNative, /v1/chains and avg_tps', async () => {
  const facts = devnet.facts;
  assert.ok(facts.urls.data, 'the ready line names the data service');
  assert.ok(facts.urls.metrics, 'the ready line names the metrics service');
  const chainId = facts.chains.C.evmChainId!;
  const chain = defineChain({
    id: chainId,
    name: 'Flurry C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [facts.urls.cChainRpc] } },
  });
  const account = privateKeyToAccount(facts.keys[2].privateKey as Hex);
  const wallet = createWalletClient({ chain, account, transport: viemHttp(facts.urls.cChainRpc) });
  const pub = createPublicClient({ chain, transport: viemHttp(facts.urls.cChainRpc) });
  const to = '0x0000000000000000000000000000000000005e11';
  const hash = await wallet.sendTransaction({ to, value: parseEther('1') });
  const receipt = await pub.waitForTransactionReceipt({ hash });

  let listed: any[] = [];
  for (let i = 0; i < 200 && listed.length === 0; i++) {
    const res = await fetch(
      `${facts.urls.data}/v1/chains/${chainId}/addresses/${to}/transactions:listNative`,
    );
    if (res.status === 200) listed = ((await res.json()) as any).transactions;
    if (listed.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(listed.length, 1);
  assert.equal(listed[0].txHash, hash);
  assert.equal(listed[0].blockNumber, String(receipt.blockNumber));

  const chains = (await (await fetch(`${facts.urls.data}/v1/chains`)).json()) as any;
  assert.deepEqual(
    chains.chains.map((c: any) => [c.chainId, c.platformChainId, c.rpcUrl]),
    [[String(chainId), facts.chains.C.blockchainID, facts.urls.cChainRpc]],
  );

  const tps = (await (await fetch(`${facts.urls.metrics}/v1/avg_tps/${chainId}`)).json()) as any;
  const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
  const day = Number(block.timestamp) - (Number(block.timestamp) % 86_400);
  assert.equal(tps.status, 200);
  assert.deepEqual(tps.results[0], { timestamp: day, value: 1 / 86_400 });
});
