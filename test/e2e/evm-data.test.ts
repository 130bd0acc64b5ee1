/**
 * EVM half of the chain-data service, end to end: contracts compiled here with solc are deployed
 * on the real Flurry C-chain, tokens and value move through viem and ethers, the indexer follows
 * the node over JSON-RPC, and every EVM endpoint is read through @avalanche-sdk/chainkit (zod
 * validated) and @avalabs/glacier-sdk, then checked against the chain itself.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { ListTransactionDetailsResponse$inboundSchema } from '@avalanche-sdk/chainkit/models/components';
import { Glacier } from '@avalabs/glacier-sdk';
import { ethers } from 'ethers';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http as viemHttp,
  parseAbiItem,
  parseEther,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { CallFrame } from '../../src/data/indexer/evm/decode-block.js';
import { compileContracts } from '../helpers/evm-contracts.js';
import { startEvmDataStack, TEST_PRICES, type EvmDataStack } from '../helpers/evm-data.js';

let stack: EvmDataStack;
let metadataServer: http.Server;
let metaBase: string;
let sdk: Avalanche;
let glacier: Glacier;
let at: { serverURL: string };
let chainId: string;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let signer: ethers.Wallet;
let alice: Hex; // the prefunded deployer
const bob = getAddress('0x00000000000000000000000000000000000b0b01');
const carol = getAddress('0x000000000000000000000000000000000ca401e5');
const c = compileContracts();
const addr: Record<string, Hex> = {};
let latestBlock = 0n;
const nativeSent: Hex[] = [];
/** Transactions the detail tests read back: one of each kind of transfer, and a factory call. */
const txs: Record<'erc20' | 'erc721' | 'erc1155' | 'factory', Hex> = {} as any;

