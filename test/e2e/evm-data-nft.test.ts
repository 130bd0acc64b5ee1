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
/** What the `mutable` metadata host serves now, and how often it was asked. */
let mutableName = 'Before';
let mutableRequests = 0;
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
    } else if (kind === 'mutable') {
      mutableRequests++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: mutableName, description: 'changes' }));
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

/** The C-chain through viem, and a deployer of one-token ERC-721 collections (token 7). */
function chainClients() {
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
  return { chainId, account, pub, wallet, collection };
}

test('every metadata outcome has its own indexStatus and none blocks the indexer', async () => {
  const { chainId, account, pub, wallet, collection } = chainClients();

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

test('reindex refetches one token at once, once a minute; unknown tokens are 404s, bad input 400s', async () => {
  const { chainId, pub, collection } = chainClients();
  const address = await collection(`${base}/mutable/`);
  await stack.indexer.waitFor(chainId, Number(await pub.getBlockNumber()));
  const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });
  const at = { serverURL: stack.api.url };
  const token = () => sdk.data.nfts.get({ chainId, address, tokenId: '7' }, at);
  const waitFor = async (name: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const t = await token();
      if (t.metadata.indexStatus === 'INDEXED' && t.metadata.name === name) return t;
      assert.ok(Date.now() < deadline, `metadata name ${name} (now ${JSON.stringify(t.metadata)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const first = await waitFor('Before');
  assert.equal(mutableRequests, 1);

  // The host changes the metadata: nothing notices until the token is reindexed (refetch is daily).
  mutableName = 'After';
  await new Promise((r) => setTimeout(r, 1_000));
  assert.equal((await token()).metadata.name, 'Before');
  assert.equal(mutableRequests, 1);
  assert.equal(await sdk.data.nfts.reindex({ chainId, address, tokenId: '7' }, at), undefined);
  const after = await waitFor('After');
  assert.equal(after.metadata.description, 'changes');
  assert.equal(mutableRequests, 2);
  assert.ok(after.metadata.metadataLastUpdatedTimestamp! >= first.metadata.metadataLastUpdatedTimestamp!);

  // Again within the minute: refused, stating when it is allowed, and the host is not asked.
  mutableName = 'Again';
  const again = await fetch(
    `${stack.api.url}/v1/chains/${chainId}/nfts/collections/${address}/tokens/7:reindex`,
    {
      method: 'POST',
    },
  );
  const refused = (await again.json()) as any;
  assert.equal(again.status, 429);
  assert.deepEqual(Object.keys(refused).sort(), ['error', 'message', 'statusCode']);
  assert.equal(refused.statusCode, 429);
  assert.match(refused.message, /once a minute/);
  assert.ok(Number(again.headers.get('retry-after')) > 0);
  await assert.rejects(sdk.data.nfts.reindex({ chainId, address, tokenId: '7' }, at), (err: any) => {
    assert.equal(err.httpMeta?.response?.status ?? err.statusCode, 429);
    return true;
  });
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(mutableRequests, 2);
  assert.equal((await token()).metadata.name, 'After');

  // A token the indexer never saw, as getTokenDetails answers it: 404.
  await assert.rejects(sdk.data.nfts.reindex({ chainId, address, tokenId: '8' }, at), (err: any) => {
    assert.equal(err.name, 'NotFoundError');
    return true;
  });
  const post = (path: string) =>
    fetch(`${stack.api.url}/v1/chains/${path}:reindex`, { method: 'POST' }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as any,
    }));
  const cases: [string, number][] = [
    [`${chainId}/nfts/collections/${address}/tokens/8`, 404],
    [`999999/nfts/collections/${address}/tokens/7`, 404],
    [`${chainId}/nfts/collections/0x0000000000000000000000000000000000000abc/tokens/7`, 404],
    [`${chainId}/nfts/collections/${address}/tokens/-1`, 400],
    [`${chainId}/nfts/collections/${address}/tokens/0x07`, 400],
    [`${chainId}/nfts/collections/${address}/tokens/${2n ** 256n}`, 400],
    [`${chainId}/nfts/collections/0x123/tokens/7`, 400],
  ];
  const doc = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as any;
  const route = doc.paths['/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex'];
  assert.equal(
    route?.post?.operationId,
    'reindexNft',
    Object.keys(doc.paths)
      .filter((p) => /reindex/.test(p))
      .join(),
  );
  assert.ok(route.post.responses['201']);
  for (const [path, status] of cases) {
    const r = await post(path);
    assert.equal(r.status, status, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.statusCode, status);
    assert.equal(typeof r.body.message, 'string');
  }
});
