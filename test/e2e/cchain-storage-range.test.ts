/**
 * geth's debug_storageRangeAt (Remix's and Truffle's debuggers read storage with it): a contract's
 * storage before a given transaction of a block, by hashed slot, in pages with the key to go on
 * from, each with its slot key; refusals in coreth's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keccak256, numberToHex, parseEther, toHex, type Hex } from 'viem';
import { cChainSuite } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Slots {
  uint256 public a = 1;
  uint256 public b = 2;
  uint256 public c = 3;
  function setA(uint256 v) external { a = v; }
}`;

const word = (n: number | bigint) => numberToHex(n, { size: 32 });

describe('C-chain debug_storageRangeAt', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('Slots.sol', SOURCE, 'cancun');
  const state = {} as { contract: Hex; setBlock: Hex; nextBlock: Hex };
  /** The storage's hashed keys in trie order, each with its slot. */
  const hashed = [0, 1, 2]
    .map((slot) => ({ slot, key: keccak256(word(slot)) }))
    .sort((x, y) => (x.key < y.key ? -1 : 1));

  it('pages a contract storage as it stood before a transaction', async () => {
    const { client, wallet, url } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Slots.abi,
      bytecode: artifacts.Slots.bytecode,
    });
    state.contract = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const set = await wallet.writeContract({
      address: state.contract,
      abi: artifacts.Slots.abi,
      functionName: 'setA',
      args: [5n],
    });
    state.setBlock = (await client.waitForTransactionReceipt({ hash: set })).blockHash;
    const next = await wallet.sendTransaction({
      to: '0x00000000000000000000000000000000000000cc',
      value: parseEther('1'),
    });
    state.nextBlock = (await client.waitForTransactionReceipt({ hash: next })).blockHash;

    const range = (block: Hex, start: Hex, max: number) =>
      rpc(url, 'debug_storageRangeAt', [block, 0, state.contract, start, max]).then((r) => r.body);
    const values = (before: Record<number, number>) =>
      // Each slot's key from the preimages the node keeps (coreth with `preimages-enabled`).
      Object.fromEntries(
        hashed.map(({ slot, key }) => [key, { key: word(slot), value: word(before[slot]) }]),
      );
    // Before setA: a is still 1; after it (before the next block's first tx): 5.
    assert.deepEqual((await range(state.setBlock, '0x', 10)).result, {
      storage: values({ 0: 1, 1: 2, 2: 3 }),
      nextKey: null,
    });
    assert.deepEqual((await range(state.nextBlock, '0x', 10)).result, {
      storage: values({ 0: 5, 1: 2, 2: 3 }),
      nextKey: null,
    });
    // Two pages: the first ends with the key the second starts at.
    const first = (await range(state.nextBlock, '0x', 2)).result;
    assert.deepEqual(Object.keys(first.storage), [hashed[0].key, hashed[1].key]);
    assert.equal(first.nextKey, hashed[2].key);
    const second = (await range(state.nextBlock, first.nextKey, 2)).result;
    assert.deepEqual(Object.keys(second.storage), [hashed[2].key]);
    assert.equal(second.nextKey, null);
  });

  it('answers an account without storage with nothing, and refuses what coreth refuses', async () => {
    const { url } = suite;
    const ask = (params: unknown[]) => rpc(url, 'debug_storageRangeAt', params).then((r) => r.body);
    const empty = await ask([state.nextBlock, 0, '0x00000000000000000000000000000000000000cc', '0x', 10]);
    assert.deepEqual(empty.result, { storage: null, nextKey: null });
    const outOfRange = await ask([state.setBlock, 1, state.contract, '0x', 10]);
    assert.deepEqual(outOfRange.error, {
      code: -32000,
      message: `transaction index 1 out of range for block ${state.setBlock}`,
    });
    const unknown = toHex(new Uint8Array(32).fill(7));
    assert.deepEqual((await ask([unknown, 0, state.contract, '0x', 10])).error, {
      code: -32000,
      message: `block ${unknown} not found`,
    });
    assert.deepEqual((await ask(['0x0', 0, state.contract, '0x', 10])).error, {
      code: -32000,
      message: 'no transaction in genesis',
    });
    const typed = (await ask([state.setBlock, '0', state.contract, '0x', 10])).error;
    assert.equal(typed.code, -32602);
    assert.match(
      typed.message,
      /^invalid argument 1: json: cannot unmarshal string into Go value of type int/,
    );
  });
});
