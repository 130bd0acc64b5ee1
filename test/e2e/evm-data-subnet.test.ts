/**
 * Subnet-EVM chains are indexed like the C-chain: a chain created through the P-chain is found
 * by discovery (platform.getBlockchains + its /rpc), listed by `GET /v1/chains` with its own EVM
 * chain id and URLs, and its transfers are served under either of its ids. The cross-chain lists
 * (`GET /v1/blocks`, `GET /v1/transactions`) merge it with the C-chain.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';
import { startEvmIndexer } from '../../src/data/indexer/evm/evm-indexer.js';
import { NETWORKS, type NetworkName } from '../../src/shared/networks.js';
import { EWOQ_EVM, EWOQ_EVM_KEY, compile, createSubnetEvmChain, evmClients } from './subnet-evm-helpers.js';

const CHAIN_ID = 99_771;
let stack: EvmDataStack;
const at = () => ({ serverURL: stack.api.url });
const sdk = new Avalanche({ enableTelemetry: false, retryConfig: { strategy: 'none' } });

/** Every item of a list walked page by page, each once. */
async function walk(pages: AsyncIterable<{ result: any }>, field: string, key: (item: any) => string) {
  const items: any[] = [];
  const seen = new Set<string>();
  for await (const page of pages)
    for (const item of page.result[field]) {
      assert.ok(!seen.has(key(item)), `${key(item)} appears twice`);
      seen.add(key(item));
      items.push(item);
    }
  return items;
}

before(async () => {
  stack = await startEvmDataStack();
});

after(async () => {
  await stack?.stop();
});

