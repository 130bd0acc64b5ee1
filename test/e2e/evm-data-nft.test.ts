/**
 * NFT metadata against a local HTTP server that serves good, slow, oversized, malformed and
 * non-object metadata, throttles, and URIs the fetcher must refuse: each token ends in its own
 * indexStatus, read through chainkit, and the slow host never holds up the indexer or the other
 * tokens.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { createPublicClient, createWalletClient, defineChain, http as viemHttp, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileContracts } from '../helpers/evm-contracts.js';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';

let stack: EvmDataStack;
let server: http.Server;
let base: string;
let slowRequests = 0;
const c = compileContracts();

before(async () => {
  server = http.createServer((req, res) => {
    const kind = (req.url ?? '').split('/')[1];
    if (kind === 'good') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name: 'Fine',
          description: 'ok',
          image: 'https://img.example/1.png',
          external_url: 'https://example.com',
          background_color: '00ff00',
          attributes: [{ trait_type: 'kind', value: 'good' }],
        }),
      );
    } else if (kind === 'slow') {
      slowRequests++;
      const t = setTimeout(() => res.end('{"name":"late"}'), 30_000);
      res.on('close', () => clearTimeout(t));
    } else if (kind === 'big') res.end(JSON.stringify({ name: 'x'.repeat(200_000) }));
    else if (kind === 'bad') res.end('{"name": "broken",');
    else if (kind === 'array') res.end('["not", "an", "object"]');
    else if (kind === 'busy') {
      res.statusCode = 429;
      res.end();
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The slow host must outlast every other case settling: 15 s, since a loaded machine took over 8.
  stack = await startEvmDataStack({ allowHosts: ['127.0.0.1'], metadataTimeoutMs: 15_000, maxBytes: 10_000 });
});

after(async () => {
  await stack?.stop();
  server?.closeAllConnections();
  server?.close();
});

test('every metadata outcome has its own indexStatus and none blocks the indexer', async () => {
  const facts = stack.devnet.facts;
  const chainId = String(facts.chains.C.evmChainId);
  const chain = defineChain({
    id: Number(chainId),
    name: 'Flurry C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [facts.urls.cChainRpc] } },
  });
  const account = privateKeyToAccount(facts.keys[0].privateKey as Hex);
  const pub = createPublicClient({ chain, transport: viemHttp(facts.urls.cChainRpc) });
  const wallet = createWalletClient({ chain, account, transport: viemHttp(facts.urls.cChainRpc) });
  const collection = async (uriBase: string): Promise<Hex> => {
    const hash = await wallet.deployContract({
      abi: c.Nft721.abi,
      bytecode: c.Nft721.bytecode,
      args: ['Case', 'CASE', uriBase],
    });
    const address = (await pub.waitForTransactionReceipt({ hash })).contractAddress!;
    const mint = await wallet.writeContract({
      address,
      abi: c.Nft721.abi,
      functionName: 'mint',
      args: [account.address, 7n],
    });
    await pub.waitForTransactionReceipt({ hash: mint });
    return address;
  };

  // The slow host first, so its fetch is in flight while everything else happens.
  const cases: [string, string][] = [
    ['slow', `${base}/slow/`],
    ['good', `${base}/good/`],
    ['big', `${base}/big/`],
    ['bad', `${base}/bad/`],
    ['array', `${base}/array/`],
    ['busy', `${base}/busy/`],
    ['gone', `${base}/gone/`],
    ['scheme', 'ftp://example.com/'],
    ['private', 'http://10.1.2.3/'],
  ];
  const addresses: Record<string, Hex> = {};
  for (const [name, uri] of cases) addresses[name] = await collection(uri);
  // And one token that no longer exists: minted, then burnt, so tokenURI reverts.
  const burnt = await collection(`${base}/good/`);
  const burn = await wallet.writeContract({
    address: burnt,
    abi: c.Nft721.abi,
    functionName: 'transferFrom',
    args: [account.address, '0x0000000000000000000000000000000000000000', 7n],
  });
  const head = (await pub.waitForTransactionReceipt({ hash: burn })).blockNumber;
  await stack.indexer.waitFor(chainId, Number(head));

  const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
  const statusOf = async (address: Hex) => {
    const page = await sdk.data.nfts.list({ chainId, address, pageSize: 10 }, { serverURL: stack.api.url });
    for await (const p of page) return p.result.tokens[0];
    throw new Error('no page');
  };
  const expected: Record<string, string> = {
    good: 'INDEXED',
    big: 'METADATA_CONTENT_TOO_LARGE',
    bad: 'INVALID_METADATA_JSON',
    array: 'INVALID_METADATA',
    busy: 'THROTTLED_TOKEN_URI',
    gone: 'UNREACHABLE_TOKEN_URI',
    scheme: 'INVALID_TOKEN_URI_SCHEME',
    private: 'UNREACHABLE_TOKEN_URI',
  };
  // Everything but the slow host settles while the slow fetch is still waiting on its host.
  const deadline = Date.now() + 60_000;
  let settled: Record<string, any> = {};
  while (Date.now() < deadline) {
    settled = {};
    for (const name of Object.keys(expected)) settled[name] = await statusOf(addresses[name]);
    settled.burnt = await statusOf(burnt);
    if (Object.values(settled).every((t) => t.metadata.indexStatus !== 'UNINDEXED')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const [name, status] of Object.entries(expected))
    assert.equal(settled[name].metadata.indexStatus, status, name);
  assert.equal(settled.burnt.metadata.indexStatus, 'MISSING_TOKEN');
  const slowNow = await statusOf(addresses.slow);
  assert.equal(slowNow.metadata.indexStatus, 'UNINDEXED', 'the slow host is still being waited for');
  assert.equal(slowRequests, 1);

  const good = settled.good;
  assert.equal(good.tokenUri, `${base}/good/7`);
  assert.deepEqual(
    {
      name: good.metadata.name,
      description: good.metadata.description,
      imageUri: good.metadata.imageUri,
      externalUrl: good.metadata.externalUrl,
      background: good.metadata.background,
    },
    {
      name: 'Fine',
      description: 'ok',
      imageUri: 'https://img.example/1.png',
      externalUrl: 'https://example.com',
      background: '00ff00',
    },
  );
  assert.ok(good.metadata.metadataLastUpdatedTimestamp > 0);

  // Meanwhile the indexer keeps following the chain.
  const ping = await wallet.sendTransaction({ to: account.address, value: 1n });
  const pingBlock = (await pub.waitForTransactionReceipt({ hash: ping })).blockNumber;
  await stack.indexer.waitFor(chainId, Number(pingBlock));
  assert.equal((await statusOf(addresses.slow)).metadata.indexStatus, 'UNINDEXED');

  // The slow host times out in the end, and that is recorded too.
  while ((await statusOf(addresses.slow)).metadata.indexStatus === 'UNINDEXED' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  assert.equal((await statusOf(addresses.slow)).metadata.indexStatus, 'UNREACHABLE_TOKEN_URI');
});
