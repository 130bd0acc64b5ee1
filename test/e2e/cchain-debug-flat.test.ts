/**
 * geth's `flatCallTracer` on the C-chain (coreth ships libevm's): the call tree as Parity's flat
 * list — `create`/`call`/`suicide` entries with their `traceAddress` and `subtraces`, the block
 * and transaction they belong to, calls to precompiles left out unless asked for, a failed
 * frame's result dropped but a revert's kept, and Parity's error words on request.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, toFunctionSelector, type Hex } from 'viem';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Child {
  constructor() payable {}
  function ping(uint256 x) external pure returns (uint256) { return x + 1; }
  function boom() external pure { revert("boom"); }
  function die(address payable to) external { selfdestruct(to); }
}
contract Parent {
  function run(address payable to) external payable returns (bytes32 h) {
    Child c = new Child{salt: bytes32(uint256(1)), value: 2}();
    c.ping(1);
    try c.boom() {} catch {}
    h = sha256("x");
    c.die(to);
  }
}
contract Lib { function f() external payable {} }
interface IWarp { function getBlockchainID() external view returns (bytes32); }
contract WarpReader {
  bytes32 public last;
  function read() external { last = IWarp(0x0200000000000000000000000000000000000005).getBlockchainID(); }
}
contract Proxy {
  function go(address lib) external payable {
    (bool ok, ) = lib.delegatecall(abi.encodeWithSignature("f()"));
    require(ok);
  }
}`;

const BENEFICIARY = '0x00000000000000000000000000000000000000be';

describe('C-chain flatCallTracer', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('Flat.sol', SOURCE, 'cancun');

  it('flattens the call tree as Parity does, for a transaction, a block and a call', async () => {
    const { client, wallet, url } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Parent.abi,
      bytecode: artifacts.Parent.bytecode,
    });
    const parent = (
      await client.waitForTransactionReceipt({ hash: deployed })
    ).contractAddress!.toLowerCase();
    const input = encodeFunctionData({ abi: artifacts.Parent.abi, functionName: 'run', args: [BENEFICIARY] });
    const hash = await wallet.sendTransaction({ to: parent as Hex, data: input, value: 2n, gas: 1_000_000n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');

    const nested = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).body.result;
    const flat = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'flatCallTracer' }])).body;
    assert.equal(flat.error, undefined, JSON.stringify(flat.error));
    const trace = flat.result;
    const [create, ping, boom, precompile, die] = nested.calls;
    assert.equal(precompile.to, '0x0000000000000000000000000000000000000002');
    const child = create.to;
    const place = {
      blockHash: receipt.blockHash,
      blockNumber: Number(receipt.blockNumber),
      transactionHash: hash,
      transactionPosition: receipt.transactionIndex,
    };
    const expected = [
      {
        action: {
          callType: 'call',
          from: EWOQ.toLowerCase(),
          gas: nested.gas,
          input,
          to: parent,
          value: '0x2',
        },
        ...place,
        result: { gasUsed: nested.gasUsed, output: nested.output },
        subtraces: 4,
        traceAddress: [],
        type: 'call',
      },
      {
        action: { from: parent, gas: create.gas, init: create.input, value: '0x2' },
        ...place,
        result: { address: child, code: create.output, gasUsed: create.gasUsed },
        subtraces: 0,
        traceAddress: [0],
        type: 'create',
      },
      {
        // A STATICCALL has no value in the nested trace; the flat one shows zero.
        action: {
          callType: 'staticcall',
          from: parent,
          gas: ping.gas,
          input: ping.input,
          to: child,
          value: '0x0',
        },
        ...place,
        result: { gasUsed: ping.gasUsed, output: ping.output },
        subtraces: 0,
        traceAddress: [1],
        type: 'call',
      },
      {
        action: {
          callType: 'staticcall',
          from: parent,
          gas: boom.gas,
          input: boom.input,
          to: child,
          value: '0x0',
        },
        ...place,
        error: 'execution reverted',
        // A revert keeps its result: the output holds the reason.
        result: { gasUsed: boom.gasUsed, output: boom.output },
        subtraces: 0,
        traceAddress: [2],
        type: 'call',
      },
      {
        action: { callType: 'call', from: parent, gas: die.gas, input: die.input, to: child, value: '0x0' },
        ...place,
        result: { gasUsed: die.gasUsed, output: '0x' },
        subtraces: 1,
        traceAddress: [3],
        type: 'call',
      },
      {
        action: { address: child, balance: '0x2', refundAddress: BENEFICIARY },
        ...place,
        subtraces: 0,
        traceAddress: [3, 0],
        type: 'suicide',
      },
    ];
    assert.deepEqual(trace, expected);
    // geth's key order, as clients comparing raw JSON see it.
    assert.deepEqual(Object.keys(trace[3]), [
      'action',
      'blockHash',
      'blockNumber',
      'error',
      'result',
      'subtraces',
      'traceAddress',
      'transactionHash',
      'transactionPosition',
      'type',
    ]);

    // The precompile call on request; Parity's error words on request.
    const withPrecompiles = (
      await rpc(url, 'debug_traceTransaction', [
        hash,
        { tracer: 'flatCallTracer', tracerConfig: { includePrecompiles: true, convertParityErrors: true } },
      ])
    ).body.result;
    assert.equal(withPrecompiles[0].subtraces, 5);
    assert.deepEqual(
      withPrecompiles.map((f: any) => [f.traceAddress, f.action.callType ?? f.type, f.action.to, f.error]),
      [
        [[], 'call', parent, undefined],
        [[0], 'create', undefined, undefined],
        [[1], 'staticcall', child, undefined],
        [[2], 'staticcall', child, 'Reverted'],
        [[3], 'staticcall', precompile.to, undefined],
        [[4], 'call', child, undefined],
        [[4, 0], 'suicide', undefined, undefined],
      ],
    );

    // A block trace gives each transaction's list.
    const block = (
      await rpc(url, 'debug_traceBlockByNumber', [
        `0x${receipt.blockNumber.toString(16)}`,
        { tracer: 'flatCallTracer' },
      ])
    ).body.result;
    assert.deepEqual(block, [{ txHash: hash, result: expected }]);

    // A simulated call belongs to no block or transaction.
    const simulated = (
      await rpc(url, 'debug_traceCall', [
        { from: EWOQ, to: parent, data: input, value: '0x2', gas: '0xf4240' },
        'latest',
        { tracer: 'flatCallTracer' },
      ])
    ).body.result;
    assert.equal(simulated.length, 6);
    for (const entry of simulated) {
      assert.equal(entry.blockHash, null);
      assert.equal(entry.blockNumber, 0);
      assert.equal(entry.transactionHash, null);
      assert.equal(entry.transactionPosition, 0);
    }
  });

  it('drops the result of a frame that failed other than by reverting', async () => {
    const { client, wallet, url } = suite;
    // Initcode that jumps nowhere: the creation fails with `invalid jump destination`.
    const hash = await wallet.sendTransaction({ data: '0x600456', gas: 100_000n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'reverted');
    // callTracer drops a failed creation's `to`, so the flat entry has no address either.
    const nested = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).body.result;
    assert.equal(nested.to, undefined);
    const trace = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'flatCallTracer' }])).body
      .result;
    assert.deepEqual(trace, [
      {
        action: { from: EWOQ.toLowerCase(), gas: '0x186a0', init: '0x600456', value: '0x0' },
        blockHash: receipt.blockHash,
        blockNumber: Number(receipt.blockNumber),
        error: 'invalid jump destination',
        subtraces: 0,
        traceAddress: [],
        transactionHash: hash,
        transactionPosition: 0,
        type: 'create',
      },
    ]);
  });

  it("shows a DELEGATECALL from the contract making it, to the code it runs, with its caller's value", async () => {
    const { client, wallet, url } = suite;
    const addressOf = async (name: 'Lib' | 'Proxy') => {
      const hash = await wallet.deployContract({
        abi: artifacts[name].abi,
        bytecode: artifacts[name].bytecode,
      });
      return (await client.waitForTransactionReceipt({ hash })).contractAddress!.toLowerCase() as Hex;
    };
    const lib = await addressOf('Lib');
    const proxy = await addressOf('Proxy');
    const hash = await wallet.writeContract({
      address: proxy,
      abi: artifacts.Proxy.abi,
      functionName: 'go',
      args: [lib],
      value: 3n,
    });
    await client.waitForTransactionReceipt({ hash });
    const nested = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).body.result;
    // The proxy calls into the library's code.
    const [delegated] = nested.calls;
    assert.deepEqual(
      [delegated.type, delegated.from, delegated.to, delegated.value],
      ['DELEGATECALL', proxy, lib, '0x3'],
    );
    // As recorded when the block was built.
    const block = (await rpc(url, 'debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }])).body
      .result;
    assert.deepEqual(block[0].result, nested);
    const flat = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'flatCallTracer' }])).body.result;
    assert.deepEqual(
      [flat[1].action.callType, flat[1].action.from, flat[1].action.to, flat[1].action.value],
      ['delegatecall', proxy, lib, '0x3'],
    );
  });
  it('keeps a call to a stateful precompile (Warp), which is not among the active precompiles', async () => {
    // coreth's flatCallTracer leaves out calls to vm.ActivePrecompiles(rules): the Ethereum ones
    // and coreth's own list (params/hooks_libevm.go); the stateful modules (Warp, allow lists…)
    // are no part of it, so a call to one is an entry like any other.
    const { client, wallet, url } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.WarpReader.abi,
      bytecode: artifacts.WarpReader.bytecode,
    });
    const reader = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
    const hash = await wallet.writeContract({
      address: reader,
      abi: artifacts.WarpReader.abi,
      functionName: 'read',
      args: [],
    });
    assert.equal((await client.waitForTransactionReceipt({ hash })).status, 'success');
    const flat = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'flatCallTracer' }])).body.result;
    assert.deepEqual(
      flat.map((f: any) => [f.traceAddress, f.subtraces, f.action.callType, f.action.to]),
      [
        [[], 1, 'call', reader.toLowerCase()],
        [[0], 0, 'staticcall', '0x0200000000000000000000000000000000000005'],
      ],
    );
    // The 4byteTracer reads the same list: the Warp call's selector counts.
    const ids = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: '4byteTracer' }])).body.result;
    assert.equal(ids[`${toFunctionSelector('getBlockchainID()')}-0`], 1);
  });
});