test('a Subnet-EVM chain is discovered, listed and indexed', async () => {
  const genesis = {
    config: {
      chainId: CHAIN_ID,
      feeConfig: {
        gasLimit: 15_000_000,
        targetBlockRate: 2,
        minBaseFee: 25_000_000_000,
        targetGas: 15_000_000,
        baseFeeChangeDenominator: 36,
        minBlockGasCost: 0,
        maxBlockGasCost: 1_000_000,
        blockGasCostStep: 200_000,
      },
    },
    alloc: { [EWOQ_EVM.slice(2)]: { balance: '0x' + (1_000_000n * 10n ** 18n).toString(16) } },
    nonce: '0x0',
    timestamp: '0x0',
    gasLimit: '0xe4e1c0',
    difficulty: '0x0',
  };
  const { chainId: blockchainId } = await createSubnetEvmChain(stack.devnet.url, genesis, 'indexed l1');
  const rpcUrl = `${stack.devnet.url}/ext/bc/${blockchainId}/rpc`;
  const { client, wallet } = evmClients(rpcUrl, CHAIN_ID, privateKeyToAccount(EWOQ_EVM_KEY as Hex));
  const to: Hex = '0x0000000000000000000000000000000000001a1a';
  const hash = await wallet.sendTransaction({
    to,
    value: parseEther('2'),
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });

  const at = { serverURL: stack.api.url };
  let listed: any;
  for (let i = 0; i < 300 && !listed; i++) {
    const { chains } = await sdk.data.evm.chains.list({}, at);
    listed = chains.find((c) => c.chainId === String(CHAIN_ID));
    if (!listed) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(listed, 'the Subnet-EVM chain is listed');
  assert.equal(listed.platformChainId, blockchainId);
  assert.equal(listed.vmId, 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy');
  assert.equal(listed.rpcUrl, rpcUrl);
  assert.equal(listed.wsUrl, rpcUrl.replace(/^http/, 'ws').replace(/\/rpc$/, '/ws'));
  assert.equal(listed.networkToken.decimals, 18);
  // No Multicall3 in this L1's genesis: no utility address, where the C-chain names it.
  assert.equal(listed.utilityAddresses, undefined);
  const { chains } = await sdk.data.evm.chains.list({}, at);
  assert.deepEqual(chains.find((c) => c.platformChainId !== blockchainId)?.utilityAddresses, {
    multicall: '0xcA11bde05977b3631167028862bE2a173976CA11',
  });
  for (const id of [String(CHAIN_ID), blockchainId])
    assert.deepEqual(await sdk.data.evm.chains.get({ chainId: id }, at), listed);

  await stack.indexer.waitFor(CHAIN_ID, Number(receipt.blockNumber));
  for (const id of [String(CHAIN_ID), blockchainId]) {
    const page = await sdk.data.evm.address.transactions.listNative({ chainId: id, address: to }, at);
    assert.deepEqual(
      page.result.transactions.map((t) => [t.txHash, t.value, t.chainId]),
      [[hash, parseEther('2').toString(), String(CHAIN_ID)]],
    );
  }
  const balance = await sdk.data.evm.address.balances.getNative({ chainId: blockchainId, address: to }, at);
  assert.equal(balance.nativeTokenBalance.balance, parseEther('2').toString());
  // The configured prices are AVAX's: the L1's own token is not priced with them.
  assert.equal(balance.nativeTokenBalance.price, undefined);
  assert.equal(balance.nativeTokenBalance.balanceValue, undefined);
  const onC = await sdk.data.evm.address.balances.getNative(
    { chainId: String(stack.devnet.facts.chains.C.evmChainId), address: to, currency: 'eur' },
    at,
  );
  assert.deepEqual(onC.nativeTokenBalance.price, { currencyCode: 'eur', value: 23 });
  // The recipient has activity on the L1 only, so far.
  const active = await sdk.data.evm.address.chains.list({ address: to }, at);
  assert.deepEqual(active.indexedChains, [listed]);
});

test('GET /v1/blocks and GET /v1/transactions merge the C-chain and the L1, newest first, each once', async () => {
  // A C-chain transaction too, so both chains have blocks and transactions.
  const cChainId = stack.devnet.facts.chains.C.evmChainId!;
  const c = evmClients(stack.devnet.facts.urls.cChainRpc, cChainId, privateKeyToAccount(EWOQ_EVM_KEY as Hex));
  const hash = await c.wallet.sendTransaction({
    to: '0x0000000000000000000000000000000000001a1a',
    value: 1n,
  });
  const receipt = await c.client.waitForTransactionReceipt({ hash });
  await stack.indexer.waitFor(String(cChainId), Number(receipt.blockNumber));

  const chains = [String(cChainId), String(CHAIN_ID)];
  const blockKey = (b: any) => `${b.chainId}:${b.blockNumber}`;
  const perChainBlocks = [];
  for (const chainId of chains)
    perChainBlocks.push(
      ...(await walk(
        await sdk.data.evm.blocks.listLatest({ chainId, pageSize: 100 }, at()),
        'blocks',
        blockKey,
      )),
    );
  // Newest first: block time, then chain id, then number, each descending.
  const newer = (a: any, b: any, keys: string[]) => {
    for (const k of keys) if (Number(a[k]) !== Number(b[k])) return Number(b[k]) - Number(a[k]);
    return 0;
  };
  perChainBlocks.sort((a, b) => newer(a, b, ['blockTimestamp', 'chainId', 'blockNumber']));
  const blocks = await walk(
    await sdk.data.evm.blocks.listLatestAllChains({ pageSize: 3 }, at()),
    'blocks',
    blockKey,
  );
  assert.deepEqual(blocks, perChainBlocks);
  assert.deepEqual(new Set(blocks.map((b) => b.chainId)), new Set(chains));

  const perChainTxs = [];
  for (const chainId of chains)
    perChainTxs.push(
      ...(await walk(
        await sdk.data.evm.transactions.listLatest({ chainId, pageSize: 100 }, at()),
        'transactions',
        (t) => t.txHash,
      )),
    );
  perChainTxs.sort((a, b) => newer(a, b, ['blockTimestamp', 'chainId', 'blockNumber', 'blockIndex']));
  const txs = await walk(
    await sdk.data.evm.transactions.listLatestAllChains({ pageSize: 2, network: 'testnet' }, at()),
    'transactions',
    (t) => t.txHash,
  );
  assert.deepEqual(txs, perChainTxs);
  assert.ok(txs.some((t) => t.txHash === hash && t.chainId === String(cChainId)));
  assert.ok(txs.some((t) => t.chainId === String(CHAIN_ID)));

  // The recipient now has activity on both chains, listed in EVM chain id order.
  const { chains: listed } = await sdk.data.evm.chains.list({}, at());
  const active = await sdk.data.evm.address.chains.list(
    { address: '0x0000000000000000000000000000000000001a1a' },
    at(),
  );
  assert.deepEqual(
    active.indexedChains?.map((x) => x.chainId),
    chains,
  );
  assert.deepEqual(active.indexedChains, listed);
});

test("an L1's genesis contracts are known with their standard and metadata, once, also after a restart", async () => {
  const L1_ID = 99_772;
  const multicall = '0xcA11bde05977b3631167028862bE2a173976CA11';
  // A token predeploy whose metadata is in its code, as a genesis allocates it (no constructor).
  const { GenesisToken } = compile(`
    // SPDX-License-Identifier: MIT
    pragma solidity ^0.8.20;
    contract GenesisToken {
      function name() external pure returns (string memory) { return "Genesis Gold"; }
      function symbol() external pure returns (string memory) { return "GGLD"; }
      function decimals() external pure returns (uint8) { return 9; }
      function totalSupply() external pure returns (uint256) { return 1e27; }
      function balanceOf(address) external pure returns (uint256) { return 0; }
    }
  `);
  const token = '0x0000000000000000000000000000000000C0FFEE' as const;
  const empty = '0x00000000000000000000000000000000000e3e3e';
  const cRpc = stack.devnet.facts.urls.cChainRpc;
  const c = evmClients(
    cRpc,
    stack.devnet.facts.chains.C.evmChainId!,
    privateKeyToAccount(EWOQ_EVM_KEY as Hex),
  );
  const multicallCode = await c.client.getCode({ address: multicall });
  assert.ok(multicallCode && multicallCode.length > 2);
  const genesis = {
    config: { chainId: L1_ID, feeConfig: { gasLimit: 15_000_000, targetBlockRate: 2, minBaseFee: 1 } },
    alloc: {
      [EWOQ_EVM.slice(2)]: { balance: '0x' + (10n ** 24n).toString(16) },
      // Keys as genesis files write them: bare lowercase, 0x-prefixed, any case.
      [multicall.slice(2).toLowerCase()]: { balance: '0x0', code: multicallCode },
      [token]: { balance: '0x0', code: GenesisToken.runtime },
      [empty]: { balance: '0x1', code: '0x' },
    },
    nonce: '0x0',
    timestamp: '0x0',
    gasLimit: '0xe4e1c0',
    difficulty: '0x0',
  };
  const { chainId: blockchainId } = await createSubnetEvmChain(stack.devnet.url, genesis, 'genesis l1');
  for (let i = 0; ; i++) {
    const ready = await stack.indexer.waitFor(L1_ID, 0).then(
      () => true,
      () => false,
    );
    if (ready) break;
    assert.ok(i < 300, 'the L1 is indexed');
    await new Promise((r) => setTimeout(r, 100));
  }

  const expected = {
    token: {
      address: token,
      ercType: 'ERC-20',
      name: 'Genesis Gold',
      symbol: 'GGLD',
      decimals: 9,
    },
    multicall: { address: multicall, ercType: 'UNKNOWN' },
  };
  const check = async () => {
    for (const id of [String(L1_ID), blockchainId]) {
      assert.deepEqual(
        await sdk.data.evm.contracts.getMetadata({ chainId: id, address: token.toLowerCase() }, at()),
        expected.token,
      );
      assert.deepEqual(
        await sdk.data.evm.contracts.getMetadata({ chainId: id, address: multicall }, at()),
        expected.multicall,
      );
      // An account, and an allocation with empty code, are no contracts.
      for (const who of [EWOQ_EVM, empty]) {
        const res = await fetch(`${stack.api.url}/v1/chains/${id}/addresses/${who}`);
        assert.equal(res.status, 404, who);
      }
    }
    // No deployment, so no deployer lists them.
    const deployed = await sdk.data.evm.address.contracts.listDeployments(
      { chainId: String(L1_ID), address: EWOQ_EVM },
      at(),
    );
    assert.deepEqual(deployed.result.contracts, []);
    const rows = await stack.database.db
      .selectFrom('evm_contracts')
      .select(['address'])
      .where('chain', '=', L1_ID)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.address).sort(),
      [multicall.toLowerCase(), token.toLowerCase()].sort(),
    );
  };
  await check();
  const { chains } = await sdk.data.evm.chains.list({}, at());
  assert.deepEqual(chains.find((x) => x.chainId === String(L1_ID))?.utilityAddresses, { multicall });

  // A second indexer over the same store, as after a restart: discovery runs again and reads the
  // same genesis; nothing is written twice and what is stored stays.
  const network = NETWORKS[stack.devnet.facts.network as NetworkName];
  const again = await startEvmIndexer({ db: stack.database.db, nodeUrl: stack.devnet.url, network });
  try {
    await again.waitFor(L1_ID, 0);
    await check();
  } finally {
    await again.stop();
  }
});
