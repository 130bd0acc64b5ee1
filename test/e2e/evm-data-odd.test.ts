/**
 * Odd but real EVM activity through the chain-data service: tokens whose metadata methods return
 * NUL-padded strings, bytes32 (MKR) or revert, 0 and 24 decimals, a proxy token initialised after
 * its deployment, a contract that self-destructs, a reverted transaction, one transaction moving
 * three tokens, and transactions of type 0, 1 and 2 with access lists. Each is read through
 * @avalanche-sdk/chainkit (zod-validated) and checked against what the chain itself answers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Avalanche } from '@avalanche-sdk/chainkit';
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  parseEther,
  type Hex,
} from 'viem';
import { cChainClients } from '../helpers/cchain-clients.js';
import { compileSolidity } from '../helpers/evm-contracts.js';
import { startEvmDataStack, type EvmDataStack } from '../helpers/evm-data.js';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/** An ERC-20 whose metadata is set by init(): by its constructor, or later through a proxy. */
contract Tok {
  string public name; string public symbol; uint8 public decimals; uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  bool inited;
  constructor(string memory n, string memory s, uint8 d, uint256 supply) { if (bytes(n).length > 0) init(n, s, d, supply, msg.sender); }
  function init(string memory n, string memory s, uint8 d, uint256 supply, address to) public {
    require(!inited); inited = true;
    name = n; symbol = s; decimals = d; totalSupply = supply; balanceOf[to] = supply;
    emit Transfer(address(0), to, supply);
  }
  function transfer(address to, uint256 v) external returns (bool) {
    require(balanceOf[msg.sender] >= v); balanceOf[msg.sender] -= v; balanceOf[to] += v; emit Transfer(msg.sender, to, v); return true;
  }
}

/** Like MKR: name and symbol are bytes32. */
contract Maker {
  bytes32 public name = "Maker"; bytes32 public symbol = "MKR"; uint256 public decimals = 18; uint256 public totalSupply = 1000;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor() { emit Transfer(address(0), msg.sender, 1000); }
}

/** name() and symbol() revert. */
contract Rude {
  uint8 public decimals = 18; uint256 public totalSupply = 1000;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor() { emit Transfer(address(0), msg.sender, 1000); }
  function name() external pure returns (string memory) { revert("no name"); }
  function symbol() external pure returns (string memory) { revert(); }
}

/** name() is a string with NUL characters inside and after it (a bytes32 turned string). */
contract Padded {
  uint8 public decimals = 18; uint256 public totalSupply = 1000;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor() { emit Transfer(address(0), msg.sender, 1000); }
  function name() external pure returns (string memory) { return string(abi.encodePacked(bytes32(hex"5061640064656420e282ac"))); }
  function symbol() external pure returns (string memory) { return string(abi.encodePacked(bytes8("PAD"))); }
}

/** An EIP-1967 proxy: the implementation in its slot, every call delegated. */
contract Proxy {
  bytes32 constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
  constructor(address impl, bytes memory data) { assembly { sstore(SLOT, impl) } (bool ok,) = impl.delegatecall(data); require(ok); }
  fallback() external payable { assembly { let impl := sload(SLOT) calldatacopy(0, 0, calldatasize()) let r := delegatecall(gas(), impl, 0, calldatasize(), 0, 0) returndatacopy(0, 0, returndatasize()) switch r case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) } } }
}

/** WAVAX's shape (WETH9): deposit() mints with a Deposit event, no Transfer. */
contract Wrapped {
  string public name = "Wrapped AVAX"; string public symbol = "WAVAX"; uint8 public decimals = 18;
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Deposit(address indexed dst, uint256 wad);
  function totalSupply() external view returns (uint256) { return address(this).balance; }
  function deposit() external payable { balanceOf[msg.sender] += msg.value; emit Deposit(msg.sender, msg.value); }
  function transfer(address to, uint256 v) external returns (bool) {
    require(balanceOf[msg.sender] >= v); balanceOf[msg.sender] -= v; balanceOf[to] += v; emit Transfer(msg.sender, to, v); return true;
  }
}

contract Doomed { constructor() payable {} function die(address payable to) external { selfdestruct(to); } }

