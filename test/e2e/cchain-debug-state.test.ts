/**
 * coreth's state-reading `debug_` methods on the C-chain, driven over JSON-RPC: the accounts a
 * block (or a range) modified, the state root after each transaction, geth's state dump
 * (`dumpBlock`, paged `accountRange`), trie-key preimages, the RLP block tracer and the (empty)
 * bad-block list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concatHex, fromRlp, getAddress, hexToBigInt, keccak256, numberToHex, toRlp, type Hex } from 'viem';
import { sign } from 'viem/accounts';
import { cChainSuite, EWOQ, EWOQ_KEY } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Store {
  uint256 public value = 7;
  function set(uint256 v) external payable { value = v; }
}`;

/** secp256k1's group order. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const RECIPIENT = '0x00000000000000000000000000000000000000a1';

/** geth's DifferenceIterator order: by the account trie's hashed key. */
const trieOrder = (addresses: string[]) =>
  [...addresses].sort((a, b) => (keccak256(a as Hex) < keccak256(b as Hex) ? -1 : 1));

describe('C-chain debug_ state methods', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('Store.sol', SOURCE, 'cancun');
  const state = {} as { store: Hex; setBlock: bigint; transferBlock: bigint; coinbase: string };

  /**
   * The transfer block's EIP-1559 tx as its fields ([chainId, nonce, tip, fee cap, gas, to, value,
   * data, accessList, yParity, r, s]), and coreth's refusal of a debug_traceBlock of that block
   * with another tx in its place (its extra data set to `mark`, so it is no accepted block).
   */
  const transferBlockWith = async (mark: Hex) => {
    const { url } = suite;
    const [header, txs, ...rest] = fromRlp(
      (await rpc(url, 'debug_getRawBlock', [`0x${state.transferBlock.toString(16)}`])).body.result,
      'hex',
    );
    const [transfer] = txs as Hex[];
    assert.equal(transfer.slice(0, 4), '0x02');
    const fields = fromRlp(`0x${transfer.slice(4)}`, 'hex') as Hex[];
    const traceWith = async (tx: Hex) => {
      const blob = toRlp([(header as Hex[]).map((f, i) => (i === 12 ? mark : f)), [tx], ...rest] as Hex[]);
      return (await rpc(url, 'debug_traceBlock', [blob, { tracer: 'callTracer' }])).body.error;
    };
    return { fields, traceWith };
  };

  it('lists the accounts a block modified, and those a range of blocks modified', async () => {
    const { client, wallet, url } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Store.abi,
      bytecode: artifacts.Store.bytecode,
    });
    state.store = (
      await client.waitForTransactionReceipt({ hash: deployed })
    ).contractAddress!.toLowerCase() as Hex;
    const set = await wallet.writeContract({
      address: state.store,
      abi: artifacts.Store.abi,
      functionName: 'set',
      args: [9n],
      value: 4n,
    });
    state.setBlock = (await client.waitForTransactionReceipt({ hash: set })).blockNumber;
    const transfer = await wallet.sendTransaction({ to: RECIPIENT, value: 5n });
    const receipt = await client.waitForTransactionReceipt({ hash: transfer });
    state.transferBlock = receipt.blockNumber;
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    state.coinbase = block.miner.toLowerCase();

    const sender = EWOQ.toLowerCase();
    const byNumber = (await rpc(url, 'debug_getModifiedAccountsByNumber', [Number(state.transferBlock)]))
      .body;
    // The sender, the recipient and the fee recipient the fees went to.
    assert.deepEqual(byNumber.result, trieOrder([sender, RECIPIENT, state.coinbase]));
    const byHash = (await rpc(url, 'debug_getModifiedAccountsByHash', [block.hash])).body;
    assert.deepEqual(byHash.result, byNumber.result);
    // From the block before the call to the transfer's: the contract too.
    const range = (
      await rpc(url, 'debug_getModifiedAccountsByNumber', [
        Number(state.setBlock) - 1,
        Number(state.transferBlock),
      ])
    ).body.result;
    assert.deepEqual(range, trieOrder([sender, RECIPIENT, state.coinbase, state.store]));
    const setHash = (await client.getBlock({ blockNumber: state.setBlock - 1n })).hash;
    const rangeByHash = (await rpc(url, 'debug_getModifiedAccountsByHash', [setHash, block.hash])).body
      .result;
    assert.deepEqual(rangeByHash, range);

    // coreth's refusals.
    const refusal = async (method: string, params: unknown[]) => (await rpc(url, method, params)).body.error;
    assert.deepEqual(
      await refusal('debug_getModifiedAccountsByNumber', [
        Number(state.transferBlock),
        Number(state.setBlock),
      ]),
      {
        code: -32000,
        message: `start block height (${state.transferBlock}) must be less than end block height (${state.setBlock})`,
      },
    );
    assert.deepEqual(await refusal('debug_getModifiedAccountsByNumber', [1_000_000]), {
      code: -32000,
      message: 'start block f4240 not found',
    });
    assert.deepEqual(await refusal('debug_getModifiedAccountsByNumber', [1, 1_000_000]), {
      code: -32000,
      message: 'end block 1000000 not found',
    });
    assert.deepEqual(await refusal('debug_getModifiedAccountsByNumber', [0]), {
      code: -32000,
      message: 'block 0 has no parent',
    });
    // A Go uint64: a JSON number, not a hex string.
    assert.deepEqual(await refusal('debug_getModifiedAccountsByNumber', ['0x1']), {
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64',
    });
    const unknown = `0x${'ab'.repeat(32)}`;
    assert.deepEqual(await refusal('debug_getModifiedAccountsByHash', [unknown]), {
      code: -32000,
      message: `start block ${'ab'.repeat(32)} not found`,
    });
  });

  it("gives the state root after each transaction, the last being the block's", async () => {
    const { client, url } = suite;
    const block = await client.getBlock({ blockNumber: state.transferBlock });
    const roots = (await rpc(url, 'debug_intermediateRoots', [block.hash])).body.result;
    assert.deepEqual(roots, [block.stateRoot]);
    const genesis = (await client.getBlock({ blockNumber: 0n })).hash;
    assert.equal(
      (await rpc(url, 'debug_intermediateRoots', [genesis])).body.error.message,
      'genesis is not traceable',
    );
    const unknown = `0x${'cd'.repeat(32)}`;
    assert.equal(
      (await rpc(url, 'debug_intermediateRoots', [unknown])).body.error.message,
      `block ${unknown} not found`,
    );
  });

  it('dumps the state as geth does, whole or a page at a time', async () => {
    const { client, url } = suite;
    const latest = await client.getBlock();
    const dump = (await rpc(url, 'debug_dumpBlock', ['latest'])).body.result;
    assert.equal(dump.root, latest.stateRoot.slice(2));
    assert.equal(dump.next, undefined);
    const store = dump.accounts[getAddress(state.store)];
    const code = await client.getCode({ address: state.store });
    assert.deepEqual(store, {
      balance: '4',
      nonce: 1,
      root: store.root,
      codeHash: keccak256(code!),
      code,
      // Slot 0 holds 9: its key, and the value's bytes in bare hex.
      storage: { [`0x${'00'.repeat(32)}`]: '09' },
      address: state.store,
      key: keccak256(state.store),
    });
    const recipient = dump.accounts[getAddress(RECIPIENT)];
    assert.deepEqual(recipient, {
      balance: '5',
      nonce: 0,
      root: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      codeHash: '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
      address: RECIPIENT,
      key: keccak256(RECIPIENT),
    });
    const count = Object.keys(dump.accounts).length;
    assert.ok(count >= 4);
    // The dump's accounts in the trie's order of hashed keys.
    const keys = Object.values(dump.accounts).map((a: any) => a.key);
    assert.deepEqual(keys, [...keys].sort());

    // A page of one account, then the next from where it stopped (`next` in base64, as Go
    // writes a []byte).
    const page = async (start: string) =>
      (await rpc(url, 'debug_accountRange', ['latest', start, 1, true, true, false])).body.result;
    const first = await page('0x');
    assert.equal(Object.keys(first.accounts).length, 1);
    const [firstAccount] = Object.values(first.accounts) as any[];
    assert.equal(firstAccount.key, keys[0]);
    assert.equal(firstAccount.code, undefined);
    assert.equal(firstAccount.storage, undefined);
    const next = `0x${Buffer.from(first.next, 'base64').toString('hex')}`;
    assert.equal(next, keys[1]);
    const second = await page(next);
    assert.equal((Object.values(second.accounts) as any[])[0].key, keys[1]);
    // Every account in pages of up to 256, without a start.
    const all = (await rpc(url, 'debug_accountRange', ['latest', '0x', 0, false, false, false])).body.result;
    assert.deepEqual(all, dump);
    // An older block's state, by number and by hash.
    const before = (
      await rpc(url, 'debug_accountRange', [
        `0x${(state.transferBlock - 1n).toString(16)}`,
        '0x',
        0,
        true,
        true,
        false,
      ])
    ).body.result;
    assert.equal(before.accounts[getAddress(RECIPIENT)], undefined);
    const hash = (await client.getBlock({ blockNumber: state.transferBlock - 1n })).hash;
    const byHash = (await rpc(url, 'debug_accountRange', [{ blockHash: hash }, '0x', 0, true, true, false]))
      .body.result;
    assert.deepEqual(byHash, before);
    // Every account has its address, the genesis allocation's included.
    const incompletes = (await rpc(url, 'debug_accountRange', ['latest', '0x', 0, false, false, true])).body
      .result;
    assert.deepEqual(incompletes, dump);
    const genesis = (await rpc(url, 'debug_dumpBlock', ['0x0'])).body.result;
    assert.ok(Object.keys(genesis.accounts).length > 0);
    assert.ok(Object.keys(genesis.accounts).every((k) => k.startsWith('0x')));
    assert.equal(genesis.accounts[getAddress(EWOQ)].address, EWOQ.toLowerCase());
    assert.deepEqual((await rpc(url, 'debug_dumpBlock', ['0xfffff'])).body.error, {
      code: -32000,
      message: 'block #1048575 not found',
    });
    assert.equal((await rpc(url, 'debug_accountRange', ['latest', '0x', 1])).body.error.code, -32602);
  });

  it("answers a trie key's preimage", async () => {
    const { url } = suite;
    assert.equal((await rpc(url, 'debug_preimage', [keccak256(RECIPIENT)])).body.result, RECIPIENT);
    assert.equal(
      (await rpc(url, 'debug_preimage', [keccak256(`0x${'00'.repeat(32)}`)])).body.result,
      `0x${'00'.repeat(32)}`,
    );
    assert.deepEqual((await rpc(url, 'debug_preimage', [`0x${'ee'.repeat(32)}`])).body.error, {
      code: -32000,
      message: 'unknown preimage',
    });
  });

  it('traces an RLP-encoded accepted block, and lists no bad blocks', async () => {
    const { url } = suite;
    const number = `0x${state.setBlock.toString(16)}`;
    const raw = (await rpc(url, 'debug_getRawBlock', [number])).body.result;
    const config = { tracer: 'callTracer' };
    const traced = (await rpc(url, 'debug_traceBlock', [raw, config])).body.result;
    const byNumber = (await rpc(url, 'debug_traceBlockByNumber', [number, config])).body.result;
    assert.equal(traced.length, 1);
    assert.deepEqual(traced, byNumber);
    assert.match(
      (await rpc(url, 'debug_traceBlock', ['0x01', config])).body.error.message,
      /^could not decode block: /,
    );
    assert.deepEqual((await rpc(url, 'debug_getBadBlocks', [])).body.result, []);
  });

  it('traces a block the node does not hold on its parent, as coreth does, and keeps nothing of it', async () => {
    const { url, client } = suite;
    const config = { tracer: 'callTracer' };
    const number = `0x${state.setBlock.toString(16)}`;
    const [header, txs, ...rest] = fromRlp(
      (await rpc(url, 'debug_getRawBlock', [number])).body.result,
      'hex',
    );
    const fields = header as Hex[];
    // The block with some header fields (or its transactions) changed.
    const edited = (changes: Record<number, Hex | Hex[]>, body: unknown = txs) =>
      toRlp([fields.map((f, i) => changes[i] ?? f), body, ...rest] as Hex[]);
    const trace = async (blob: Hex) => (await rpc(url, 'debug_traceBlock', [blob, config])).body;
    const head = await client.getBlockNumber();
    // Other extra data: another hash, the same parent.
    const other = edited({ 12: '0x0102' });
    const otherHash = keccak256(toRlp(fields.map((f, i) => (i === 12 ? '0x0102' : f))));
    assert.equal((await rpc(url, 'eth_getBlockByHash', [otherHash, false])).body.result, null);
    const byNumber = (await rpc(url, 'debug_traceBlockByNumber', [number, config])).body.result;
    assert.equal(byNumber.length, 1);
    assert.deepEqual((await trace(other)).result, byNumber);
    // Its own transactions run, not the held block's: none here.
    assert.deepEqual((await trace(edited({ 12: '0x0102' }, []))).result, []);
    // A transaction the parent state refuses fails the trace in coreth's words (the transfer sent
    // after the call has the next nonce).
    const transfer = fromRlp(
      (await rpc(url, 'debug_getRawBlock', [`0x${state.transferBlock.toString(16)}`])).body.result,
      'hex',
    )[1];
    assert.match(
      (await trace(edited({ 12: '0x0102' }, transfer))).error.message,
      /^tracing failed: nonce too high: address 0x[0-9a-fA-F]{40}, tx: \d+ state: \d+$/,
    );
    // The parent must be held: by number, then by hash.
    const unknownParent = `0x${'ab'.repeat(32)}` as Hex;
    assert.deepEqual((await trace(edited({ 0: unknownParent }))).error, {
      code: -32000,
      message: `block ${unknownParent} not found`,
    });
    assert.deepEqual((await trace(edited({ 8: '0x0fffff' }))).error, {
      code: -32000,
      message: 'block #1048574 not found',
    });
    assert.deepEqual((await trace(edited({ 8: '0x' }))).error, {
      code: -32000,
      message: 'genesis is not traceable',
    });
    // Nothing was accepted or kept.
    assert.equal(await client.getBlockNumber(), head);
    assert.equal((await rpc(url, 'eth_getBlockByHash', [otherHash, false])).body.result, null);
    // Bad RLP, in geth's rlp words.
    for (const [blob, why] of [
      ['0x', 'EOF'],
      ['0x01', 'rlp: expected input list for types.extblock'],
      ['0xc0c0', 'rlp: input contains more than one value'],
      ['0xc501', 'rlp: value size exceeds available input length'],
      ['0xc0', 'rlp: too few elements for types.extblock'],
    ])
      assert.deepEqual((await trace(blob as Hex)).error, {
        code: -32000,
        message: `could not decode block: ${why}`,
      });
  });

  it('replays a transaction whose signature recovers no sender from the zero address, as coreth', async () => {
    // The transfer re-signed, here with the zero address's nonce (0).
    const { fields, traceWith } = await transferBlockWith('0x0102');
    const resigned = (yParity: Hex, r: Hex, s: Hex) =>
      concatHex(['0x02', toRlp([fields[0], '0x', ...fields.slice(2, 9), yParity, r, s])]);
    const [yParity, r, s] = fields.slice(9) as Hex[];
    const unrecoverable = [
      // The signature with the high s (secp256k1's n - s, the other parity): geth's decoder
      // takes it, types.Sender refuses it.
      resigned(yParity === '0x' ? '0x01' : '0x', r, numberToHex(SECP256K1_N - hexToBigInt(s))),
      // No r at all.
      resigned(yParity, '0x', s),
    ];
    // coreth's TransactionToMessage leaves From zero, and the zero address holds nothing: buyGas
    // wants gas × fee cap + value (not the gas at the price the block would charge).
    const [maxFee, gas, value] = [fields[3], fields[4], fields[6]].map((f) =>
      f === '0x' ? 0n : hexToBigInt(f),
    );
    const zero = `0x${'00'.repeat(20)}`;
    for (const tx of unrecoverable)
      assert.deepEqual(await traceWith(tx), {
        code: -32000,
        message: `tracing failed: insufficient funds for gas * price + value: address ${zero} have 0 want ${gas * maxFee + value}`,
      });
    // coreth checks the nonce before the funds: the zero address has nonce 0.
    const gapped = concatHex(['0x02', toRlp([fields[0], '0x05', ...fields.slice(2, 9), '0x', '0x', s])]);
    assert.deepEqual(await traceWith(gapped), {
      code: -32000,
      message: `tracing failed: nonce too high: address ${zero}, tx: 5 state: 0`,
    });
  });

  it('replays a typed transaction ethereumjs will not build (tip above fee cap, gas × price past 256 bits, another chain) as coreth', async () => {
    // geth's decoder takes both; coreth refuses the first in preCheck and runs the second from
    // the zero address (types.Sender refuses another chain's id). Both were refused at decode.
    const { fields, traceWith } = await transferBlockWith('0x0103');
    const signed = async (unsigned: Hex[]) => {
      const payload = concatHex(['0x02', toRlp(unsigned)]);
      const { r, s, yParity } = await sign({ hash: keccak256(payload), privateKey: EWOQ_KEY });
      const trim = (h: Hex) => (hexToBigInt(h) === 0n ? '0x' : numberToHex(hexToBigInt(h)));
      return concatHex(['0x02', toRlp([...unsigned, yParity ? '0x01' : '0x', trim(r), trim(s)])]);
    };
    const feeCap = hexToBigInt(fields[3]);
    const aboveCap = await signed([fields[0], fields[1], numberToHex(feeCap + 1n), ...fields.slice(3, 9)]);
    assert.deepEqual(await traceWith(aboveCap), {
      code: -32000,
      message: `tracing failed: max priority fee per gas higher than max fee per gas: address ${EWOQ}, maxPriorityFeePerGas: ${feeCap + 1n}, maxFeePerGas: ${feeCap}`,
    });
    // gas × fee cap past 256 bits: buyGas's refusal.
    const overflowing = await signed([...fields.slice(0, 3), numberToHex(1n << 255n), ...fields.slice(4, 9)]);
    assert.deepEqual(await traceWith(overflowing), {
      code: -32000,
      message: `tracing failed: insufficient funds for gas * price + value: address ${EWOQ} required balance exceeds 256 bits`,
    });
    // Mainnet's id, nonce 0: from the zero address, which holds nothing.
    const otherChain = await signed(['0x01', '0x', ...fields.slice(2, 9)]);
    const [gas, value] = [fields[4], fields[6]].map((f) => (f === '0x' ? 0n : hexToBigInt(f)));
    assert.deepEqual(await traceWith(otherChain), {
      code: -32000,
      message: `tracing failed: insufficient funds for gas * price + value: address 0x${'00'.repeat(20)} have 0 want ${gas * feeCap + value}`,
    });
  });

  it('finds no bad block to trace', async () => {
    const { url } = suite;
    const hash = `0x${'12'.repeat(32)}`;
    assert.deepEqual((await rpc(url, 'debug_traceBadBlock', [hash])).body.error, {
      code: -32000,
      message: `bad block ${hash} not found`,
    });
  });
});
