/**
 * Issue 5, contracts on the C-chain through viem and ethers: Solidity compiled in the test with
 * solc, deploys, calls, events, logs and filters, reverts with reasons, eth_getProof checked
 * against the state root, WebSocket subscriptions, batches, traces and the txpool's nonce gaps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { ethers } from 'ethers';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  getContract,
  hexToBytes,
  http,
  keccak256,
  parseEventLogs,
  toHex,
  webSocket,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';
import { openWsRpc } from '../helpers/ws-rpc.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Token {
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor() { balanceOf[msg.sender] = 1e24; emit Transfer(address(0), msg.sender, 1e24); }
  function transfer(address to, uint256 value) external returns (bool) {
    require(balanceOf[msg.sender] >= value, "insufficient balance");
    balanceOf[msg.sender] -= value;
    balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }
}
contract Probe {
  event Seen(address indexed who, uint256 balance);
  function look(Token t, address who) external returns (uint256 b) {
    b = t.balanceOf(who);
    emit Seen(who, b);
  }
}`;

describe('C-chain contracts through viem and ethers', () => {
  let net: Devnet;
  let url: string;
  let client: any;
  let wallet: ReturnType<typeof createWalletClient>;
  let chain: ReturnType<typeof defineChain>;
  const artifacts = compileSolidity('Token.sol', SOURCE, 'cancun');
  let token: Hex;
  let probe: Hex;
  const account = privateKeyToAccount(EWOQ_KEY);

  before(async () => {
    net = await startDevnet();
    url = net.facts.urls.cChainRpc;
    chain = defineChain({
      id: 43112,
      name: 'Flurry C',
      nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    client = createPublicClient({ chain, transport: http(url), cacheTime: 0, pollingInterval: 50 });
    wallet = createWalletClient({ account, chain, transport: http(url) });
  });
  after(async () => {
    await net?.stop();
  });
  const transferToEwoq = () =>
    wallet.writeContract({
      address: token,
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [EWOQ, 1n],
      account,
      chain,
    });

  it('deploys contracts compiled with solc and calls them', async () => {
    const hash = await wallet.deployContract({
      abi: artifacts.Token.abi,
      bytecode: artifacts.Token.bytecode,
      account,
      chain,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    token = receipt.contractAddress!;
    assert.ok((await client.getCode({ address: token }))!.length > 2);
    const deployLogs = parseEventLogs({ abi: artifacts.Token.abi, logs: receipt.logs });
    assert.equal(deployLogs[0].eventName, 'Transfer');

    const probeHash = await wallet.deployContract({
      abi: artifacts.Probe.abi,
      bytecode: artifacts.Probe.bytecode,
      account,
      chain,
    });
    probe = (await client.waitForTransactionReceipt({ hash: probeHash })).contractAddress!;

    const t: any = getContract({
      address: token,
      abi: artifacts.Token.abi,
      client: { public: client, wallet },
    });
    assert.equal(await t.read.balanceOf([EWOQ]), 10n ** 24n);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const gas = await client.estimateContractGas({
      address: token,
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [to, 5n],
      account,
    });
    assert.ok(gas > 21000n && gas < 100000n, `estimate ${gas}`);
    const tx = await t.write.transfer([to, 5n], { account, chain });
    const r = await client.waitForTransactionReceipt({ hash: tx });
    assert.equal(r.status, 'success');
    assert.equal(await t.read.balanceOf([to]), 5n);
    const [log] = parseEventLogs({ abi: artifacts.Token.abi, logs: r.logs, eventName: 'Transfer' });
    assert.equal((log.args as any).to, to);
    assert.equal((log.args as any).value, 5n);
  });

  it('finds logs by address, topics and block range, and through filters', async () => {
    const filter = await client.createContractEventFilter({
      address: token,
      abi: artifacts.Token.abi,
      eventName: 'Transfer',
    });
    const blockFilter = await client.createBlockFilter();
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.writeContract({
      address: token,
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [to, 7n],
      account,
      chain,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const changes = await client.getFilterChanges({ filter });
    assert.equal(changes.length, 1);
    assert.equal((changes[0] as any).args.to, to);
    const blocks = await client.getFilterChanges({ filter: blockFilter });
    assert.ok(blocks.includes(receipt.blockHash));

    const byTopic = await client.getLogs({
      address: token,
      event: (artifacts.Token.abi as any[]).find((x) => x.name === 'Transfer'),
      args: { to },
      fromBlock: 0n,
      toBlock: 'latest',
    });
    assert.equal(byTopic.length, 1);
    assert.equal(byTopic[0].transactionHash, hash);
    const all = await client.getLogs({ address: token, fromBlock: 0n });
    assert.equal(all.length, 3);
    // eth_getLogs (read packed as hex) and the receipt (read as rows) describe a log identically.
    const receiptLogs = (await rpc(url, 'eth_getTransactionReceipt', [hash])).body.result.logs;
    const range = { fromBlock: toHex(receipt.blockNumber), toBlock: toHex(receipt.blockNumber) };
    const fromGetLogs = (await rpc(url, 'eth_getLogs', [{ address: token, ...range }])).body.result;
    assert.ok(receiptLogs.length > 0);
    assert.deepEqual(
      fromGetLogs.filter((l: any) => l.transactionHash === hash),
      receiptLogs,
    );
    // A range past the last accepted block is refused, as coreth refuses it.
    const past = receipt.blockNumber + 1n;
    const beyond = await rpc(url, 'eth_getLogs', [
      { address: token, fromBlock: toHex(past), toBlock: toHex(past) },
    ]);
    assert.deepEqual(beyond.body.error, {
      code: -32000,
      message: `requested from block ${past} after last accepted block ${receipt.blockNumber}`,
    });
    const byBlock = await rpc(url, 'eth_getBlockReceipts', [toHex(receipt.blockNumber)]);
    assert.equal(byBlock.body.result[0].transactionHash, hash);
    const single = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    assert.deepEqual(byBlock.body.result[0], single.body.result);
    // The header's bloom is the union of its receipts' blooms.
    const header = await client.getBlock({ blockNumber: receipt.blockNumber });
    const union = byBlock.body.result.reduce((acc: bigint, r: any) => acc | BigInt(r.logsBloom), 0n);
    assert.ok(union > 0n);
    assert.equal(union, BigInt(header.logsBloom));
    assert.equal(await client.uninstallFilter({ filter }), true);
    const gone = await rpc(url, 'eth_getFilterChanges', [filter.id]);
    assert.equal(gone.body.error.message, 'filter not found');
  });

  it('reads log filters as coreth does: topic wildcards, topic counts, ranges and tags', async () => {
    const T = keccak256(toHex('Transfer(address,address,uint256)'));
    const logsOf = async (filter: object) => (await rpc(url, 'eth_getLogs', [filter])).body;
    const all = (await logsOf({ address: token, fromBlock: '0x0', topics: [T] })).result;
    assert.ok(all.length >= 3);
    // A null among a position's alternatives makes it a wildcard.
    assert.equal(
      (await logsOf({ address: token, fromBlock: '0x0', topics: [[T, null]] })).result.length,
      all.length,
    );
    assert.equal(
      (await logsOf({ address: token, fromBlock: '0x0', topics: [[null, T]] })).result.length,
      all.length,
    );
    // Transfer logs carry three topics: a fourth position, even a wildcard, matches none of them.
    assert.equal(
      (await logsOf({ address: token, fromBlock: '0x0', topics: [T, null, null] })).result.length,
      all.length,
    );
    assert.deepEqual(
      (await logsOf({ address: token, fromBlock: '0x0', topics: [T, null, null, null] })).result,
      [],
    );
    const head = await client.getBlockNumber();
    const refused = async (filter: object, code: number, message: string) =>
      assert.deepEqual((await logsOf(filter)).error, { code, message }, JSON.stringify(filter));
    await refused({ fromBlock: '0x2', toBlock: '0x1' }, -32000, 'invalid block range params');
    await refused(
      { fromBlock: 'latest', toBlock: '0x1' },
      -32000,
      `begin block ${head} is greater than end block 1`,
    );
    await refused(
      { toBlock: toHex(head + 3n) },
      -32000,
      `requested to block ${head + 3n} after last accepted block ${head}`,
    );
    await refused({ fromBlock: 'pending' }, -32000, 'invalid block range params');
    await refused({ topics: [null, null, null, null, null] }, -32000, 'exceed max topics');
    await refused(
      { blockHash: all[0].blockHash, fromBlock: '0x1' },
      -32602,
      'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
    );
    await refused(
      { address: ['0x1234'] },
      -32602,
      'invalid argument 0: invalid address at index 0: hex has invalid length 2 after decoding; expected 20 for address',
    );
    assert.deepEqual((await logsOf({ fromBlock: 'pending', toBlock: 'pending' })).result, []);
    const badRange = await rpc(url, 'eth_newFilter', [{ fromBlock: '0x5', toBlock: '0x1' }]);
    assert.deepEqual(badRange.body.error, {
      code: -32000,
      message: 'invalid from and to block combination: from > to',
    });

    // A filter's `latest` is the head when its logs are read, not when it was installed.
    const latest = (await rpc(url, 'eth_newFilter', [{ address: token }])).body.result;
    const pendingFull = (await rpc(url, 'eth_newPendingTransactionFilter', [true])).body.result;
    const hash = await transferToEwoq();
    const receipt = await client.waitForTransactionReceipt({ hash });
    await client.waitForTransactionReceipt({
      hash: await transferToEwoq(),
    });
    const filterLogs = (await rpc(url, 'eth_getFilterLogs', [latest])).body.result;
    assert.equal(filterLogs.length, 1);
    assert.ok(BigInt(filterLogs[0].blockNumber) > receipt.blockNumber);
    // fullTx: the pool's transactions in full, without a block, as coreth writes them.
    const pooled = (await rpc(url, 'eth_getFilterChanges', [pendingFull])).body.result;
    assert.equal(pooled[0].hash, hash);
    assert.equal(pooled[0].blockHash, null);
    assert.equal(pooled[0].from.toLowerCase(), EWOQ.toLowerCase());
    const changes = (await rpc(url, 'eth_getFilterChanges', [latest])).body.result;
    assert.deepEqual(changes.map((l: any) => l.transactionHash).slice(0, 1), [hash]);
  });

  it("keeps each call's changes to itself, however many calls share a block", async () => {
    const { encodeFunctionData, decodeFunctionResult } = await import('viem');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const abi = artifacts.Token.abi;
    const transfer = encodeFunctionData({ abi, functionName: 'transfer', args: [to, 7n] });
    const balance = encodeFunctionData({ abi, functionName: 'balanceOf', args: [to] });
    for (let i = 0; i < 3; i++) {
      const r = await rpc(url, 'eth_call', [
        { from: EWOQ, to: token, data: transfer, value: '0x0' },
        'latest',
      ]);
      assert.equal(BigInt(r.body.result), 1n);
      await rpc(url, 'eth_estimateGas', [{ from: EWOQ, to: token, data: transfer }]);
      const b = await rpc(url, 'eth_call', [{ to: token, data: balance }, 'latest']);
      assert.equal(decodeFunctionResult({ abi, functionName: 'balanceOf', data: b.body.result }), 0n);
    }
  });

  it('reports reverts with the reason and the revert data', async () => {
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    await assert.rejects(
      client.simulateContract({
        address: token,
        abi: artifacts.Token.abi,
        functionName: 'transfer',
        args: [EWOQ, 1n],
        account: poor,
      }),
      /insufficient balance/,
    );
    const data = (await import('viem')).encodeFunctionData({
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [EWOQ, 1n],
    });
    const r = await rpc(url, 'eth_call', [{ from: poor, to: token, data }, 'latest']);
    assert.equal(r.body.error.code, 3);
    assert.equal(r.body.error.message, 'execution reverted: insufficient balance');
    assert.match(r.body.error.data, /^0x08c379a0/);
    const e = await rpc(url, 'eth_estimateGas', [{ from: poor, to: token, data }]);
    assert.equal(e.body.error.code, 3);
    // A reverted transaction is mined with status 0 and costs its gas.
    const hash = await wallet.writeContract({
      address: token,
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [EWOQ, 10n ** 30n],
      account,
      chain,
      gas: 100000n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'reverted');
    // State overrides: the same call succeeds when the override gives the caller a balance.
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [poor, 0n]));
    const ok = await rpc(url, 'eth_call', [
      { from: poor, to: token, data },
      'latest',
      { [token]: { stateDiff: { [slot]: toHex(100n, { size: 32 }) } } },
    ]);
    assert.equal(BigInt(ok.body.result), 1n);
  });

  it('answers eth_getProof with proofs that verify against the block state root', async () => {
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [EWOQ, 0n]));
    const block = await client.getBlock();
    const proof = await client.getProof({ address: token, storageKeys: [slot], blockNumber: block.number });
    const accountRlp = await verifyMerkleProof(
      hexToBytes(keccak256(token)),
      proof.accountProof.map((p: Hex) => hexToBytes(p)),
      {
        root: hexToBytes(block.stateRoot),
      } as any,
    );
    assert.ok(accountRlp);
    const [nonce, balance, storageRoot, codeHash] = RLP.decode(accountRlp!) as Uint8Array[];
    assert.equal(toHex(storageRoot), proof.storageHash);
    assert.equal(toHex(codeHash), proof.codeHash);
    assert.equal(BigInt(toHex(nonce)), BigInt(proof.nonce));
    assert.equal(balance.length === 0 ? 0n : BigInt(toHex(balance)), proof.balance);
    const valueRlp = await verifyMerkleProof(
      hexToBytes(keccak256(slot)),
      proof.storageProof[0].proof.map((p: Hex) => hexToBytes(p)),
      {
        root: storageRoot,
      } as any,
    );
    const value = BigInt(toHex(RLP.decode(valueRlp!) as Uint8Array));
    assert.equal(value, proof.storageProof[0].value);
    assert.equal(
      value,
      await client.readContract({
        address: token,
        abi: artifacts.Token.abi,
        functionName: 'balanceOf',
        args: [EWOQ],
      }),
    );
    // coreth decodes the keys inside the method: their errors are -32000.
    const bad = await rpc(url, 'eth_getProof', [token, ['0xzz'], 'latest']);
    assert.deepEqual(bad.body.error, { code: -32000, message: 'hex string invalid' });
  });

  it('answers eth_getProof and state reads at past blocks, by number or EIP-1898 hash, as coreth does', async () => {
    // The token's deployment block: EWOQ held the whole supply then, before later transfers.
    const deployed = (await client.getLogs({ address: token, fromBlock: 0n }))[0];
    const at = { blockHash: deployed.blockHash, requireCanonical: true };
    const past = await client.getBlock({ blockHash: deployed.blockHash });
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [EWOQ, 0n]));
    const proof = (await rpc(url, 'eth_getProof', [token, [slot, '0x1'], at])).body.result;
    // geth's field order; a 32-byte key is echoed, a shorter one written as a quantity.
    assert.deepEqual(Object.keys(proof), [
      'address',
      'accountProof',
      'balance',
      'codeHash',
      'nonce',
      'storageHash',
      'storageProof',
    ]);
    assert.deepEqual(
      proof.storageProof.map((p: any) => p.key),
      [slot, '0x1'],
    );
    const accountRlp = await verifyMerkleProof(
      hexToBytes(keccak256(token)),
      proof.accountProof.map((p: Hex) => hexToBytes(p)),
      { root: hexToBytes(past.stateRoot) } as any,
    );
    const storageRoot = (RLP.decode(accountRlp!) as Uint8Array[])[2];
    assert.equal(toHex(storageRoot), proof.storageHash);
    const valueRlp = await verifyMerkleProof(
      hexToBytes(keccak256(slot)),
      proof.storageProof[0].proof.map((p: Hex) => hexToBytes(p)),
      { root: storageRoot } as any,
    );
    assert.equal(BigInt(toHex(RLP.decode(valueRlp!) as Uint8Array)), 10n ** 24n);
    assert.equal(BigInt(proof.storageProof[0].value), 10n ** 24n);
    const stored = (await rpc(url, 'eth_getStorageAt', [token, slot, at])).body.result;
    assert.equal(BigInt(stored), 10n ** 24n);
    // coreth's decodeHash: no 0x and odd lengths are fine.
    assert.equal((await rpc(url, 'eth_getStorageAt', [token, slot.slice(2), at])).body.result, stored);

    // An account without storage answers each key 0 with an empty proof; one that does not
    // exist has zero code and storage hashes (geth's StateDB), and its exclusion proof verifies.
    const eoa = (await rpc(url, 'eth_getProof', [EWOQ, ['0x0'], at])).body.result;
    assert.deepEqual(eoa.storageProof, [{ key: '0x0', value: '0x0', proof: [] }]);
    const nobody = '0x00000000000000000000000000000000000000aa';
    const none = (await rpc(url, 'eth_getProof', [nobody, ['0x5'], 'latest'])).body.result;
    const zero = toHex(new Uint8Array(32));
    assert.equal(none.codeHash, zero);
    assert.equal(none.storageHash, zero);
    assert.deepEqual(none.storageProof, [{ key: '0x5', value: '0x0', proof: [] }]);
    const head = await client.getBlock();
    assert.equal(
      await verifyMerkleProof(
        hexToBytes(keccak256(nobody)),
        none.accountProof.map((p: Hex) => hexToBytes(p)),
        { root: hexToBytes(head.stateRoot) } as any,
      ),
      null,
    );

    const error = async (method: string, params: unknown[]) => (await rpc(url, method, params)).body.error;
    const unknown = toHex(new Uint8Array(32).fill(0x12));
    const future = toHex(head.number + 5n);
    assert.deepEqual(await error('eth_getBalance', [EWOQ, future]), {
      code: -32000,
      message: 'cannot query unfinalized data',
    });
    assert.deepEqual(await error('eth_getBlockByNumber', [future, false]), {
      code: -32000,
      message: 'cannot query unfinalized data',
    });
    assert.deepEqual(await error('eth_getCode', [token, { blockHash: unknown }]), {
      code: -32000,
      message: 'header for hash not found',
    });
    assert.deepEqual(
      await error('eth_getBalance', [EWOQ, { blockHash: deployed.blockHash, blockNumber: '0x1' }]),
      {
        code: -32602,
        message: 'invalid argument 1: cannot specify both BlockHash and BlockNumber, choose one or the other',
      },
    );
    assert.deepEqual(await error('eth_getBalance', [EWOQ, {}]), {
      code: -32000,
      message: 'invalid arguments; neither block nor hash specified',
    });
    assert.deepEqual(await error('eth_getBalance', [EWOQ]), {
      code: -32602,
      message: 'missing value for required argument 1',
    });
    assert.deepEqual(await error('eth_getStorageAt', [token, '0x' + '00'.repeat(33), 'latest']), {
      code: -32000,
      message: 'unable to decode storage key: hex string too long, want at most 32 bytes',
    });
    assert.deepEqual(await error('eth_getProof', [token, [], { blockHash: unknown }]), {
      code: -32000,
      message: `historical proof query not allowed: block from hash ${unknown} doesn't exist`,
    });
    // coreth's header methods: the block's fields without size, uncles and transactions.
    const header = (await rpc(url, 'eth_getHeaderByHash', [deployed.blockHash])).body.result;
    assert.equal(header.stateRoot, past.stateRoot);
    assert.equal(header.size, undefined);
    assert.deepEqual((await rpc(url, 'eth_getHeaderByNumber', [toHex(past.number)])).body.result, header);
    assert.equal((await rpc(url, 'eth_getHeaderByHash', [unknown])).body.result, null);
  });

  it('pushes newHeads and logs over the WebSocket endpoint', async () => {
    // No reconnects: once the devnet stops, a reconnecting socket would keep this process alive.
    const ws = createPublicClient({
      chain,
      transport: webSocket(net.facts.urls.cChainWs, { reconnect: false, keepAlive: false }),
    });
    const heads: bigint[] = [];
    const logs: unknown[] = [];
    const stopHeads = ws.watchBlocks({ onBlock: (b) => heads.push(b.number!), emitOnBegin: false });
    const stopLogs = ws.watchContractEvent({
      address: token,
      abi: artifacts.Token.abi,
      eventName: 'Transfer',
      onLogs: (l) => logs.push(...l),
    });
    // The subscriptions are live once they have seen a block: until then a transfer may be missed
    // (a loaded machine can take longer to subscribe than to build a block), so transfer again.
    let hash: Hex | undefined;
    let receipt: any;
    for (let attempt = 0; attempt < 20; attempt++) {
      hash = await transferToEwoq();
      receipt = await client.waitForTransactionReceipt({ hash });
      for (
        let i = 0;
        i < 20 && !(heads.includes(receipt.blockNumber) && logs.some((l: any) => l.transactionHash === hash));
        i++
      )
        await new Promise((r) => setTimeout(r, 50));
      if (heads.includes(receipt.blockNumber) && logs.some((l: any) => l.transactionHash === hash)) break;
    }
    stopHeads();
    stopLogs();
    // Close the socket, or viem keeps reconnecting after the devnet stops.
    (await (ws.transport as any).getRpcClient()).close();
    (await (ws.transport as any).getRpcClient()).close();
    assert.ok(heads.includes(receipt.blockNumber));
    assert.ok(logs.some((l: any) => l.transactionHash === hash));
    const raw = await rpc(url, 'eth_subscribe', ['newHeads']);
    assert.equal(raw.body.error.code, -32601);
  });

  it('answers eth_subscribe and eth_unsubscribe as geth does, each connection its own', async () => {
    const open = () => openWsRpc(net.facts.urls.cChainWs);
    const a = await open();
    const b = await open();
    try {
      const err = async (params: unknown[]) => (await a.call('eth_subscribe', params)).error;
      assert.deepEqual(await err(['foo']), {
        code: -32601,
        message: 'no "foo" subscription in eth namespace',
      });
      assert.deepEqual(await err([]), {
        code: -32602,
        message: 'expected subscription name as first argument',
      });
      assert.deepEqual(await err(['newHeads', {}]), {
        code: -32602,
        message: 'too many arguments, want at most 1',
      });
      assert.deepEqual(await err(['logs']), {
        code: -32602,
        message: 'missing value for required argument 1',
      });
      const T = keccak256(toHex('Transfer(address,address,uint256)'));
      // Registered before newHeads, so their notifications for a block come before its head's.
      const four = (
        await a.call('eth_subscribe', ['logs', { address: token, topics: [T, null, null, null] }])
      ).result;
      const three = (
        await a.call('eth_subscribe', ['logs', { address: token, topics: [[null, T], null, null] }])
      ).result;
      const accepted = (await a.call('eth_subscribe', ['newAcceptedTransactions'])).result;
      const pendingFull = (await a.call('eth_subscribe', ['newPendingTransactions', true])).result;
      const heads = (await a.call('eth_subscribe', ['newHeads'])).result;
      // Another connection can neither see nor end them.
      assert.deepEqual((await b.call('eth_unsubscribe', [heads])).error, {
        code: -32000,
        message: 'subscription not found',
      });
      const hash = await transferToEwoq();
      const receipt = await client.waitForTransactionReceipt({ hash });
      const of = (id: string) => a.notes.filter((n) => n.subscription === id).map((n) => n.result);
      for (let i = 0; i < 100 && !of(heads).some((h: any) => BigInt(h.number) >= receipt.blockNumber); i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(of(four), []);
      assert.ok(of(three).some((l: any) => l.transactionHash === hash));
      assert.ok(of(accepted).includes(hash));
      const full = of(pendingFull).find((t: any) => t.hash === hash);
      assert.equal(full.blockHash, null);
      assert.equal(full.from.toLowerCase(), EWOQ.toLowerCase());
      assert.equal(b.notes.length, 0);
      assert.equal((await a.call('eth_unsubscribe', [heads])).result, true);
      assert.deepEqual((await a.call('eth_unsubscribe', [heads])).error, {
        code: -32000,
        message: 'subscription not found',
      });
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });

  it('answers batches in order and refuses oversized ones whole', async () => {
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    const answers = await post([
      { jsonrpc: '2.0', id: 0, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [EWOQ, 'latest'] },
      { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
    ]);
    assert.equal(answers.length, 3);
    assert.equal(answers[0].result, '0xa868');
    assert.ok(BigInt(answers[1].result) > 0n);
    assert.equal(answers[2].error.code, -32601);
    const big = await post(
      Array.from({ length: 41 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber' })),
    );
    assert.equal(big.length, 1);
    assert.equal(big[0].error.message, 'batch too large');
  });

  it('traces transactions with callTracer and the struct logger', async () => {
    const hash = await wallet.writeContract({
      address: probe,
      abi: artifacts.Probe.abi,
      functionName: 'look',
      args: [token, EWOQ],
      account,
      chain,
    });
    await client.waitForTransactionReceipt({ hash });
    const calls = await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    const top = calls.body.result;
    assert.equal(top.type, 'CALL');
    assert.equal(top.to.toLowerCase(), probe.toLowerCase());
    assert.equal(top.calls[0].type, 'STATICCALL');
    assert.equal(top.calls[0].to.toLowerCase(), token.toLowerCase());
    const structs = await rpc(url, 'debug_traceTransaction', [hash, {}]);
    assert.equal(structs.body.result.failed, false);
    assert.ok(structs.body.result.structLogs.some((l: any) => l.op === 'STATICCALL'));
    const block = await rpc(url, 'debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }]);
    assert.equal(block.body.result[0].txHash, hash);
    const data = (await import('viem')).encodeFunctionData({
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [EWOQ, 10n ** 30n],
    });
    const call = await rpc(url, 'debug_traceCall', [
      { from: EWOQ, to: token, data },
      'latest',
      { tracer: 'callTracer' },
    ]);
    assert.equal(call.body.result.error, 'execution reverted');
    assert.equal(call.body.result.revertReason, 'insufficient balance');
  });

  it('traces what a transaction read and changed with the prestateTracer, in both modes', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.writeContract({
      address: token,
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [to, 99n],
      account,
      chain,
    });
    const { blockNumber } = await client.waitForTransactionReceipt({ hash });
    const before = blockNumber - 1n;
    const slotOf = (who: Hex) =>
      keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who, 0n]));
    const word = (v: bigint) => toHex(v, { size: 32 });
    const mine = await client.readContract({
      address: token,
      abi: artifacts.Token.abi,
      functionName: 'balanceOf',
      args: [EWOQ],
      blockNumber: before,
    });
    const pre = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer' }])).body.result;
    const sender = pre[EWOQ.toLowerCase()];
    assert.equal(BigInt(sender.balance), await client.getBalance({ address: EWOQ, blockNumber: before }));
    assert.equal(sender.nonce, await client.getTransactionCount({ address: EWOQ, blockNumber: before }));
    const contract = pre[token.toLowerCase()];
    assert.equal(contract.code, await client.getCode({ address: token, blockNumber: before }));
    assert.deepEqual(contract.storage, { [slotOf(EWOQ)]: word(mine as bigint), [slotOf(to)]: word(0n) });
    assert.ok(pre['0x0100000000000000000000000000000000000000'], 'the coinbase');

    const { post, pre: changed } = (
      await rpc(url, 'debug_traceTransaction', [
        hash,
        { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
      ])
    ).body.result;
    assert.deepEqual(post[token.toLowerCase()], {
      storage: { [slotOf(EWOQ)]: word((mine as bigint) - 99n), [slotOf(to)]: word(99n) },
    });
    // Slots that were empty before are not part of `pre`; unchanged code is left out of `post`.
    assert.deepEqual(changed[token.toLowerCase()].storage, { [slotOf(EWOQ)]: word(mine as bigint) });
    assert.equal(post[EWOQ.toLowerCase()].nonce, sender.nonce + 1);
    assert.ok(BigInt(post[EWOQ.toLowerCase()].balance) < BigInt(sender.balance));
  });

  it('builds access lists as geth does, and a transaction carrying one pays exactly the gas it states', async () => {
    const data = encodeFunctionData({ abi: artifacts.Probe.abi, functionName: 'look', args: [token, EWOQ] });
    // Probe reads Token's balanceOf[EWOQ]: Token and that slot; Probe and the sender are warm anyway.
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [EWOQ, 0n]));
    const { accessList, gasUsed } = await client.createAccessList({ account, to: probe, data });
    assert.deepEqual(accessList, [{ address: token, storageKeys: [slot] }]);
    const plain = await client.estimateGas({ account, to: probe, data });
    assert.ok(gasUsed < plain + 2_400n, `${gasUsed} with the list against ${plain} without`);
    const hash = await wallet.sendTransaction({ account, chain, to: probe, data, accessList, gas: gasUsed });
    const receipt = await client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    assert.equal(receipt.gasUsed, gasUsed);

    // Entries the caller gives are kept; a failing call still answers, with its error.
    const extra = { address: EWOQ, storageKeys: [toHex(7, { size: 32 })] };
    // (viem's createAccessList does not pass an access list on, so this one goes raw.)
    const kept = await rpc(url, 'eth_createAccessList', [
      { from: EWOQ, to: probe, data, accessList: [extra] },
    ]);
    assert.deepEqual(
      kept.body.result.accessList,
      [
        { address: token, storageKeys: [slot] },
        { address: EWOQ.toLowerCase(), storageKeys: extra.storageKeys },
      ].sort((a, b) => (a.address < b.address ? -1 : 1)),
    );
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    const transfer = encodeFunctionData({
      abi: artifacts.Token.abi,
      functionName: 'transfer',
      args: [EWOQ, 1n],
    });
    const failed = await rpc(url, 'eth_createAccessList', [{ from: poor, to: token, data: transfer }]);
    assert.equal(failed.body.result.error, 'execution reverted');
    // The recipient's own slots are listed under it, as geth lists them.
    const poorSlot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [poor, 0n]));
    assert.deepEqual(failed.body.result.accessList, [
      { address: token.toLowerCase(), storageKeys: [poorSlot] },
    ]);
    assert.ok(BigInt(failed.body.result.gasUsed) > 21_000n);
  });

  it('queues a transaction after a nonce gap and runs it once the gap fills', async () => {
    const nonce = await client.getTransactionCount({ address: EWOQ });
    const fees = await client.estimateFeesPerGas();
    const sign = (n: number) =>
      account.signTransaction({
        to: EWOQ,
        value: 1n,
        gas: 21000n,
        nonce: n,
        chainId: 43112,
        type: 'eip1559',
        ...fees,
      });
    const later = await rpc(url, 'eth_sendRawTransaction', [await sign(nonce + 1)]);
    assert.match(later.body.result, /^0x[0-9a-f]{64}$/);
    const pool = await rpc(url, 'txpool_content', []);
    assert.ok(pool.body.result.queued[EWOQ][String(nonce + 1)]);
    const status = await rpc(url, 'txpool_status', []);
    assert.equal(status.body.result.queued, '0x1');
    assert.equal(await client.getTransactionCount({ address: EWOQ }), nonce);
    const first = await rpc(url, 'eth_sendRawTransaction', [await sign(nonce)]);
    await client.waitForTransactionReceipt({ hash: first.body.result });
    const second = await client.waitForTransactionReceipt({ hash: later.body.result });
    assert.equal(second.status, 'success');
    assert.equal(await client.getTransactionCount({ address: EWOQ }), nonce + 2);
  });

  it('works with ethers unchanged', async () => {
    // ethers caches identical requests for 250 ms by default; blocks here come faster than that.
    const provider = new ethers.JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 50;
    const signer = new ethers.Wallet(EWOQ_KEY, provider);
    assert.equal((await provider.getNetwork()).chainId, 43112n);
    const to = ethers.Wallet.createRandom().address;
    const tx = await signer.sendTransaction({ to, value: ethers.parseEther('0.25') });
    const receipt = await tx.wait();
    assert.equal(receipt!.status, 1);
    assert.equal(await provider.getBalance(to), ethers.parseEther('0.25'));
    const factory = new ethers.ContractFactory(artifacts.Token.abi as any, artifacts.Token.bytecode, signer);
    const c: any = await factory.deploy();
    await c.waitForDeployment();
    assert.equal(await c.balanceOf(EWOQ), 10n ** 24n);
    await assert.rejects(
      c
        .connect(new ethers.Wallet(ethers.Wallet.createRandom().privateKey, provider))
        .transfer.staticCall(EWOQ, 1n),
      /insufficient balance/,
    );
    const t = await c.transfer(to, 3n);
    const r = await t.wait();
    assert.equal(r.logs.length, 1);
    const parsed = c.interface.parseLog(r.logs[0]);
    assert.equal(parsed.args.value, 3n);
    const block = await provider.getBlock(r.blockNumber, true);
    assert.equal(block!.prefetchedTransactions[0].hash, t.hash);
    provider.destroy();
  });
});