contract Spray {
  function spray(address[] calldata tokens, address to, uint256 v) external { for (uint i = 0; i < tokens.length; i++) Tok(tokens[i]).transfer(to, v); }
  function boom() external payable { payable(msg.sender).transfer(msg.value); revert("boom"); }
}
`;

const c = compileSolidity('Odd.sol', SOURCE);
const sdk = new Avalanche({ network: 'testnet', enableTelemetry: false, retryConfig: { strategy: 'none' } });
const carol = getAddress('0x000000000000000000000000000000000ca401e5');
let stack: EvmDataStack;
let at: { serverURL: string };
let chainId: string;
let pub: ReturnType<typeof createPublicClient>;
let wallet: ReturnType<typeof createWalletClient>;
let alice: Hex;
const addr: Record<string, Hex> = {};
const txs: Record<string, Hex> = {};

async function mined(hash: Hex, name: string) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  txs[name] = hash;
  await stack.indexer.waitFor(chainId, Number(receipt.blockNumber));
  return receipt;
}

async function deploy(name: string, args: unknown[], value?: bigint): Promise<Hex> {
  const hash = await wallet.deployContract({
    abi: c[name].abi,
    bytecode: c[name].bytecode,
    args,
    value,
    chain: wallet.chain,
    account: wallet.account!,
  } as any);
  return getAddress((await mined(hash, `deploy ${name}`)).contractAddress!) as Hex;
}

async function write(address: Hex, name: string, fn: string, args: unknown[], key: string) {
  const hash = await wallet.writeContract({
    address,
    abi: c[name].abi,
    functionName: fn,
    args,
    chain: wallet.chain,
    account: wallet.account!,
  });
  return mined(hash, key);
}

/** Every transfer of a token contract, all pages. */
async function transfersOf(address: Hex): Promise<any[]> {
  const out: any[] = [];
  for await (const page of await sdk.data.evm.contracts.listTransfers(
    { chainId, address, pageSize: 100 },
    at,
  ))
    out.push(...page.result.transfers);
  return out;
}

before(async () => {
  stack = await startEvmDataStack();
  const facts = stack.devnet.facts;
  chainId = String(facts.chains.C.evmChainId);
  at = { serverURL: stack.api.url };
  // The prefunded ewoq key (the devnet's first) sends everything.
  ({ client: pub, wallet } = cChainClients(facts.urls.cChainRpc) as any);
  alice = wallet.account!.address;

  addr.zero = await deploy('Tok', ['Zero', 'ZERO', 0, 1000n]);
  addr.big = await deploy('Tok', ['Big', 'BIG', 24, 10n ** 30n]);
  addr.maker = await deploy('Maker', []);
  addr.rude = await deploy('Rude', []);
  addr.padded = await deploy('Padded', []);
  addr.impl = await deploy('Tok', ['', '', 0, 0n]);
  // Deployed with a harmless call, and indexed, before the separate initialisation makes it a token.
  addr.late = await deploy('Proxy', [
    addr.impl,
    encodeFunctionData({ abi: c.Tok.abi, functionName: 'balanceOf', args: [alice] }),
  ]);
  await write(addr.late, 'Tok', 'init', ['Late Token', 'LATE', 18, 777n, alice], 'init');
  addr.spray = await deploy('Spray', []);
  for (const t of ['zero', 'big', 'late'])
    await write(addr[t], 'Tok', 'transfer', [addr.spray, 10n], `fund ${t}`);
  await write(addr.spray, 'Spray', 'spray', [[addr.zero, addr.big, addr.late], carol, 3n], 'spray');
  addr.wrapped = await deploy('Wrapped', []);
  const deposit = await wallet.writeContract({
    address: addr.wrapped,
    abi: c.Wrapped.abi,
    functionName: 'deposit',
    value: 10n,
    chain: wallet.chain,
    account: wallet.account!,
  });
  await mined(deposit, 'deposit');
  await write(addr.wrapped, 'Wrapped', 'transfer', [carol, 3n], 'unwrap part');
  addr.doomed = await deploy('Doomed', [], parseEther('2'));
  await write(addr.doomed, 'Doomed', 'die', [carol], 'selfdestruct');
  const boom = await wallet.sendTransaction({
    to: addr.spray,
    data: encodeFunctionData({ abi: c.Spray.abi, functionName: 'boom' }),
    value: parseEther('1'),
    gas: 100_000n,
    chain: wallet.chain,
    account: wallet.account!,
  });
  await mined(boom, 'reverted');
  const transfer = encodeFunctionData({ abi: c.Tok.abi, functionName: 'transfer', args: [carol, 1n] });
  const common = { chain: wallet.chain, account: wallet.account! };
  await mined(
    await wallet.sendTransaction({
      ...common,
      to: carol,
      value: 1n,
      type: 'legacy',
      gasPrice: 30_000_000_000n,
    }),
    'type 0',
  );
  await mined(
    await wallet.sendTransaction({
      ...common,
      to: addr.zero,
      data: transfer,
      type: 'eip2930',
      gasPrice: 30_000_000_000n,
      accessList: [{ address: addr.zero, storageKeys: [('0x' + '00'.repeat(32)) as Hex] }],
    }),
    'type 1',
  );
  await mined(
    await wallet.sendTransaction({
      ...common,
      to: carol,
      value: 2n,
      accessList: [{ address: carol, storageKeys: [] }],
    }),
    'type 2',
  );
});

after(async () => {
  await stack?.stop();
});

test('token metadata is what the contract answers: 0 and 24 decimals, bytes32, reverting and NUL-padded names', async () => {
  const readString = async (address: Hex, fn: 'name' | 'symbol') =>
    pub
      .call({ to: address, data: encodeFunctionData({ abi: c.Tok.abi, functionName: fn }) })
      .then((r) => r.data);
  // The NUL-padded name as a client decodes it, less its NULs.
  const padded = (await pub.readContract({
    address: addr.padded,
    abi: c.Padded.abi,
    functionName: 'name',
  })) as string;
  assert.ok(padded.includes('\0'));
  const expected: Record<string, [string | undefined, string | undefined, number | undefined]> = {
    zero: ['Zero', 'ZERO', 0],
    big: ['Big', 'BIG', 24],
    maker: ['Maker', 'MKR', 18],
    rude: [undefined, undefined, 18],
    padded: [padded.replaceAll('\0', ''), 'PAD', 18],
  };
  assert.equal(expected.padded[0], 'Padded €');
  assert.ok((await readString(addr.maker, 'name'))?.startsWith('0x4d616b6572'));
  for (const [key, [name, symbol, decimals]] of Object.entries(expected)) {
    const meta: any = await sdk.data.evm.contracts.getMetadata({ chainId, address: addr[key] }, at);
    assert.equal(meta.ercType, 'ERC-20', key);
    assert.equal(meta.name, name, key);
    assert.equal(meta.symbol, symbol, key);
    assert.equal(meta.decimals, decimals, key);
    // The mint (the oldest transfer, lists are newest first), with the same metadata.
    const mint = (await transfersOf(addr[key])).at(-1);
    assert.equal(mint.from.address, '0x0000000000000000000000000000000000000000');
    assert.equal(mint.erc20Token.name, name ?? '', key);
    assert.equal(mint.erc20Token.symbol, symbol ?? '', key);
    assert.equal(mint.erc20Token.decimals, decimals, key);
  }
});

test('a proxy token initialised after its deployment has the metadata the chain gives once it is a token', async () => {
  const read = (functionName: string) =>
    pub.readContract({ address: addr.late, abi: c.Tok.abi, functionName }) as Promise<unknown>;
  const [name, symbol, decimals] = await Promise.all([read('name'), read('symbol'), read('decimals')]);
  assert.deepEqual([name, symbol, decimals], ['Late Token', 'LATE', 18]);
  const meta: any = await sdk.data.evm.contracts.getMetadata({ chainId, address: addr.late }, at);
  assert.equal(meta.ercType, 'ERC-20');
  assert.deepEqual([meta.name, meta.symbol, meta.decimals], [name, symbol, decimals]);
  // Its deployment is kept.
  assert.equal(meta.deploymentDetails.txHash, txs['deploy Proxy']);
  const transfers = await transfersOf(addr.late);
  assert.equal(transfers.length, 3); // the mint, the funding of Spray, Spray's transfer
  for (const t of transfers) assert.deepEqual([t.erc20Token.name, t.erc20Token.decimals], [name, decimals]);
  const page = await sdk.data.evm.address.balances.listErc20(
    { chainId, address: carol, contractAddresses: addr.late, filterSpamTokens: false },
    at,
  );
  const [held] = page.result.erc20TokenBalances;
  const onChain = await pub.readContract({
    address: addr.late,
    abi: c.Tok.abi,
    functionName: 'balanceOf',
    args: [carol],
  });
  assert.equal(held.balance, String(onChain));
  assert.deepEqual([held.name, held.symbol, held.decimals], [name, symbol, decimals]);
});

test('each odd transaction is its receipt: logs of three tokens, a self-destruct, a revert, types 0/1/2', async () => {
  for (const key of ['spray', 'selfdestruct', 'reverted', 'type 0', 'type 1', 'type 2', 'deploy Doomed']) {
    const hash = txs[key];
    const [tx, receipt] = await Promise.all([
      pub.getTransaction({ hash }),
      pub.getTransactionReceipt({ hash }),
    ]);
    const got = await sdk.data.evm.transactions.get({ chainId, txHash: hash }, at);
    const n = got.nativeTransaction;
    assert.equal(n.txStatus, receipt.status === 'success' ? '1' : '0', key);
    assert.equal(n.txType, { legacy: 0, eip2930: 1, eip1559: 2 }[tx.type as string], key);
    assert.equal(n.gasUsed, String(receipt.gasUsed), key);
    assert.equal(n.gasPrice, String(receipt.effectiveGasPrice), key);
    assert.equal(n.value, String(tx.value), key);
    assert.equal(n.nonce, String(tx.nonce), key);
    // Transfers are the receipt's Transfer logs, each once, at its log index.
    const logs = receipt.logs.filter((l) => l.topics.length === 3);
    assert.deepEqual(
      (got.erc20Transfers ?? []).map((t) => [t.erc20Token.address, t.logIndex, t.value]),
      logs.map((l) => [getAddress(l.address), l.logIndex, String(BigInt(l.data))]),
      key,
    );
  }
  const spray = await sdk.data.evm.transactions.get({ chainId, txHash: txs.spray }, at);
  assert.deepEqual(
    spray.erc20Transfers?.map((t) => t.erc20Token.symbol),
    ['ZERO', 'BIG', 'LATE'],
  );
  // The reverted transaction's internal value call is listed, flagged reverted.
  const reverted = await sdk.data.evm.transactions.get({ chainId, txHash: txs.reverted }, at);
  assert.deepEqual(
    reverted.internalTransactions?.map((i) => [i.internalTxType, i.value, i.isReverted]),
    [['CALL', String(parseEther('1')), true]],
  );
  // A contract deployed with value carries it; the self-destruct moves it to carol on the chain.
  const deployed = await sdk.data.evm.transactions.get({ chainId, txHash: txs['deploy Doomed'] }, at);
  assert.equal(deployed.nativeTransaction.value, String(parseEther('2')));
  const balance = await sdk.data.evm.address.balances.getNative({ chainId, address: carol }, at);
  assert.equal(balance.nativeTokenBalance.balance, String(await pub.getBalance({ address: carol })));
  assert.equal(
    (await sdk.data.evm.address.balances.getNative({ chainId, address: addr.doomed }, at)).nativeTokenBalance
      .balance,
    '0',
  );
});

test("ERC-20 balances are the chain's balanceOf: WAVAX minted by deposit() with no Transfer event", async () => {
  const balanceOf = (who: Hex, blockNumber?: bigint) =>
    pub.readContract({
      address: addr.wrapped,
      abi: c.Wrapped.abi,
      functionName: 'balanceOf',
      args: [who],
      blockNumber,
    }) as Promise<bigint>;
  assert.equal(await balanceOf(alice), 7n);
  for (const [who, expected] of [
    [alice, 7n],
    [carol, 3n],
  ] as const) {
    const page = await sdk.data.evm.address.balances.listErc20(
      { chainId, address: who, contractAddresses: addr.wrapped, filterSpamTokens: false },
      at,
    );
    assert.deepEqual(
      page.result.erc20TokenBalances.map((b) => [b.address, b.symbol, b.balance]),
      [[addr.wrapped, 'WAVAX', String(expected)]],
      who,
    );
  }
  // At the transfer's block, as the chain had it then; the whole list too, page by page.
  const then = (await pub.getTransactionReceipt({ hash: txs['unwrap part'] })).blockNumber;
  const all: any[] = [];
  for await (const page of await sdk.data.evm.address.balances.listErc20(
    { chainId, address: alice, blockNumber: String(then), pageSize: 1, filterSpamTokens: false },
    at,
  ))
    all.push(...page.result.erc20TokenBalances);
  const wrapped = all.find((b) => b.address === addr.wrapped);
  assert.equal(wrapped?.balance, String(await balanceOf(alice, then)));
  // Every token listed with what balanceOf gives then; those without one (Maker, Rude, Padded
  // emit a mint only) with what their events sum to.
  assert.ok(all.length >= 6);
  const withoutBalanceOf: string[] = [];
  for (const b of all) {
    const onChain = await pub
      .readContract({
        address: b.address,
        abi: c.Tok.abi,
        functionName: 'balanceOf',
        args: [alice],
        blockNumber: then,
      })
      .catch(() => undefined);
    if (onChain === undefined) withoutBalanceOf.push(b.address);
    assert.equal(b.balance, String(onChain ?? 1000n), b.symbol);
  }
  // Only those three: any other read that failed is a failure, not a token without balanceOf.
  assert.deepEqual(withoutBalanceOf.sort(), [addr.maker, addr.rude, addr.padded].sort());
});