function serveMetadata(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const [, kind, id] = (req.url ?? '').split('/');
    if (kind === 'good') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name: `Good #${id}`,
          description: 'a good token',
          image: `ipfs://img/${id}`,
          attributes: [{ trait_type: 'n', value: Number(id) }],
        }),
      );
    } else if (kind === 'slow') {
      const t = setTimeout(() => res.end('{}'), 5_000);
      res.on('close', () => clearTimeout(t));
    } else if (kind === 'big') {
      res.end(JSON.stringify({ name: 'x'.repeat(50_000) }));
    } else if (kind === 'bad') {
      res.end('{"name": "broken",');
    } else if (kind === 'array') {
      res.end('[1,2,3]');
    } else if (kind === 'busy') {
      res.statusCode = 429;
      res.end('slow down');
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function deploy(name: string, args: unknown[], via: 'viem' | 'ethers' = 'viem'): Promise<Hex> {
  if (via === 'ethers') {
    const factory = new ethers.ContractFactory(c[name].abi, c[name].bytecode, signer);
    const nonce = await signer.provider!.getTransactionCount(signer.address, 'latest');
    const contract = await factory.deploy(...args, { nonce });
    await contract.waitForDeployment();
    return getAddress(await contract.getAddress()) as Hex;
  }
  const hash = await wallet.deployContract({
    abi: c[name].abi,
    bytecode: c[name].bytecode,
    args,
    chain: wallet.chain,
    account: wallet.account!,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress!) as Hex;
}

async function write(address: Hex, name: string, fn: string, args: unknown[], value?: bigint): Promise<Hex> {
  const hash = await wallet.writeContract({
    address,
    abi: c[name].abi,
    functionName: fn,
    args,
    value,
    chain: wallet.chain,
    account: wallet.account!,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, 'success', `${name}.${fn}`);
  latestBlock = receipt.blockNumber;
  return hash;
}

async function send(to: Hex, data: string, value = 0n): Promise<Hex> {
  // Explicit nonces: each transaction waits for its receipt, so the mined count is the next one.
  const nonce = await signer.provider!.getTransactionCount(signer.address, 'latest');
  const tx = await signer.sendTransaction({ to, data, value, nonce });
  const receipt = await tx.wait();
  assert.equal(receipt!.status, 1);
  latestBlock = BigInt(receipt!.blockNumber);
  return tx.hash as Hex;
}

/** Every page of an SDK list, following nextPageToken, with each item's identity. */
async function walk<T>(
  pages: AsyncIterable<{ result: any }>,
  key: (item: any) => string,
  field: string,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let count = 0;
  for await (const page of pages) {
    count++;
    for (const item of page.result[field]) {
      assert.ok(!seen.has(key(item)), `item ${key(item)} appears twice`);
      seen.add(key(item));
      items.push(item);
    }
    assert.ok(count < 1000);
  }
  return items;
}

/** GET `url`, expecting `status` in the service error body `{message, statusCode, error}`. */
async function expectError(url: string, status: number) {
  const res = await fetch(url);
  assert.equal(res.status, status, url);
  const body = (await res.json()) as any;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
  assert.equal(body.statusCode, status);
  return body;
}

before(async () => {
  metadataServer = await serveMetadata();
  metaBase = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}`;
  stack = await startEvmDataStack({ allowHosts: ['127.0.0.1'] });
  const facts = stack.devnet.facts;
  chainId = String(facts.chains.C.evmChainId);
  const chain = defineChain({
    id: Number(chainId),
    name: 'Flurry C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [facts.urls.cChainRpc] } },
  });
  const account = privateKeyToAccount(facts.keys[0].privateKey as Hex);
  alice = account.address;
  pub = createPublicClient({ chain, transport: viemHttp(facts.urls.cChainRpc) }) as any;
  wallet = createWalletClient({ chain, account, transport: viemHttp(facts.urls.cChainRpc) }) as any;
  signer = new ethers.Wallet(
    facts.keys[1].privateKey,
    new ethers.JsonRpcProvider(facts.urls.cChainRpc, undefined, {
      staticNetwork: true,
      polling: true,
      pollingInterval: 50,
      cacheTimeout: -1,
    }),
  );
  sdk = new Avalanche({ network: 'testnet', enableTelemetry: false, retryConfig: { strategy: 'none' } });
  glacier = new Glacier({ BASE: stack.api.url });
  at = { serverURL: stack.api.url };

  // Contracts (viem and ethers deployments), then transfers of every kind.
  addr.token = await deploy('Token20', ['Flurry Dollar', 'FUSD', 6, 1_000_000n]);
  addr.bare = await deploy('Bare20', [], 'ethers');
  addr.nft = await deploy('Nft721', ['Flurry Apes', 'FAPE', `${metaBase}/good/`]);
  addr.multi = await deploy('Multi1155', [`${metaBase}/good/{id}`]);
  addr.factory = await deploy('Factory', []);

  txs.erc20 = await write(addr.token, 'Token20', 'transfer', [bob, 1500n]);
  await write(addr.token, 'Token20', 'transfer', [signer.address, 40_000n]);
  const tokenIface = new ethers.Interface(c.Token20.abi);
  await send(addr.token, tokenIface.encodeFunctionData('transfer', [carol, 700n]));
  await send(addr.token, tokenIface.encodeFunctionData('transfer', [alice, 300n]));
  await send(addr.bare, new ethers.Interface(c.Bare20.abi).encodeFunctionData('pay', [bob, 5n]));

  for (const id of [1n, 2n, 3n]) await write(addr.nft, 'Nft721', 'mint', [alice, id]);
  txs.erc721 = await write(addr.nft, 'Nft721', 'transferFrom', [alice, bob, 2n]);
  // Burnt: tokenURI reverts afterwards, so its metadata is MISSING_TOKEN.
  await write(addr.nft, 'Nft721', 'transferFrom', [alice, '0x0000000000000000000000000000000000000000', 3n]);

  await write(addr.multi, 'Multi1155', 'mint', [alice, 1n, 10n]);
  await write(addr.multi, 'Multi1155', 'mint', [alice, 2n, 5n]);
  addr.mintBlock = ('0x' + latestBlock.toString(16)) as Hex;
  txs.erc1155 = await write(addr.multi, 'Multi1155', 'safeBatchTransferFrom', [
    alice,
    bob,
    [1n, 2n],
    [3n, 1n],
    '0x',
  ]);
  await write(addr.multi, 'Multi1155', 'safeTransferFrom', [alice, carol, 1n, 2n, '0x']);

  txs.factory = await write(
    addr.factory,
    'Factory',
    'deployAndForward',
    [carol, '0x' + '11'.repeat(32)],
    parseEther('3'),
  );
  await write(addr.factory, 'Factory', 'tryForward', [carol], parseEther('1'));

  const h1 = await wallet.sendTransaction({
    to: bob,
    value: parseEther('0.5'),
    chain: wallet.chain,
    account: wallet.account!,
  });
  await pub.waitForTransactionReceipt({ hash: h1 });
  nativeSent.push(h1);
  const t2 = await signer.sendTransaction({
    to: alice,
    value: parseEther('0.25'),
    nonce: await signer.provider!.getTransactionCount(signer.address, 'latest'),
  });
  const r2 = await t2.wait();
  nativeSent.push(t2.hash as Hex);
  latestBlock = BigInt(r2!.blockNumber);
  await stack.indexer.waitFor(chainId, Number(latestBlock));
});

after(async () => {
  await stack?.stop();
  metadataServer?.close();
  metadataServer?.closeAllConnections();
});

describe('EVM transfer lists', () => {
  test('listErc20 matches the Transfer logs on the chain, newest first, token metadata from the contract', async () => {
    const logs = await pub.getLogs({
      address: addr.token,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      fromBlock: 0n,
      toBlock: latestBlock,
    });
    const mine = logs.filter((l) => l.args.from === alice || l.args.to === alice);
    const iter = await sdk.data.evm.address.transactions.listErc20(
      { chainId, address: alice, pageSize: 2 },
      at,
    );
    const items = await walk<any>(iter, (t) => `${t.txHash}:${t.logIndex}`, 'transactions');
    assert.equal(items.length, mine.length);
    const expected = mine
      .map((l) => ({
        txHash: l.transactionHash,
        logIndex: l.logIndex,
        value: String(l.args.value),
        block: l.blockNumber,
      }))
      .sort((a, b) => Number(b.block - a.block) || b.logIndex - a.logIndex);
    assert.deepEqual(
      items.map((t) => ({
        txHash: t.txHash,
        logIndex: t.logIndex,
        value: t.value,
        block: BigInt(t.blockNumber),
      })),
      expected,
    );
    const t0 = items[0];
    assert.deepEqual(
      {
        address: t0.erc20Token.address,
        name: t0.erc20Token.name,
        symbol: t0.erc20Token.symbol,
        decimals: t0.erc20Token.decimals,
        ercType: t0.erc20Token.ercType,
      },
      { address: addr.token, name: 'Flurry Dollar', symbol: 'FUSD', decimals: 6, ercType: 'ERC-20' },
    );
    const block = await pub.getBlock({ blockNumber: BigInt(t0.blockNumber) });
    assert.equal(t0.blockHash, block.hash);
    assert.equal(t0.blockTimestamp, Number(block.timestamp));
  });

  test('a token without name/symbol/decimals is still listed, with empty metadata', async () => {
    const page = await glacier.evmTransactions.listErc20Transactions({
      chainId,
      address: bob,
      pageSize: 100,
    });
    const bare = page.transactions.filter((t) => t.erc20Token.address === addr.bare);
    assert.equal(bare.length, 1);
    assert.equal(bare[0].value, '5');
    assert.equal(bare[0].erc20Token.name, '');
    assert.equal(bare[0].from.address, getAddress(signer.address));
  });

  test('startBlock is inclusive and endBlock exclusive', async () => {
    const all = (
      await glacier.evmTransactions.listErc20Transactions({ chainId, address: alice, pageSize: 100 })
    ).transactions;
    const b = Number(all[1].blockNumber);
    const only = await sdk.data.evm.address.transactions.listErc20(
      { chainId, address: alice, startBlock: b, endBlock: b + 1 },
      at,
    );
    assert.deepEqual(
      only.result.transactions.map((t) => t.txHash),
      all.filter((t) => Number(t.blockNumber) === b).map((t) => t.txHash),
    );
    const before = await glacier.evmTransactions.listErc20Transactions({
      chainId,
      address: alice,
      endBlock: b,
      pageSize: 100,
    });
    assert.ok(before.transactions.every((t) => Number(t.blockNumber) < b));
    assert.equal(before.transactions.length, all.filter((t) => Number(t.blockNumber) < b).length);
  });

  test('{chainId} accepts the blockchain id', async () => {
    const byEvmId = await glacier.evmTransactions.listErc20Transactions({
      chainId,
      address: alice,
      pageSize: 100,
    });
    const byBlockchainId = await glacier.evmTransactions.listErc20Transactions({
      chainId: stack.devnet.facts.chains.C.blockchainID,
      address: alice,
      pageSize: 100,
    });
    assert.deepEqual(byBlockchainId, byEvmId);
  });

  test('listErc721 shows mints, transfers and the burn with token metadata', async () => {
    const iter = await sdk.data.evm.address.transactions.listErc721(
      { chainId, address: alice, pageSize: 1 },
      at,
    );
    const items = await walk<any>(iter, (t) => `${t.txHash}:${t.logIndex}`, 'transactions');
    assert.equal(items.length, 5); // 3 mints, 1 transfer out, 1 burn
    const burn = items[0];
    assert.equal(burn.erc721Token.tokenId, '3');
    assert.equal(burn.to.address, '0x0000000000000000000000000000000000000000');
    const transfer = items.find((t) => t.erc721Token.tokenId === '2' && t.to.address === bob);
    assert.ok(transfer);
    assert.equal(transfer.erc721Token.name, 'Flurry Apes');
    assert.equal(transfer.erc721Token.symbol, 'FAPE');
    assert.equal(transfer.erc721Token.ownerAddress, bob);
  });

  test('listErc1155 lists mints, the batch (one transfer per id) and the single transfer, a page cut inside the batch included', async () => {
    const iter = await sdk.data.evm.address.transactions.listErc1155(
      { chainId, address: alice, pageSize: 1 },
      at,
    );
    const items = await walk<any>(
      iter,
      (t) => `${t.txHash}:${t.logIndex}:${t.erc1155Token.tokenId}`,
      'transactions',
    );
    const logs = await pub.getLogs({
      address: addr.multi,
      events: [
        parseAbiItem(
          'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
        ),
        parseAbiItem(
          'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
        ),
      ],
      fromBlock: 0n,
      toBlock: latestBlock,
    });
    const expected = logs
      .flatMap((l: any) =>
        l.eventName === 'TransferSingle'
          ? [{ l, id: l.args.id, value: l.args.value }]
          : l.args.ids.map((id: bigint, i: number) => ({ l, id, value: l.args.values[i] })),
      )
      .filter(({ l }) => l.args.from === alice || l.args.to === alice)
      .reverse()
      .map(({ l, id, value }) => [l.transactionHash, l.logIndex, String(id), String(value)]);
    assert.equal(expected.length, 5); // two mints, a batch of two ids, one single transfer
    assert.deepEqual(
      items.map((t) => [t.txHash, t.logIndex, t.erc1155Token.tokenId, t.value]),
      expected,
    );
    const batch = items.filter((t) => t.txHash === txs.erc1155);
    assert.equal(batch.length, 2);
    assert.equal(batch[0].to.address, bob);
    assert.equal(batch[0].erc1155Token.address, addr.multi);
    assert.equal(batch[0].erc1155Token.ercType, 'ERC-1155');
    const block = await pub.getBlock({ blockNumber: BigInt(batch[0].blockNumber) });
    assert.equal(batch[0].blockHash, block.hash);
    const bobs = await glacier.evmTransactions.listErc1155Transactions({ chainId, address: bob });
    assert.deepEqual(
      bobs.transactions.map((t) => [t.erc1155Token.tokenId, t.value]),
      [
        ['2', '1'],
        ['1', '3'],
      ],
    );
  });

  test('transactions lists each transaction the address took part in once, with only its own transfers', async () => {
    for (const who of [bob, carol]) {
      const desc = await walk<any>(
        await sdk.data.evm.address.transactions.list({ chainId, address: who, pageSize: 2 }, at),
        (t) => t.nativeTransaction.txHash,
        'transactions',
      );
      const kinds = await Promise.all(
        (['listNative', 'listErc20', 'listErc721', 'listErc1155', 'listInternals'] as const).map(
          async (kind) =>
            (
              (await (
                await fetch(
                  `${stack.api.url}/v1/chains/${chainId}/addresses/${who}/transactions:${kind}?pageSize=100`,
                )
              ).json()) as any
            ).transactions.map((t: any) => t.txHash as string),
        ),
      );
      assert.deepEqual(new Set(desc.map((t) => t.nativeTransaction.txHash)), new Set(kinds.flat()));
      const position = (t: any) =>
        Number(t.nativeTransaction.blockNumber) * 1e4 + t.nativeTransaction.blockIndex;
      assert.deepEqual(
        desc.map(position),
        desc.map(position).sort((a, b) => b - a),
      );
      const asc = await walk<any>(
        await sdk.data.evm.address.transactions.list(
          { chainId, address: who.toLowerCase(), pageSize: 3, sortOrder: 'asc' },
          at,
        ),
        (t) => t.nativeTransaction.txHash,
        'transactions',
      );
      assert.deepEqual(asc, [...desc].reverse());
      for (const t of desc)
        for (const part of [
          ...t.erc20Transfers,
          ...t.erc721Transfers,
          ...t.erc1155Transfers,
          ...t.internalTransactions,
        ])
          assert.ok(
            part.from.address === who || part.to.address === who,
            'only the parts naming the address',
          );
    }
    const bobs = await glacier.evmTransactions.listTransactions({ chainId, address: bob, pageSize: 100 });
    const erc20 = bobs.transactions.find((t) => t.nativeTransaction.txHash === txs.erc20)!;
    assert.equal(erc20.nativeTransaction.from.address, alice);
    assert.equal(erc20.nativeTransaction.to.address, addr.token);
    assert.deepEqual(
      erc20.erc20Transfers!.map((t) => [t.from.address, t.to.address, t.value]),
      [[alice, bob, '1500']],
    );
    const batch = bobs.transactions.find((t) => t.nativeTransaction.txHash === txs.erc1155)!;
    assert.deepEqual(
      batch.erc1155Transfers!.map((t) => [t.erc1155Token.tokenId, t.value]),
      [
        ['1', '3'],
        ['2', '1'],
      ],
    );
    const carols = await sdk.data.evm.address.transactions.list(
      { chainId, address: carol, pageSize: 100 },
      at,
    );
    const factory = carols.result.transactions.find((t) => t.nativeTransaction.txHash === txs.factory)!;
    assert.deepEqual(
      factory.internalTransactions!.map((t) => [t.internalTxType, t.to.address, t.value]),
      [['CALL', carol, parseEther('1.5').toString()]],
    );
    const within = await sdk.data.evm.address.transactions.list(
      {
        chainId,
        address: bob,
        startBlock: Number(batch.nativeTransaction.blockNumber),
        endBlock: Number(batch.nativeTransaction.blockNumber) + 1,
      },
      at,
    );
    assert.deepEqual(
      within.result.transactions.map((t) => t.nativeTransaction.txHash),
      [txs.erc1155],
    );
    const noActivity = await sdk.data.evm.address.transactions.list(
      { chainId, address: '0x000000000000000000000000000000000000dEaD' },
      at,
    );
    assert.deepEqual(noActivity.result, { transactions: [] });
    const badOrder = await fetch(
      `${stack.api.url}/v1/chains/${chainId}/addresses/${bob}/transactions?sortOrder=sideways`,
    );
    assert.equal(badOrder.status, 400);
  });

  test('transactions v2 walks each transaction once, as v1 lists it plus tokenReputation, matching the receipts', async () => {
    /** Every v2 page from `query` on, each parsed by chainkit's zod schema of the v1 list. */
    const walkV2 = async (who: string, query: string) => {
      const items: any[] = [];
      let token: string | undefined;
      for (let pages = 0; ; pages++) {
        assert.ok(pages < 100);
        const url = `${stack.api.url}/v2/chains/${chainId}/addresses/${who}/transactions?${query}${token ? `&pageToken=${token}` : ''}`;
        const res = await fetch(url);
        const body = (await res.json()) as any;
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.ok(!('nextPageToken' in body) || typeof body.nextPageToken === 'string');
        ListTransactionDetailsResponse$inboundSchema.parse(body);
        items.push(...body.transactions);
        token = body.nextPageToken;
        if (!token) return items;
      }
    };
    for (const who of [bob, carol]) {
      const v2 = await walkV2(who, 'pageSize=2');
      const hashes = v2.map((t) => t.nativeTransaction.txHash);
      assert.equal(new Set(hashes).size, hashes.length, 'each transaction once');
      const v1 = (await sdk.data.evm.address.transactions.list({ chainId, address: who, pageSize: 100 }, at))
        .result.transactions;
      assert.ok(v1.length > 2, 'more than one page');
      // v1 answers through chainkit (zod strips nothing it knows): compare with v2's raw JSON.
      const v1Raw = (
        (await (
          await fetch(`${stack.api.url}/v1/chains/${chainId}/addresses/${who}/transactions?pageSize=100`)
        ).json()) as any
      ).transactions;
      assert.deepEqual(
        hashes,
        v1.map((t) => t.nativeTransaction.txHash),
      );
      const unrated = v2.map((t) => ({
        ...t,
        erc20Transfers: t.erc20Transfers.map((e: any) => {
          assert.equal(e.erc20Token.tokenReputation, null);
          const { tokenReputation: _, ...token } = e.erc20Token;
          return { ...e, erc20Token: token };
        }),
      }));
      assert.deepEqual(unrated, v1Raw);
      for (const t of v2) {
        const receipt = await pub.getTransactionReceipt({ hash: t.nativeTransaction.txHash });
        assert.equal(t.nativeTransaction.blockNumber, String(receipt.blockNumber));
        assert.equal(t.nativeTransaction.blockHash, receipt.blockHash);
        assert.equal(t.nativeTransaction.blockIndex, receipt.transactionIndex);
        assert.equal(t.nativeTransaction.gasUsed, String(receipt.gasUsed));
        assert.equal(t.nativeTransaction.txStatus, receipt.status === 'success' ? '1' : '0');
        assert.equal(t.nativeTransaction.from.address, getAddress(receipt.from));
      }
      const asc = await walkV2(who, 'pageSize=3&sortOrder=asc&filterSpamTokens=true');
      assert.deepEqual(asc, [...v2].reverse());
    }
    const bobs = await walkV2(bob, 'pageSize=100');
    const erc20 = bobs.find((t) => t.nativeTransaction.txHash === txs.erc20);
    assert.deepEqual(
      erc20.erc20Transfers.map((t: any) => [
        t.from.address,
        t.to.address,
        t.value,
        t.erc20Token.tokenReputation,
      ]),
      [[alice, bob, '1500', null]],
    );
    const block = Number(erc20.nativeTransaction.blockNumber);
    const within = await walkV2(bob, `startBlock=${block}&endBlock=${block + 1}`);
    assert.deepEqual(
      within.map((t) => t.nativeTransaction.txHash),
      [txs.erc20],
    );

    const v2Url = `${stack.api.url}/v2/chains/${chainId}/addresses`;
    await expectError(`${v2Url}/${bob}/transactions?sortOrder=sideways`, 400);
    await expectError(`${v2Url}/${bob}/transactions?pageSize=0`, 400);
    await expectError(`${v2Url}/${bob}/transactions?pageSize=101`, 400);
    await expectError(`${v2Url}/${bob}/transactions?filterSpamTokens=maybe`, 400);
    await expectError(`${v2Url}/${bob}/transactions?startBlock=5&endBlock=2`, 400);
    await expectError(`${v2Url}/0x123/transactions`, 400);
    await expectError(`${stack.api.url}/v2/chains/999999/addresses/${bob}/transactions`, 404);
    // A v1 page token does not continue a v2 walk.
    const v1Page = (await (
      await fetch(`${stack.api.url}/v1/chains/${chainId}/addresses/${bob}/transactions?pageSize=1`)
    ).json()) as any;
    await expectError(`${v2Url}/${bob}/transactions?pageSize=1&pageToken=${v1Page.nextPageToken}`, 400);
  });

  test("a token contract's transfers: every Transfer log of the contract once, newest first, of its standard", async () => {
    const erc20 = await walk<any>(
      await sdk.data.evm.contracts.listTransfers({ chainId, address: addr.token, pageSize: 2 }, at),
      (t) => `${t.txHash}:${t.logIndex}`,
      'transfers',
    );
    const logs = await pub.getLogs({
      address: addr.token,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      fromBlock: 0n,
      toBlock: latestBlock,
    });
    assert.deepEqual(
      erc20.map((t) => [t.txHash, t.logIndex, t.from.address, t.to.address, t.value, t.erc20Token.symbol]),
      [...logs]
        .reverse()
        .map((l) => [l.transactionHash, l.logIndex, l.args.from, l.args.to, String(l.args.value), 'FUSD']),
    );
    // A batch is one transfer per id, and a page may end inside it.
    const multi = await walk<any>(
      await sdk.data.evm.contracts.listTransfers({ chainId, address: addr.multi, pageSize: 1 }, at),
      (t) => `${t.txHash}:${t.logIndex}:${t.erc1155Token.tokenId}`,
      'transfers',
    );
    assert.deepEqual(
      multi.map((t) => [t.erc1155Token.tokenId, t.value]),
      [
        ['1', '2'],
        ['2', '1'],
        ['1', '3'],
        ['2', '5'],
        ['1', '10'],
      ],
    );
    const nft = (await glacier.evmTransactions.listTransfers({ chainId, address: addr.nft, pageSize: 100 }))
      .transfers as any[];
    assert.deepEqual(
      nft.map((t) => t.erc721Token.tokenId),
      ['3', '2', '3', '2', '1'],
    );
    const mintBlock = Number(nft[nft.length - 1].blockNumber);
    const first = await sdk.data.evm.contracts.listTransfers(
      { chainId, address: addr.nft, startBlock: mintBlock, endBlock: mintBlock + 1 },
      at,
    );
    assert.deepEqual(
      first.result.transfers.map((t: any) => t.erc721Token.tokenId),
      ['1'],
    );
    const none = await sdk.data.evm.contracts.listTransfers({ chainId, address: addr.factory }, at);
    assert.deepEqual(none.result, { transfers: [] });
  });

  test('listNative lists every transaction of the address with receipt fields', async () => {
    const iter = await sdk.data.evm.address.transactions.listNative(
      { chainId, address: getAddress(signer.address), pageSize: 3 },
      at,
    );
    const items = await walk<any>(iter, (t) => t.txHash, 'transactions');
    const nonce = await pub.getTransactionCount({ address: getAddress(signer.address) as Hex });
    // Its own transactions (one per nonce), plus the ones it received from alice.
    const sent = items.filter((t) => t.from.address === getAddress(signer.address));
    assert.equal(sent.length, nonce);
    for (const t of items.slice(0, 4)) {
      const receipt = await pub.getTransactionReceipt({ hash: t.txHash });
      const tx = await pub.getTransaction({ hash: t.txHash });
      assert.equal(t.gasUsed, receipt.gasUsed.toString());
      assert.equal(t.gasPrice, receipt.effectiveGasPrice.toString());
      assert.equal(t.txStatus, receipt.status === 'success' ? '1' : '0');
      assert.equal(t.blockIndex, receipt.transactionIndex);
      assert.equal(t.value, tx.value.toString());
      assert.equal(t.nonce, String(tx.nonce));
      assert.equal(t.gasLimit, tx.gas.toString());
      assert.equal(t.chainId, chainId);
      assert.equal(typeof t.txType, 'number');
    }
    const native = items.find((t) => t.txHash === nativeSent[1]);
    // The reference's Method: the hash only for a contract call, fixed names for the others.
    assert.deepEqual(native.method, {
      callType: 'NATIVE_TRANSFER',
      methodHash: '',
      methodName: 'Native Transfer',
    });
    assert.equal(native.value, parseEther('0.25').toString());
    const deployment = (
      await glacier.evmTransactions.listNativeTransactions({ chainId, address: alice, pageSize: 100 })
    ).transactions.find((t) => t.method?.callType === 'CONTRACT_CREATION' && t.to.address === addr.token);
    assert.ok(deployment, 'the token deployment is listed with the contract as recipient');
    assert.deepEqual(deployment.method, {
      callType: 'CONTRACT_CREATION',
      methodHash: '',
      methodName: 'Contract Created',
    });
  });

  test('listInternals: value calls and creations only, reverted ones flagged', async () => {
    const factoryItems = await walk<any>(
      await sdk.data.evm.address.transactions.listInternal(
        { chainId, address: addr.factory, pageSize: 2 },
        at,
      ),
      (t) => `${t.txHash}:${t.from.address}:${t.to.address}:${t.internalTxType}:${t.isReverted}`,
      'transactions',
    );
    const creates = factoryItems.filter(
      (t) => t.internalTxType === 'CREATE' || t.internalTxType === 'CREATE2',
    );
    assert.deepEqual(creates.map((t) => t.internalTxType).sort(), ['CREATE', 'CREATE2']);
    assert.equal(creates.find((t) => t.internalTxType === 'CREATE').value, parseEther('1.5').toString());
    const forwarded = factoryItems.find(
      (t) => t.internalTxType === 'CALL' && t.to.address === carol && !t.isReverted,
    );
    assert.equal(forwarded.value, parseEther('1.5').toString());
    const reverted = factoryItems.filter((t) => t.isReverted);
    assert.ok(reverted.length >= 1, 'the reverted inner value call is listed');
    assert.ok(reverted.every((t) => t.internalTxType === 'CALL'));
    // Carol received 1.5 AVAX for real.
    const carolBalance = await pub.getBalance({ address: carol });
    assert.equal(carolBalance, parseEther('1.5'));
  });
});

describe('EVM balances', () => {
  test('getNative at a block equals the chain balance, priced in the requested currency', async () => {
    const block = latestBlock - 3n;
    const res = await sdk.data.evm.address.balances.getNative(
      { chainId, address: alice, blockNumber: String(block), currency: 'eur' },
      at,
    );
    const expected = await pub.getBalance({ address: alice, blockNumber: block });
    assert.equal(res.nativeTokenBalance.balance, expected.toString());
    assert.equal(res.nativeTokenBalance.symbol, 'AVAX');
    assert.equal(res.nativeTokenBalance.decimals, 18);
    assert.deepEqual(res.nativeTokenBalance.price, { currencyCode: 'eur', value: TEST_PRICES.eur });
    assert.ok(
      Math.abs(res.nativeTokenBalance.balanceValue!.value - (Number(expected) / 1e18) * TEST_PRICES.eur) <
        1e-3,
    );
    const now = await glacier.evmBalances.getNativeBalance({ chainId, address: alice });
    assert.equal(now.nativeTokenBalance.balance, (await pub.getBalance({ address: alice })).toString());
  });

  test('listErc721 lists the tokens held now, as ownerOf on the chain says, with collection metadata', async () => {
    await stack.fetcher.idle();
    for (const who of [alice, bob, carol]) {
      const held = await walk<any>(
        await sdk.data.evm.address.balances.listErc721({ chainId, address: who, pageSize: 1 }, at),
        (t) => `${t.address}:${t.tokenId}`,
        'erc721TokenBalances',
      );
      const owned: string[] = [];
      for (const id of [1n, 2n, 3n]) {
        const owner = await pub.readContract({
          address: addr.nft,
          abi: c.Nft721.abi,
          functionName: 'ownerOf',
          args: [id],
        });
        if (owner === who) owned.push(String(id));
      }
      assert.deepEqual(
        held.map((t) => t.tokenId),
        owned,
        who,
      );
      for (const t of held) {
        assert.equal(t.address, addr.nft);
        assert.equal(t.name, 'Flurry Apes');
        assert.equal(t.ownerAddress, who);
        assert.equal(t.chainId, chainId);
        assert.equal(t.metadata.indexStatus, 'INDEXED');
      }
    }
    const filtered = await glacier.evmBalances.listErc721Balances({
      chainId,
      address: alice,
      contractAddress: addr.multi,
    });
    assert.deepEqual(filtered.erc721TokenBalances, []);
    assert.equal(filtered.nativeTokenBalance.balance, String(await pub.getBalance({ address: alice })));
  });

  test('listErc1155 at a block and now, filtered by contract, equals balanceOf on the chain', async () => {
    const balanceOf = (who: Hex, id: bigint, blockNumber?: bigint) =>
      pub.readContract({
        address: addr.multi,
        abi: c.Multi1155.abi,
        functionName: 'balanceOf',
        args: [id, who],
        blockNumber,
      }) as Promise<bigint>;
    const mintBlock = BigInt(addr.mintBlock);
    const then = await sdk.data.evm.address.balances.listErc1155(
      { chainId, address: alice, blockNumber: String(mintBlock), contractAddress: addr.multi },
      at,
    );
    const atMint = then.result.erc1155TokenBalances.map((b) => [b.tokenId, b.balance]);
    assert.deepEqual(atMint, [
      ['1', String(await balanceOf(alice, 1n, mintBlock))],
      ['2', String(await balanceOf(alice, 2n, mintBlock))],
    ]);
    assert.deepEqual(atMint, [
      ['1', '10'],
      ['2', '5'],
    ]);
    assert.equal(
      then.result.nativeTokenBalance.balance,
      (await pub.getBalance({ address: alice, blockNumber: mintBlock })).toString(),
    );
    const bobNow = await walk<any>(
      await sdk.data.evm.address.balances.listErc1155({ chainId, address: bob, pageSize: 1 }, at),
      (b) => `${b.address}:${b.tokenId}`,
      'erc1155TokenBalances',
    );
    assert.deepEqual(
      bobNow.map((b) => [b.address, b.tokenId, b.balance]),
      [
        [addr.multi, '1', String(await balanceOf(bob, 1n))],
        [addr.multi, '2', String(await balanceOf(bob, 2n))],
      ],
    );
    const other = await glacier.evmBalances.listErc1155Balances({
      chainId,
      address: bob,
      contractAddress: addr.token,
    });
    assert.deepEqual(other.erc1155TokenBalances, []);
  });
});

describe('EVM collectible balances', () => {
  const ownerOf = (id: bigint) =>
    pub.readContract({ address: addr.nft, abi: c.Nft721.abi, functionName: 'ownerOf', args: [id] });
  const balanceOf = (who: Hex, id: bigint) =>
    pub.readContract({
      address: addr.multi,
      abi: c.Multi1155.abi,
      functionName: 'balanceOf',
      args: [id, who],
    }) as Promise<bigint>;

  test('listCollectibles holds the ERC-721 tokens ownerOf gives and the ERC-1155 balances balanceOf gives, each once', async () => {
    await stack.fetcher.idle();
    for (const who of [alice, bob, carol]) {
      const expected: [string, string, string, string | undefined][] = [];
      for (const id of [1n, 2n, 3n])
        if ((await ownerOf(id).catch(() => undefined)) === who)
          expected.push([addr.nft, 'ERC-721', String(id), undefined]);
      for (const id of [1n, 2n]) {
        const balance = await balanceOf(who, id);
        if (balance > 0n) expected.push([addr.multi, 'ERC-1155', String(id), String(balance)]);
      }
      // The service orders by contract address (lower case), then token id.
      expected.sort((a, b) => (a[0].toLowerCase() < b[0].toLowerCase() ? -1 : 1));
      const held = await walk<any>(
        await sdk.data.evm.address.balances.listCollectibles({ chainId, address: who, pageSize: 1 }, at),
        (t) => `${t.address}:${t.tokenId}`,
        'collectibleBalances',
      );
      assert.deepEqual(
        held.map((t) => [t.address, t.ercType, t.tokenId, t.balance]),
        expected,
        who,
      );
      for (const t of held) {
        assert.equal(t.chainId, chainId);
        assert.equal(t.metadata.indexStatus, 'INDEXED');
        if (t.ercType === 'ERC-721') {
          assert.equal(t.name, 'Flurry Apes');
          assert.equal(t.symbol, 'FAPE');
          assert.equal(t.ownerAddress, who);
          assert.equal(t.tokenUri, `${metaBase}/good/${t.tokenId}`);
        } else
          // ERC-1155 `{id}` is substituted with the id in 64 hex digits (EIP-1155).
          assert.equal(t.tokenUri, `${metaBase}/good/${BigInt(t.tokenId).toString(16).padStart(64, '0')}`);
      }
    }
    // Each half equals its own balance list.
    const all = (
      await sdk.data.evm.address.balances.listCollectibles({ chainId, address: alice, pageSize: 500 }, at)
    ).result.collectibleBalances;
    const erc721 = (
      await sdk.data.evm.address.balances.listErc721({ chainId, address: alice, pageSize: 500 }, at)
    ).result.erc721TokenBalances;
    const erc1155 = (
      await sdk.data.evm.address.balances.listErc1155({ chainId, address: alice, pageSize: 500 }, at)
    ).result.erc1155TokenBalances;
    assert.deepEqual(
      all.filter((t) => t.ercType === 'ERC-721'),
      erc721,
    );
    assert.deepEqual(
      all.filter((t) => t.ercType === 'ERC-1155'),
      erc1155,
    );
  });

  test('listCollectibles filters by contract; bad addresses, page sizes and foreign page tokens are 400s', async () => {
    const only1155 = await glacier.evmBalances.listCollectibleBalances({
      chainId,
      address: alice,
      contractAddress: addr.multi,
    });
    assert.deepEqual(
      only1155.collectibleBalances.map((t) => [t.ercType, t.tokenId]),
      [
        ['ERC-1155', '1'],
        ['ERC-1155', '2'],
      ],
    );
    const none = await glacier.evmBalances.listCollectibleBalances({
      chainId,
      address: alice,
      contractAddress: addr.token,
    });
    assert.deepEqual(none.collectibleBalances, []);
    assert.equal(none.nextPageToken, undefined);

    const base = `${stack.api.url}/v1/chains/${chainId}/addresses`;
    assert.match((await expectError(`${base}/0x123/balances:listCollectibles`, 400)).message, /address/);
    assert.match(
      (await expectError(`${base}/${alice}/balances:listCollectibles?contractAddress=0xzz`, 400)).message,
      /contractAddress/,
    );
    await expectError(`${base}/${alice}/balances:listCollectibles?pageSize=0`, 400);
    await expectError(`${base}/${alice}/balances:listCollectibles?pageSize=501`, 400);
    await expectError(`${base}/${alice}/balances:listCollectibles?pageToken=abcdefghijklmnopqrstuvwxyz`, 400);
    await expectError(`${stack.api.url}/v1/chains/999999/addresses/${alice}/balances:listCollectibles`, 404);
    // A token of the ERC-1155 list, or of another address, is refused here.
    const erc1155 = await sdk.data.evm.address.balances.listErc1155(
      { chainId, address: alice, pageSize: 1 },
      at,
    );
    assert.ok(erc1155.result.nextPageToken);
    const first = await sdk.data.evm.address.balances.listCollectibles(
      { chainId, address: alice, pageSize: 1 },
      at,
    );
    assert.ok(first.result.nextPageToken);
    await expectError(
      `${base}/${alice}/balances:listCollectibles?pageToken=${erc1155.result.nextPageToken}`,
      400,
    );
    await expectError(
      `${base}/${bob}/balances:listCollectibles?pageToken=${first.result.nextPageToken}`,
      400,
    );
  });
});

describe('EVM transaction detail', () => {
  test('the native transaction equals the chain transaction, its receipt and its block', async () => {
    for (const hash of Object.values(txs)) {
      const res = await sdk.data.evm.transactions.get({ chainId, txHash: hash }, at);
      const tx = await pub.getTransaction({ hash });
      const receipt = await pub.getTransactionReceipt({ hash });
      const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
      const n = res.nativeTransaction;
      assert.deepEqual(
        {
          blockNumber: n.blockNumber,
          blockHash: n.blockHash,
          blockTimestamp: n.blockTimestamp,
          blockIndex: n.blockIndex,
          txHash: n.txHash,
          txStatus: n.txStatus,
          from: n.from.address,
          to: n.to.address,
          value: n.value,
          nonce: n.nonce,
          gasLimit: n.gasLimit,
          gasUsed: n.gasUsed,
          gasPrice: n.gasPrice,
          input: n.input,
          baseFeePerGas: n.baseFeePerGas,
          maxFeePerGas: n.maxFeePerGas,
          maxPriorityFeePerGas: n.maxPriorityFeePerGas,
          methodHash: n.method?.methodHash,
        },
        {
          blockNumber: String(receipt.blockNumber),
          blockHash: receipt.blockHash,
          blockTimestamp: Number(block.timestamp),
          blockIndex: receipt.transactionIndex,
          txHash: hash,
          txStatus: '1',
          from: getAddress(tx.from),
          to: getAddress(tx.to!),
          value: tx.value.toString(),
          nonce: String(tx.nonce),
          gasLimit: tx.gas.toString(),
          gasUsed: receipt.gasUsed.toString(),
          gasPrice: receipt.effectiveGasPrice.toString(),
          input: tx.input,
          baseFeePerGas: block.baseFeePerGas!.toString(),
          maxFeePerGas: tx.maxFeePerGas?.toString(),
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas?.toString(),
          methodHash: tx.to && tx.input.length >= 10 ? tx.input.slice(0, 10) : '',
        },
      );
      assert.equal(n.chainId, chainId);
      assert.deepEqual(res.networkTokenDetails, {
        networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
        currentPrice: { currencyCode: 'usd', value: TEST_PRICES.usd },
        historicalPrice: { currencyCode: 'usd', value: TEST_PRICES.usd },
      });
    }
  });

  test('token transfers equal the Transfer logs of the receipt, each once', async () => {
    const erc20 = await sdk.data.evm.transactions.get({ chainId, txHash: txs.erc20 }, at);
    const r20 = await pub.getTransactionReceipt({ hash: txs.erc20 });
    const word = (t: string) => getAddress('0x' + t.slice(26));
    assert.deepEqual(
      erc20.erc20Transfers!.map((t) => [t.logIndex, t.from.address, t.to.address, t.value]),
      r20.logs.map((l) => [l.logIndex, word(l.topics[1]!), word(l.topics[2]!), BigInt(l.data).toString()]),
    );
    assert.equal(erc20.erc20Transfers![0].erc20Token.symbol, 'FUSD');
    assert.deepEqual(erc20.erc721Transfers, []);

    const nft = await sdk.data.evm.transactions.get({ chainId, txHash: txs.erc721 }, at);
    const r721 = await pub.getTransactionReceipt({ hash: txs.erc721 });
    assert.deepEqual(
      nft.erc721Transfers!.map((t) => [t.logIndex, t.from.address, t.to.address, t.erc721Token.tokenId]),
      r721.logs
        .filter((l) => l.topics.length === 4)
        .map((l) => [l.logIndex, word(l.topics[1]!), word(l.topics[2]!), BigInt(l.topics[3]!).toString()]),
    );
    assert.equal(nft.erc721Transfers!.length, 1);
    assert.equal(nft.erc721Transfers![0].erc721Token.address, addr.nft);

    // One TransferBatch log of ids 1 and 2 is two transfers; the party table holds each twice.
    const batch = await sdk.data.evm.transactions.get({ chainId, txHash: txs.erc1155 }, at);
    assert.deepEqual(
      batch.erc1155Transfers!.map((t) => [t.from.address, t.to.address, t.erc1155Token.tokenId, t.value]),
      [
        [alice, bob, '1', '3'],
        [alice, bob, '2', '1'],
      ],
    );
  });

  test('internal transactions are the value calls and creations of the call trace, in trace order', async () => {
    const res = await sdk.data.evm.transactions.get({ chainId, txHash: txs.factory }, at);
    const trace = (await pub.request({
      method: 'debug_traceTransaction' as any,
      params: [txs.factory, { tracer: 'callTracer' }] as any,
    })) as CallFrame;
    const expected: unknown[] = [];
    const visit = (f: CallFrame) => {
      const value = BigInt(f.value ?? '0x0');
      if (f.type.startsWith('CREATE') || (f.type === 'CALL' && value > 0n))
        expected.push([
          f.type,
          getAddress(f.from),
          getAddress(f.to!),
          value.toString(),
          BigInt(f.gasUsed!).toString(),
        ]);
      (f.calls ?? []).forEach(visit);
    };
    (trace.calls ?? []).forEach(visit);
    assert.equal(expected.length, 3, 'CREATE, CREATE2 and the forwarding CALL');
    assert.deepEqual(
      res.internalTransactions!.map((t) => [
        t.internalTxType,
        t.from.address,
        t.to.address,
        t.value,
        t.gasUsed,
      ]),
      expected,
    );
    assert.ok(res.internalTransactions!.every((t) => !t.isReverted));
  });

  test("a contract's deployment transaction is the detail of the transaction that created it", async () => {
    const token = await sdk.data.evm.contracts.getDeploymentTransaction(
      { chainId, address: addr.token.toLowerCase() },
      at,
    );
    const receipt = await pub.getTransactionReceipt({ hash: token.nativeTransaction.txHash as Hex });
    assert.equal(getAddress(receipt.contractAddress!), addr.token);
    assert.deepEqual(
      token,
      await sdk.data.evm.transactions.get({ chainId, txHash: receipt.transactionHash }, at),
    );
    assert.equal(token.nativeTransaction.method?.callType, 'CONTRACT_CREATION');
    assert.deepEqual(
      token.erc20Transfers?.map((t) => [t.to.address, t.value]),
      [[alice, '1000000']],
    );
    // A child the factory created: the factory call that created it.
    const children = (
      await sdk.data.evm.address.contracts.listDeployments({ chainId, address: addr.factory }, at)
    ).result.contracts;
    const child = await glacier.evmTransactions.getDeploymentTransaction({
      chainId,
      address: children[0].address,
      currency: 'eur' as any,
    });
    assert.equal(child.nativeTransaction.txHash, txs.factory);
    assert.deepEqual(child.networkTokenDetails.currentPrice, { currencyCode: 'eur', value: TEST_PRICES.eur });
    const base = `${stack.api.url}/v1/chains/${chainId}/contracts`;
    assert.equal((await fetch(`${base}/${alice}/transactions:getDeployment`)).status, 404);
    assert.equal((await fetch(`${base}/0x12/transactions:getDeployment`)).status, 400);
    assert.equal((await fetch(`${base}/${addr.token}/transactions:getDeployment?currency=xyz`)).status, 400);
  });

  test('a malformed hash is a 400, an unknown one a 404, in the service error body', async () => {
    const base = `${stack.api.url}/v1/chains/${chainId}/transactions`;
    const malformed = await fetch(`${base}/0x1234`);
    assert.equal(malformed.status, 400);
    assert.deepEqual(Object.keys((await malformed.json()) as object).sort(), [
      'error',
      'message',
      'statusCode',
    ]);
    const unknown = await fetch(`${base}/0x${'ab'.repeat(32)}`);
    assert.equal(unknown.status, 404);
    const body = (await unknown.json()) as any;
    assert.equal(body.statusCode, 404);
    assert.equal(body.error, 'Not Found');
  });
});

describe('EVM blocks', () => {
  interface NodeBlock {
    number: Hex;
    hash: Hex;
    parentHash: Hex;
    timestamp: Hex;
    gasUsed: Hex;
    gasLimit: Hex;
    baseFeePerGas: Hex;
    blockGasCost?: Hex;
    transactions: Hex[];
  }
  const nodeBlock = (n: bigint) =>
    pub.request({
      method: 'eth_getBlockByNumber',
      params: ['0x' + n.toString(16), false] as any,
    }) as unknown as Promise<NodeBlock>;

  test('the latest blocks, walked page by page, are every block once, newest first, as the node has them', async () => {
    const head = await pub.getBlockNumber();
    const blocks = await walk<any>(
      await sdk.data.evm.blocks.listLatest({ chainId, pageSize: 7 }, at),
      (b) => b.blockNumber,
      'blocks',
    );
    assert.deepEqual(
      blocks.map((b) => BigInt(b.blockNumber)),
      Array.from({ length: Number(head) + 1 }, (_, i) => head - BigInt(i)),
    );
    let cumulative = 0;
    for (const b of [...blocks].reverse()) {
      const node = await nodeBlock(BigInt(b.blockNumber));
      let fees = 0n;
      for (const hash of node.transactions) {
        const receipt = await pub.getTransactionReceipt({ hash });
        fees += receipt.gasUsed * receipt.effectiveGasPrice;
      }
      cumulative += node.transactions.length;
      assert.deepEqual(b, {
        chainId,
        blockNumber: String(BigInt(node.number)),
        blockTimestamp: Number(node.timestamp),
        blockHash: node.hash,
        txCount: node.transactions.length,
        baseFee: BigInt(node.baseFeePerGas).toString(),
        gasUsed: BigInt(node.gasUsed).toString(),
        gasLimit: BigInt(node.gasLimit).toString(),
        gasCost: BigInt(node.blockGasCost ?? '0x0').toString(),
        parentHash: node.parentHash,
        feesSpent: fees.toString(),
        cumulativeTransactions: String(cumulative),
      });
    }
    // The setup sent 23 transactions (deployments, transfers, mints, factory and native calls).
    assert.ok(cumulative >= 23, `the setup transactions are counted (${cumulative})`);
  });

  test('one block by number and by hash', async () => {
    const node = await nodeBlock(latestBlock);
    const byNumber = await sdk.data.evm.blocks.get({ chainId, blockId: String(latestBlock) }, at);
    const byHash = await sdk.data.evm.blocks.get({ chainId, blockId: node.hash }, at);
    assert.equal(byNumber.blockHash, node.hash);
    assert.equal(byNumber.txCount, node.transactions.length);
    assert.deepEqual(byHash, byNumber);
    const first = await sdk.data.evm.blocks.listLatest({ chainId, pageSize: 1 }, at);
    assert.deepEqual(
      await sdk.data.evm.blocks.get({ chainId, blockId: first.result.blocks[0].blockNumber }, at),
      first.result.blocks[0],
    );
  });

  test('bad block ids, page tokens and page sizes are 400s, unknown blocks 404s, in the error body', async () => {
    const base = `${stack.api.url}/v1/chains/${chainId}/blocks`;
    assert.match((await expectError(`${base}/0x1234`, 400)).message, /blockId/);
    await expectError(`${base}/latest`, 400);
    await expectError(`${base}/${latestBlock + 1000n}`, 404);
    await expectError(`${base}/0x${'cd'.repeat(32)}`, 404);
    await expectError(`${base}?pageToken=abcdefghijklmnopqrstuvwxyz`, 400);
    await expectError(`${base}?pageSize=0`, 400);
    await expectError(`${base}?pageSize=101`, 400);
    // A token of another list is refused here.
    const native = await sdk.data.evm.address.transactions.listNative(
      { chainId, address: alice, pageSize: 1 },
      at,
    );
    await expectError(`${base}?pageToken=${native.result.nextPageToken}`, 400);
  });

  test("a block's transactions and the chain's latest ones are the node's, in block order, with the status filter", async () => {
    // A transaction that fails on chain (mined with status 0) for the status filter.
    const data = new ethers.Interface(c.Token20.abi).encodeFunctionData('transfer', [bob, 10n ** 30n]);
    const failed = await wallet.sendTransaction({
      to: addr.token,
      data: data as Hex,
      gas: 100_000n,
      chain: wallet.chain,
      account: wallet.account!,
    });
    const failedReceipt = await pub.waitForTransactionReceipt({ hash: failed });
    assert.equal(failedReceipt.status, 'reverted');
    await stack.indexer.waitFor(chainId, Number(failedReceipt.blockNumber));

    const head = failedReceipt.blockNumber;
    const newestFirst: Hex[] = [];
    for (let n = head; n >= 1n; n--) {
      const node = await nodeBlock(n);
      const page = await sdk.data.evm.blocks.listTransactions({ chainId, blockId: String(n) }, at);
      assert.deepEqual(
        page.transactions.map((t) => [t.txHash, t.blockIndex, t.blockHash]),
        node.transactions.map((hash, i) => [hash, i, node.hash]),
      );
      newestFirst.push(...[...node.transactions].reverse());
    }
    const byHash = await sdk.data.evm.blocks.listTransactions(
      { chainId, blockId: failedReceipt.blockHash },
      at,
    );
    assert.equal(byHash.transactions[0].txStatus, '0');
    const latest = await walk<any>(
      await sdk.data.evm.transactions.listLatest({ chainId, pageSize: 4 }, at),
      (t) => t.txHash,
      'transactions',
    );
    assert.deepEqual(
      latest.map((t) => t.txHash),
      newestFirst,
    );
    const failedOnly = await glacier.evmTransactions.listLatestTransactions({
      chainId,
      status: 'failed' as any,
    });
    assert.deepEqual(
      failedOnly.transactions.map((t) => t.txHash),
      [failed],
    );
    const succeeded = await walk<any>(
      await sdk.data.evm.transactions.listLatest({ chainId, status: 'success', pageSize: 100 }, at),
      (t) => t.txHash,
      'transactions',
    );
    assert.deepEqual(
      succeeded.map((t) => t.txHash),
      newestFirst.filter((h) => h !== failed),
    );
    const base = `${stack.api.url}/v1/chains/${chainId}`;
    assert.equal((await fetch(`${base}/blocks/${head + 1000n}/transactions`)).status, 404);
    assert.equal((await fetch(`${base}/blocks/latest/transactions`)).status, 400);
    assert.equal((await fetch(`${base}/blocks/1/transactions?pageSize=101`)).status, 400);
    assert.equal((await fetch(`${base}/transactions?status=pending`)).status, 400);
    assert.equal((await fetch(`${base}/transactions?pageSize=0`)).status, 400);
  });

  test('GET /v1/blocks: the newest blocks of every indexed chain, each once, newest first, as the node has them', async () => {
    // viem keeps a block number for a few seconds: ask the node.
    const head = await pub.getBlockNumber({ cacheTime: 0 });
    await stack.indexer.waitFor(chainId, Number(head));
    const all = await walk<any>(
      await sdk.data.evm.blocks.listLatestAllChains({ pageSize: 7 }, at),
      (b) => `${b.chainId}:${b.blockNumber}`,
      'blocks',
    );
    // The suite indexes one chain: the C-chain, every block of it from the head down.
    assert.deepEqual(
      all.map((b) => [b.chainId, BigInt(b.blockNumber)]),
      Array.from({ length: Number(head) + 1 }, (_, i) => [chainId, head - BigInt(i)]),
    );
    for (let i = 1; i < all.length; i++)
      assert.ok(all[i - 1].blockTimestamp >= all[i].blockTimestamp, 'newest first');
    for (const b of all.slice(0, 5)) {
      const node = await nodeBlock(BigInt(b.blockNumber));
      assert.equal(b.blockHash, node.hash);
      assert.equal(b.blockTimestamp, Number(node.timestamp));
      assert.equal(b.txCount, node.transactions.length);
    }
    // Each block is the chain's own list's entry.
    const perChain = await walk<any>(
      await sdk.data.evm.blocks.listLatest({ chainId, pageSize: 100 }, at),
      (b) => b.blockNumber,
      'blocks',
    );
    assert.deepEqual(all, perChain);
    const testnet = await walk<any>(
      await sdk.data.evm.blocks.listLatestAllChains({ pageSize: 100, network: 'testnet' }, at),
      (b) => `${b.chainId}:${b.blockNumber}`,
      'blocks',
    );
    assert.deepEqual(testnet, all);
    // chainkit's earlier path for the same list (data.evm.chains.listAllLatestBlocks).
    assert.deepEqual(
      await walk<any>(
        await sdk.data.evm.chains.listAllLatestBlocks({ pageSize: 7 }, at),
        (b) => `${b.chainId}:${b.blockNumber}`,
        'blocks',
      ),
      all,
    );
    const mainnet = await glacier.evmBlocks.listLatestBlocksAllChains({ network: 'mainnet' as any });
    assert.deepEqual(mainnet, { blocks: [] });

    const base = `${stack.api.url}/v1/blocks`;
    await expectError(`${base}?pageSize=0`, 400);
    await expectError(`${base}?pageSize=101`, 400);
    await expectError(`${base}?network=devnet`, 400);
    await expectError(`${base}?pageToken=abcdefghijklmnopqrstuvwxyz`, 400);
    const first = await sdk.data.evm.blocks.listLatestAllChains({ pageSize: 1 }, at);
    const chainToken = await sdk.data.evm.blocks.listLatest({ chainId, pageSize: 1 }, at);
    // A token of the chain's own list, or of another network filter, is refused here.
    await expectError(`${base}?pageToken=${chainToken.result.nextPageToken}`, 400);
    await expectError(`${base}?network=fuji&pageToken=${first.result.nextPageToken}`, 400);
  });

  test('GET /v1/transactions: the newest transactions of every indexed chain, each once, with the status filter', async () => {
    // viem keeps a block number for a few seconds: ask the node.
    const head = await pub.getBlockNumber({ cacheTime: 0 });
    await stack.indexer.waitFor(chainId, Number(head));
    const newestFirst: Hex[] = [];
    for (let n = head; n >= 1n; n--) newestFirst.push(...[...(await nodeBlock(n)).transactions].reverse());
    const all = await walk<any>(
      await sdk.data.evm.transactions.listLatestAllChains({ pageSize: 4 }, at),
      (t) => t.txHash,
      'transactions',
    );
    assert.deepEqual(
      all.map((t) => t.txHash),
      newestFirst,
    );
    // Each transaction is the chain's own list's entry.
    const perChain = await walk<any>(
      await sdk.data.evm.transactions.listLatest({ chainId, pageSize: 100 }, at),
      (t) => t.txHash,
      'transactions',
    );
    assert.deepEqual(all, perChain);
    // chainkit's earlier path for the same list (data.evm.chains.listAllLatestTransactions).
    assert.deepEqual(
      await walk<any>(
        await sdk.data.evm.chains.listAllLatestTransactions({ pageSize: 4 }, at),
        (t) => t.txHash,
        'transactions',
      ),
      all,
    );
    const receipt = await pub.getTransactionReceipt({ hash: all[0].txHash });
    assert.equal(all[0].txStatus, receipt.status === 'success' ? '1' : '0');
    assert.equal(all[0].gasUsed, String(receipt.gasUsed));

    const statusOf = async (status: 'success' | 'failed') =>
      (
        await walk<any>(
          await sdk.data.evm.transactions.listLatestAllChains({ pageSize: 3, status, network: 'fuji' }, at),
          (t) => t.txHash,
          'transactions',
        )
      ).map((t) => t.txHash);
    const succeeded = await statusOf('success');
    const failed = await statusOf('failed');
    assert.deepEqual(
      succeeded,
      all.filter((t) => t.txStatus === '1').map((t) => t.txHash),
    );
    assert.deepEqual(
      failed,
      all.filter((t) => t.txStatus === '0').map((t) => t.txHash),
    );
    const mainnet = await glacier.evmTransactions.listLatestTransactionsAllChains({
      network: 'mainnet' as any,
    });
    assert.deepEqual(mainnet, { transactions: [] });

    const base = `${stack.api.url}/v1/transactions`;
    await expectError(`${base}?pageSize=0`, 400);
    await expectError(`${base}?pageSize=101`, 400);
    await expectError(`${base}?status=pending`, 400);
    await expectError(`${base}?network=devnet`, 400);
    const first = await sdk.data.evm.transactions.listLatestAllChains({ pageSize: 1 }, at);
    const chainToken = await sdk.data.evm.transactions.listLatest({ chainId, pageSize: 1 }, at);
    await expectError(`${base}?pageToken=${chainToken.result.nextPageToken}`, 400);
    await expectError(`${base}?status=success&pageToken=${first.result.nextPageToken}`, 400);
  });
});

describe('EVM ERC-20 balances', () => {
  const balanceOf = (token: Hex, who: Hex, blockNumber?: bigint) =>
    pub.readContract({
      address: token,
      abi: c.Token20.abi,
      functionName: 'balanceOf',
      args: [who],
      blockNumber,
    }) as Promise<bigint>;

  test('listErc20 now and at a block equals balanceOf on the chain, with token metadata', async () => {
    const now = await walk<any>(
      await sdk.data.evm.address.balances.listErc20({ chainId, address: alice, pageSize: 1 }, at),
      (b) => b.address,
      'erc20TokenBalances',
    );
    assert.deepEqual(now, [
      {
        address: addr.token,
        name: 'Flurry Dollar',
        symbol: 'FUSD',
        decimals: 6,
        ercType: 'ERC-20',
        chainId,
        balance: String(await balanceOf(addr.token, alice)),
        tokenReputation: null,
      },
    ]);
    assert.equal(now[0].balance, String(1_000_000n - 1500n - 40_000n + 300n));

    // Just after the first transfer to bob: the deployer's supply less 1,500.
    const then = (await pub.getTransactionReceipt({ hash: txs.erc20 })).blockNumber;
    const page = await sdk.data.evm.address.balances.listErc20(
      { chainId, address: alice, blockNumber: String(then), currency: 'eur' },
      at,
    );
    assert.deepEqual(
      page.result.erc20TokenBalances.map((b) => [b.address, b.balance]),
      [[addr.token, String(await balanceOf(addr.token, alice, then))]],
    );
    assert.equal(page.result.erc20TokenBalances[0].balance, String(1_000_000n - 1500n));
    assert.equal(
      page.result.nativeTokenBalance.balance,
      (await pub.getBalance({ address: alice, blockNumber: then })).toString(),
    );
    assert.deepEqual(page.result.nativeTokenBalance.price, { currencyCode: 'eur', value: TEST_PRICES.eur });
    // Before the token existed there is nothing to list.
    const before = await sdk.data.evm.address.balances.listErc20(
      { chainId, address: alice, blockNumber: '0' },
      at,
    );
    assert.deepEqual(before.result.erc20TokenBalances, []);
  });

  test('pages walk every token once, in address order, and contractAddresses filters', async () => {
    const all = await walk<any>(
      await sdk.data.evm.address.balances.listErc20({ chainId, address: bob, pageSize: 1 }, at),
      (b) => b.address,
      'erc20TokenBalances',
    );
    const tokens = [addr.token, addr.bare].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    assert.deepEqual(
      all.map((b) => b.address),
      tokens,
    );
    // Bare20 emits Transfer without keeping balances: its balance is what the transfers sum to.
    const expected: Record<string, string> = {
      [addr.token]: String(await balanceOf(addr.token, bob)),
      [addr.bare]: '5',
    };
    for (const b of all) assert.equal(b.balance, expected[b.address]);
    assert.equal(expected[addr.token], '1500');

    const only = await sdk.data.evm.address.balances.listErc20(
      { chainId, address: bob, contractAddresses: `${addr.bare}, ${addr.nft}` },
      at,
    );
    assert.deepEqual(
      only.result.erc20TokenBalances.map((b) => [b.address, b.balance, b.name]),
      [[addr.bare, '5', '']],
    );
  });

  test('a walk without blockNumber keeps the block of its first page while the chain moves on', async () => {
    const first = await sdk.data.evm.address.balances.listErc20({ chainId, address: bob, pageSize: 1 }, at);
    const token = first.result.nextPageToken;
    assert.ok(token);
    // A new block between the pages: bob is paid in the token and in AVAX.
    await write(addr.token, 'Token20', 'transfer', [bob, 1n]);
    await stack.indexer.waitFor(chainId, Number(latestBlock));
    const pinned = first.result.nativeTokenBalance.balance;
    const base = `${stack.api.url}/v1/chains/${chainId}/addresses/${bob}`;
    for (const kind of ['listErc20', 'listErc1155']) {
      const page1 = (await (await fetch(`${base}/balances:${kind}?pageSize=1`)).json()) as any;
      if (kind === 'listErc20') assert.equal(page1.nativeTokenBalance.balance, pinned);
      await pub.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({
          to: bob,
          value: 1n,
          chain: wallet.chain,
          account: wallet.account!,
        }),
      });
      latestBlock = await pub.getBlockNumber();
      await stack.indexer.waitFor(chainId, Number(latestBlock));
      const page2 = await fetch(
        `${base}/balances:${kind}?pageSize=1&pageToken=${encodeURIComponent(page1.nextPageToken)}`,
      );
      assert.equal(page2.status, 200, `${kind}: ${await page2.clone().text()}`);
      const body = (await page2.json()) as any;
      assert.equal(body.nativeTokenBalance.balance, page1.nativeTokenBalance.balance, kind);
    }
    const second = await sdk.data.evm.address.balances.listErc20(
      { chainId, address: bob, pageSize: 1, pageToken: token },
      at,
    );
    assert.equal(second.result.nativeTokenBalance.balance, pinned);
    // A page token is still bound to its filters: with blockNumber it is another listing.
    const other = await fetch(
      `${base}/balances:listErc20?pageSize=1&blockNumber=1&pageToken=${encodeURIComponent(token)}`,
    );
    assert.equal(other.status, 400);
  });

  test('bad addresses, page sizes and foreign page tokens are 400s in the error body', async () => {
    const base = `${stack.api.url}/v1/chains/${chainId}/addresses`;
    const expect400 = async (url: string) => {
      const res = await fetch(url);
      assert.equal(res.status, 400, url);
      const body = (await res.json()) as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
      assert.equal(body.error, 'Bad Request');
    };
    await expect400(`${base}/0x123/balances:listErc20`);
    await expect400(`${base}/${bob}/balances:listErc20?pageSize=501`);
    await expect400(`${base}/${bob}/balances:listErc20?pageSize=0`);
    await expect400(`${base}/${bob}/balances:listErc20?contractAddresses=0xnope`);
    await expect400(`${base}/${bob}/balances:listErc20?blockNumber=latest`);
    const first = await sdk.data.evm.address.balances.listErc20({ chainId, address: bob, pageSize: 1 }, at);
    const token = first.result.nextPageToken!;
    assert.ok(token);
    // The token belongs to bob's unfiltered list: another filter or the ERC-1155 list refuses it.
    await expect400(
      `${base}/${bob}/balances:listErc20?pageSize=1&contractAddresses=${addr.bare}&pageToken=${token}`,
    );
    await expect400(`${base}/${bob}/balances:listErc1155?pageSize=1&pageToken=${token}`);
    const unknown = await fetch(`${stack.api.url}/v1/chains/999999/addresses/${bob}/balances:listErc20`);
    assert.equal(unknown.status, 404);
  });
});

describe('contracts, NFTs and chains', () => {
  test('deployments by an EOA and by a factory, with their deployer details and standards', async () => {
    const byAlice = await walk<any>(
      await sdk.data.evm.address.contracts.listDeployments({ chainId, address: alice, pageSize: 2 }, at),
      (d) => d.address,
      'contracts',
    );
    const types = Object.fromEntries(byAlice.map((d) => [d.address, d.ercType]));
    assert.equal(types[addr.token], 'ERC-20');
    assert.equal(types[addr.nft], 'ERC-721');
    assert.equal(types[addr.multi], 'ERC-1155');
    assert.equal(types[addr.factory], 'UNKNOWN');
    assert.ok(!(addr.bare in types), 'deployed by the other key');
    const token = byAlice.find((d) => d.address === addr.token);
    assert.equal(token.decimals, 6);
    assert.equal(token.deploymentDetails.deployerAddress, alice);
    const receipt = await pub.getTransactionReceipt({ hash: token.deploymentDetails.txHash });
    assert.equal(getAddress(receipt.contractAddress!), addr.token);

    const byFactory = (
      await glacier.evmTransactions.listContractDeployments({ chainId, address: addr.factory })
    ).contracts;
    assert.equal(byFactory.length, 2);
    for (const child of byFactory) {
      assert.equal(child.deploymentDetails?.deployerContractAddress, addr.factory);
      assert.equal(child.deploymentDetails?.deployerAddress, alice);
      assert.notEqual(await pub.getCode({ address: child.address as Hex }), undefined);
    }
    const byBob = await glacier.evmTransactions.listContractDeployments({
      chainId,
      address: getAddress(signer.address),
    });
    assert.deepEqual(
      byBob.contracts.map((x) => x.address),
      [addr.bare],
    );
  });

  test('one contract by address equals its deployment entry; an account that is no contract is a 404', async () => {
    const deployed = await walk<any>(
      await sdk.data.evm.address.contracts.listDeployments({ chainId, address: alice, pageSize: 100 }, at),
      (d) => d.address,
      'contracts',
    );
    assert.ok(deployed.length >= 5);
    for (const d of deployed)
      assert.deepEqual(
        await sdk.data.evm.contracts.getMetadata({ chainId, address: d.address.toLowerCase() }, at),
        d,
      );
    const token = await glacier.evmContracts.getContractMetadata({ chainId, address: addr.token });
    assert.deepEqual(
      [token.ercType, token.name, (token as any).symbol, (token as any).decimals],
      ['ERC-20', 'Flurry Dollar', 'FUSD', 6],
    );
    const factory = await sdk.data.evm.contracts.getMetadata({ chainId, address: addr.factory }, at);
    assert.equal(factory.ercType, 'UNKNOWN');
    assert.equal(factory.deploymentDetails?.deployerAddress, alice);
    for (const [who, status] of [
      [carol, 404],
      ['0x123', 400],
    ] as const) {
      const res = await fetch(`${stack.api.url}/v1/chains/${chainId}/addresses/${who}`);
      assert.equal(res.status, status, who);
      assert.equal(((await res.json()) as any).statusCode, status);
    }
  });

  test("a contract of the chain's genesis (Multicall3) is known, with no deployment details", async () => {
    // In the C-chain's genesis alloc, so never deployed by a transaction the indexer could see.
    const multicall = '0xcA11bde05977b3631167028862bE2a173976CA11';
    const blockchainId = stack.devnet.facts.chains.C.blockchainID;
    for (const id of [chainId, blockchainId])
      assert.deepEqual(
        await sdk.data.evm.contracts.getMetadata({ chainId: id, address: multicall.toLowerCase() }, at),
        { address: multicall, ercType: 'UNKNOWN' },
      );
  });

  test('collection tokens carry owners and resolved metadata', async () => {
    await stack.fetcher.idle();
    const tokens = await walk<any>(
      await sdk.data.nfts.list({ chainId, address: addr.nft, pageSize: 1 }, at),
      (t) => t.tokenId,
      'tokens',
    );
    assert.deepEqual(
      tokens.map((t) => t.tokenId),
      ['1', '2', '3'],
    );
    const [one, two, three] = tokens;
    assert.equal(one.ownerAddress, alice);
    assert.equal(two.ownerAddress, bob);
    assert.equal(one.tokenUri, `${metaBase}/good/1`);
    assert.equal(one.metadata.indexStatus, 'INDEXED');
    assert.equal(one.metadata.name, 'Good #1');
    assert.equal(one.metadata.imageUri, 'ipfs://img/1');
    assert.deepEqual(JSON.parse(one.metadata.attributes), [{ trait_type: 'n', value: 1 }]);
    assert.equal(three.metadata.indexStatus, 'MISSING_TOKEN');
    const multi = (await glacier.nfTs.listTokens({ chainId, address: addr.multi })).tokens as any[];
    assert.deepEqual(
      multi.map((t) => [t.ercType, t.tokenId]),
      [
        ['ERC-1155', '1'],
        ['ERC-1155', '2'],
      ],
    );
    assert.equal(multi[0].tokenUri, `${metaBase}/good/${'1'.padStart(64, '0')}`);
    assert.equal(multi[0].metadata.indexStatus, 'INDEXED');
  });

  test('one collection token by id equals its entry of the collection list', async () => {
    await stack.fetcher.idle();
    for (const contract of [addr.nft, addr.multi]) {
      const listed = (await sdk.data.nfts.list({ chainId, address: contract, pageSize: 100 }, at)).result
        .tokens;
      for (const token of listed) {
        const one = await sdk.data.nfts.get(
          { chainId, address: contract.toLowerCase(), tokenId: token.tokenId },
          at,
        );
        assert.deepEqual(one, token);
      }
    }
    const burnt = await glacier.nfTs.getTokenDetails({ chainId, address: addr.nft, tokenId: '3' });
    assert.equal(burnt.metadata.indexStatus, 'MISSING_TOKEN');
    const base = `${stack.api.url}/v1/chains/${chainId}/nfts/collections`;
    assert.equal((await fetch(`${base}/${addr.nft}/tokens/99`)).status, 404);
    assert.equal((await fetch(`${base}/${addr.token}/tokens/1`)).status, 404);
    for (const bad of ['0x1', '-1', '1.5', (2n ** 256n).toString()])
      assert.equal((await fetch(`${base}/${addr.nft}/tokens/${bad}`)).status, 400, bad);
  });

  test('chains list the C-chain with its URLs and honour the network and feature filters', async () => {
    const { chains } = await sdk.data.evm.chains.list({}, at);
    const cChain = chains.find((x) => x.chainId === chainId);
    assert.ok(cChain);
    assert.equal(cChain.platformChainId, stack.devnet.facts.chains.C.blockchainID);
    assert.equal(cChain.rpcUrl, stack.devnet.facts.urls.cChainRpc);
    assert.equal(cChain.wsUrl, stack.devnet.facts.urls.cChainWs);
    assert.equal(cChain.networkToken.symbol, 'AVAX');
    assert.equal(cChain.vmName, 'EVM');
    assert.deepEqual(cChain.enabledFeatures, ['nftIndexing', 'teleporter']);
    assert.equal((await sdk.data.evm.chains.list({ network: 'mainnet' }, at)).chains.length, 0);
    for (const feature of ['nftIndexing', 'teleporter'] as const)
      assert.ok(
        (await sdk.data.evm.chains.list({ network: 'testnet', feature }, at)).chains.some(
          (x) => x.chainId === chainId,
        ),
      );
    assert.equal((await glacier.evmChains.supportedChains({ feature: 'webhooks' as any })).chains.length, 0);
  });

  test('GET /v1/chains/{chainId} answers one chain by EVM chain id or blockchain id', async () => {
    const { chains } = await sdk.data.evm.chains.list({}, at);
    const listed = chains.find((x) => x.chainId === chainId);
    const byEvmId = await sdk.data.evm.chains.get({ chainId }, at);
    assert.deepEqual(byEvmId, listed);
    const byBlockchainId = await sdk.data.evm.chains.get(
      { chainId: stack.devnet.facts.chains.C.blockchainID },
      at,
    );
    assert.deepEqual(byBlockchainId, listed);
    assert.equal((await glacier.evmChains.getChainInfo({ chainId })).chainName, listed!.chainName);
    const unknown = await fetch(`${stack.api.url}/v1/chains/999999`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as any).statusCode, 404);
    const bad = await fetch(`${stack.api.url}/v1/chains/0xa868`);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as any).error, 'Bad Request');
  });

  test('GET /v1/address/{address}/chains lists the chains an address sent or received transactions or token transfers on', async () => {
    const { chains } = await sdk.data.evm.chains.list({}, at);
    const cChain = chains.find((x) => x.chainId === chainId);
    // bob has native transactions; carol only token transfers (and value from a contract's call).
    const carolNative = await sdk.data.evm.address.transactions.listNative({ chainId, address: carol }, at);
    assert.deepEqual(carolNative.result.transactions, []);
    const carolTransfers = await pub.getLogs({
      address: addr.token,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      args: { to: carol },
      fromBlock: 0n,
    });
    assert.ok(carolTransfers.length > 0);
    for (const who of [alice, bob, carol]) {
      const res = await sdk.data.evm.address.chains.list({ address: who }, at);
      assert.deepEqual(res, { indexedChains: [cChain], unindexedChains: [] }, who);
      // chainkit's earlier path for the same answer (data.evm.chains.getAddressChains).
      assert.deepEqual(await sdk.data.evm.chains.getAddressChains({ address: who }, at), res, who);
    }
    const lower = await glacier.evmChains.listAddressChains({ address: bob.toLowerCase() });
    assert.deepEqual(lower.indexedChains, [cChain]);
    const idle = await sdk.data.evm.address.chains.list(
      { address: '0x00000000000000000000000000000000000d1e00' },
      at,
    );
    assert.deepEqual(idle, { indexedChains: [], unindexedChains: [] });
    assert.match((await expectError(`${stack.api.url}/v1/address/0x123/chains`, 400)).message, /address/);
    await expectError(`${stack.api.url}/v1/address/${'0x' + 'g'.repeat(40)}/chains`, 400);
  });

  test('/openapi.json describes the collectibles, cross-chain and address-chains routes as the real document names them', async () => {
    const doc = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as any;
    const operations: Record<string, string> = {
      '/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles': 'listCollectibleBalances',
      '/v1/blocks': 'listLatestBlocksAllChains',
      '/v1/transactions': 'listLatestTransactionsAllChains',
      '/v1/address/{address}/chains': 'listAddressChains',
    };
    for (const [path, operationId] of Object.entries(operations)) {
      assert.equal(doc.paths[path]?.get?.operationId, operationId, path);
      assert.ok(doc.paths[path].get.responses['200'] && doc.paths[path].get.responses['400'], path);
    }
    const pageSize = (path: string) =>
      doc.paths[path].get.parameters.find((p: any) => p.name === 'pageSize').schema;
    assert.equal(pageSize('/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles').maximum, 500);
    assert.equal(pageSize('/v1/blocks').maximum, 100);
  });

  test('bad input gets the service error body', async () => {
    const bad = await fetch(`${stack.api.url}/v1/chains/${chainId}/addresses/0x123/transactions:listErc20`);
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as any;
    assert.equal(body.statusCode, 400);
    assert.equal(body.error, 'Bad Request');
    assert.match(body.message, /address/);
    const unknown = await fetch(
      `${stack.api.url}/v1/chains/999999/addresses/${alice}/transactions:listErc20`,
    );
    assert.equal(unknown.status, 404);
    const forged = await fetch(
      `${stack.api.url}/v1/chains/${chainId}/addresses/${alice}/transactions:listErc20?pageToken=abcdefghijklmnopqrstuvwxyz`,
    );
    assert.equal(forged.status, 400);
    const range = await fetch(
      `${stack.api.url}/v1/chains/${chainId}/addresses/${alice}/transactions:listNative?startBlock=5&endBlock=2`,
    );
    assert.equal(range.status, 400);
    // Past 2^53 - 1 (and past PostgreSQL's bigint, a 500 there where SQLite compared it).
    for (const query of ['startBlock=9223372036854775808', 'endBlock=1e23']) {
      for (const list of ['transactions:listNative', 'transactions', 'transactions:listErc20']) {
        const res = await fetch(`${stack.api.url}/v1/chains/${chainId}/addresses/${alice}/${list}?${query}`);
        const body = (await res.json()) as any;
        assert.equal(res.status, 400, `${list}?${query}: ${JSON.stringify(body)}`);
        assert.equal(body.error, 'Bad Request');
      }
      const transfers = await fetch(
        `${stack.api.url}/v2/chains/${chainId}/addresses/${alice}/transactions?${query}`,
      );
      assert.equal(transfers.status, 400, `v2 transactions?${query}`);
    }
  });
});
