/**
 * geth's prestateTracer as coreth answers it (libevm, geth 1.13's tracer): which accounts a
 * creation leaves in `pre` and `post`, in both modes — the transaction's own creation read once
 * the EVM made it (nonce 1), contracts made by CREATE as they were before (empty, with the slots
 * their constructor touched) — and the fee around it: all of it, base fee included, paid to the blackhole.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, toHex, type Hex } from 'viem';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Store {
  uint256 public a = 5;
  constructor() payable {}
}
contract Child { uint256 public v; constructor(uint256 x) payable { v = x; } }
contract Factory {
  function make(uint256 x) external payable returns (address) { return address(new Child{value: msg.value}(x)); }
}`;

const slot0 = toHex(0, { size: 32 });
const BLACKHOLE = '0x0100000000000000000000000000000000000000';

describe('C-chain prestate traces of creations', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('Prestate.sol', SOURCE, 'cancun');
  const prestate = async (hash: Hex, tracerConfig: object = {}) =>
    (await rpc(suite.url, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig }])).body
      .result;

  it("shows the transaction's own creation with nonce 1 in pre, and in diffMode leaves its nonce out of post", async () => {
    const { client, wallet } = suite;
    const hash = await wallet.deployContract({
      abi: artifacts.Store.abi,
      bytecode: artifacts.Store.bytecode,
      value: 3n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const store = (receipt.contractAddress as Hex).toLowerCase();
    const code = await client.getCode({ address: store as Hex });

    const pre = await prestate(hash);
    assert.deepEqual(pre[store], { balance: '0x0', nonce: 1, storage: { [slot0]: toHex(0, { size: 32 }) } });

    const diff = await prestate(hash, { diffMode: true });
    assert.deepEqual(diff.pre[store], { balance: '0x0', nonce: 1 });
    assert.deepEqual(diff.post[store], {
      balance: '0x3',
      code,
      storage: { [slot0]: toHex(5, { size: 32 }) },
    });
    // The sender pays the value and the fee; the whole fee, base fee included, goes to the
    // coinbase (the blackhole), as coreth pays it.
    const sender = EWOQ.toLowerCase();
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    assert.equal(BigInt(diff.pre[sender].balance) - BigInt(diff.post[sender].balance), fee + 3n);
    assert.equal(diff.post[sender].nonce, (diff.pre[sender].nonce ?? 0) + 1);
    assert.equal(BigInt(diff.post[BLACKHOLE].balance) - BigInt(diff.pre[BLACKHOLE].balance), fee);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    assert.ok(receipt.effectiveGasPrice > block.baseFeePerGas!, 'a tip beside the base fee');
    assert.equal(
      (await client.getBalance({ address: BLACKHOLE, blockNumber: receipt.blockNumber })) -
        (await client.getBalance({ address: BLACKHOLE, blockNumber: receipt.blockNumber - 1n })),
      fee,
    );
  });

  it('keeps a contract made by CREATE in the default mode as it was before, and only in post with diffMode', async () => {
    const { client, wallet } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Factory.abi,
      bytecode: artifacts.Factory.bytecode,
    });
    const factory = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const data = encodeFunctionData({ abi: artifacts.Factory.abi, functionName: 'make', args: [4n] });
    const child = (await client.call({ account: EWOQ, to: factory, data, value: 2n })).data!.slice(-40);
    const hash = await wallet.sendTransaction({ to: factory, data, value: 2n });
    await client.waitForTransactionReceipt({ hash });
    const made = `0x${child}`;

    const pre = await prestate(hash);
    assert.deepEqual(pre[made], { balance: '0x0', storage: { [slot0]: toHex(0, { size: 32 }) } });

    const diff = await prestate(hash, { diffMode: true });
    assert.equal(diff.pre[made], undefined);
    assert.deepEqual(diff.post[made], {
      balance: '0x2',
      code: await client.getCode({ address: made as Hex }),
      nonce: 1,
      storage: { [slot0]: toHex(4, { size: 32 }) },
    });
    // The factory's nonce went up by the creation.
    assert.deepEqual(diff.post[factory.toLowerCase()], { nonce: 2 });
  });

  it("looks up the block's coinbase, a coinbase override included, as geth does", async () => {
    const coinbase = '0x000000000000000000000000000000000000c0de';
    const to = '0x000000000000000000000000000000000000abcd';
    const pre = (
      await rpc(suite.url, 'debug_traceCall', [
        { from: EWOQ, to, value: '0x1' },
        'latest',
        { tracer: 'prestateTracer', blockOverrides: { coinbase } },
      ])
    ).body.result;
    assert.deepEqual(Object.keys(pre).sort(), [coinbase, to, EWOQ.toLowerCase()].sort());
  });
});
