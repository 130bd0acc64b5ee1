/**
 * geth's tracer options on the C-chain: callTracer's `withLog` puts each frame's logs in the
 * frame, at their place among its calls, and drops those of frames that failed, for a
 * transaction, a block (never from the traces recorded without logs) and a call; the struct
 * logger reports the refund counter.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, toFunctionSelector, type Hex } from 'viem';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Logger {
  event Ping(uint256 indexed n, bytes data);
  function inner(uint256 n) external { emit Ping(n, "in"); }
  function failing() external { emit Ping(99, "lost"); revert("no"); }
  function outer() external {
    emit Ping(1, "before");
    this.inner(2);
    try this.failing() {} catch {}
    emit Ping(3, "after");
  }
}
contract Doomed {
  constructor() payable {}
  function die(address payable to) external { selfdestruct(to); }
}
contract DiesAtBirth { constructor(address payable to) payable { selfdestruct(to); } }
contract Maker {
  function make(address payable to) external payable { new DiesAtBirth{value: msg.value}(to); }
}`;

describe('C-chain call traces with logs', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('Logger.sol', SOURCE, 'cancun');

  it('places each log in its frame among the calls, without the logs of failed frames', async () => {
    const { client, wallet, url } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Logger.abi,
      bytecode: artifacts.Logger.bytecode,
    });
    const logger = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const hash = await wallet.writeContract({
      address: logger,
      abi: artifacts.Logger.abi,
      functionName: 'outer',
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    // The receipt's logs: Ping(1), Ping(2) from the inner call, Ping(3); the failed call's is gone.
    const [one, two, three] = receipt.logs.map((l: any) => ({
      address: l.address,
      topics: l.topics,
      data: l.data,
    }));
    assert.equal(receipt.logs.length, 3);
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    const trace = (await rpc(url, 'debug_traceTransaction', [hash, config])).body.result;
    const at = (log: typeof one, position: number) => ({ ...log, position: `0x${position}` });
    assert.deepEqual(trace.logs, [at(one, 0), at(three, 2)]);
    assert.deepEqual(trace.calls[0].logs, [at(two, 0)]);
    assert.equal(trace.calls[1].error, 'execution reverted');
    assert.equal(trace.calls[1].logs, undefined);
    // Without the option, no logs.
    const plain = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).body.result;
    assert.equal(plain.logs, undefined);
    // A block's traces (recorded without logs when it was built) carry them too.
    const block = (
      await rpc(url, 'debug_traceBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, config])
    ).body.result;
    assert.deepEqual(block[0].result, trace);
    // onlyTopCall keeps the top frame's own logs; geth enters no call below it, so the top frame
    // has no calls for a log to come after: every position is 0.
    const top = (
      await rpc(url, 'debug_traceTransaction', [
        hash,
        { tracer: 'callTracer', tracerConfig: { withLog: true, onlyTopCall: true } },
      ])
    ).body.result;
    assert.deepEqual(top.logs, [at(one, 0), at(three, 0)]);
    assert.equal(top.calls, undefined);
    const call = (
      await rpc(url, 'debug_traceCall', [
        {
          from: EWOQ,
          to: logger,
          data: encodeFunctionData({ abi: artifacts.Logger.abi, functionName: 'outer' }),
        },
        'latest',
        config,
      ])
    ).body.result;
    assert.deepEqual(call.logs, trace.logs);
  });

  it('reports each SELFDESTRUCT as a frame of the one that ran it, moving its balance, as geth', async () => {
    const { client, wallet, url } = suite;
    const to: Hex = '0x000000000000000000000000000000000000d1e5';
    const deployed = await wallet.deployContract({
      abi: artifacts.Doomed.abi,
      bytecode: artifacts.Doomed.bytecode,
      value: 7n,
    });
    const doomed = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const hash = await wallet.writeContract({
      address: doomed,
      abi: artifacts.Doomed.abi,
      functionName: 'die',
      args: [to],
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const frame = (from: string, value: bigint) => ({
      type: 'SELFDESTRUCT',
      from: from.toLowerCase(),
      to,
      value: `0x${value.toString(16)}`,
      gas: '0x0',
      gasUsed: '0x0',
      input: '0x',
    });
    const trace = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).body.result;
    assert.deepEqual(trace.calls, [frame(doomed, 7n)]);
    assert.equal(await client.getBalance({ address: to }), 7n);
    // As recorded when the block was built.
    const block = (
      await rpc(url, 'debug_traceBlockByNumber', [
        `0x${receipt.blockNumber.toString(16)}`,
        { tracer: 'callTracer' },
      ])
    ).body.result;
    assert.deepEqual(block[0].result, trace);
    // Inside a creation: the child created with value gives it all away from its constructor.
    const made = await wallet.deployContract({
      abi: artifacts.Maker.abi,
      bytecode: artifacts.Maker.bytecode,
    });
    const maker = (await client.waitForTransactionReceipt({ hash: made })).contractAddress as Hex;
    const make = await wallet.writeContract({
      address: maker,
      abi: artifacts.Maker.abi,
      functionName: 'make',
      args: [to],
      value: 5n,
    });
    await client.waitForTransactionReceipt({ hash: make });
    const nested = (await rpc(url, 'debug_traceTransaction', [make, { tracer: 'callTracer' }])).body.result;
    const [create] = nested.calls;
    assert.equal(create.type, 'CREATE');
    assert.deepEqual(create.calls, [frame(create.to, 5n)]);
    // A call that is simulated is traced the same way.
    const simulated = (
      await rpc(url, 'debug_traceCall', [
        {
          from: EWOQ,
          to: maker,
          value: '0x3',
          data: encodeFunctionData({ abi: artifacts.Maker.abi, functionName: 'make', args: [to] }),
        },
        'latest',
        { tracer: 'callTracer' },
      ])
    ).body.result;
    assert.deepEqual(simulated.calls[0].calls, [frame(simulated.calls[0].to, 3n)]);
  });

  it('reports the refund counter in struct logs, as geth', async () => {
    // PUSH0 PUSH0 SSTORE STOP on a contract whose slot 0 holds 1: clearing it earns a refund.
    const at = '0x00000000000000000000000000000000000000cc';
    const overrides = {
      [at]: { code: '0x5f5f5500', stateDiff: { ['0x' + '00'.repeat(32)]: '0x' + '00'.repeat(31) + '01' } },
    };
    const trace = (
      await rpc(suite.url, 'debug_traceCall', [
        { from: EWOQ, to: at },
        'latest',
        { stateOverrides: overrides },
      ])
    ).body.result;
    assert.deepEqual(
      trace.structLogs.map((l: any) => [l.op, l.refund]),
      [
        ['PUSH0', undefined],
        ['PUSH0', undefined],
        // The counter is read after the op's gas is worked out, which credits the refund.
        ['SSTORE', 4800],
        ['STOP', 4800],
      ],
    );
  });

  it('counts selectors with the 4byteTracer, answers {} with the noopTracer, and runs several with the muxTracer', async () => {
    const { client, wallet, url } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Logger.abi,
      bytecode: artifacts.Logger.bytecode,
    });
    const logger = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const hash = await wallet.writeContract({
      address: logger,
      abi: artifacts.Logger.abi,
      functionName: 'outer',
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const selector = (name: 'outer' | 'inner' | 'failing') =>
      toFunctionSelector(artifacts.Logger.abi.find((f: any) => f.name === name));
    // The transaction's own call, inner(2) with one word of arguments, and the reverted failing():
    // a frame counts whether or not it succeeds.
    const fourByte = {
      [`${selector('outer')}-0`]: 1,
      [`${selector('inner')}-32`]: 1,
      [`${selector('failing')}-0`]: 1,
    };
    const trace = async (config: unknown) =>
      (await rpc(url, 'debug_traceTransaction', [hash, config])).body.result;
    assert.deepEqual(await trace({ tracer: '4byteTracer' }), fourByte);
    // A creation is no call: the deployment counts nothing.
    const deployTrace = await rpc(url, 'debug_traceTransaction', [deployed, { tracer: '4byteTracer' }]);
    assert.deepEqual(deployTrace.body.result, {});
    assert.deepEqual(await trace({ tracer: 'noopTracer' }), {});
    const mux = await trace({
      tracer: 'muxTracer',
      tracerConfig: { callTracer: { onlyTopCall: true }, '4byteTracer': {}, noopTracer: null },
    });
    assert.deepEqual(mux, {
      callTracer: await trace({ tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }),
      '4byteTracer': fourByte,
      noopTracer: {},
    });
    const block = await rpc(url, 'debug_traceBlockByNumber', [
      `0x${receipt.blockNumber.toString(16)}`,
      { tracer: '4byteTracer' },
    ]);
    assert.deepEqual(block.body.result, [{ txHash: hash, result: fourByte }]);
    // A name geth has no tracer for is evaluated as a JavaScript tracer: an unknown identifier.
    const unknown = await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'nopeTracer' }]);
    assert.equal(unknown.body.error.message, 'ReferenceError: nopeTracer is not defined at <eval>:1:2');
  });

  it('leaves out a DELEGATECALL into a precompile from the 4byteTracer, as geth judges the code run', async () => {
    // MSTORE 0xdeadbeef at 28, then DELEGATECALL(gas, 0x02 (sha256), 28, 4, 0, 0) and again
    // to 0xdd, an account without code: only the latter counts.
    const call = (target: string) => `600060006004601c${target}5af450`;
    const code = `0x63deadbeef600052${call('6002')}${call('60dd')}00`;
    const at = '0x00000000000000000000000000000000000000cd';
    const trace = await rpc(suite.url, 'debug_traceCall', [
      { from: EWOQ, to: at },
      'latest',
      { tracer: '4byteTracer', stateOverrides: { [at]: { code } } },
    ]);
    assert.deepEqual(trace.body.result, { '0xdeadbeef-0': 1 });
  });

  it('names a CALL made inside a STATICCALL a CALL, as geth names frames by their opcode', async () => {
    // 0xe1 STATICCALLs 0xe2, which CALLs 0xe3 (no value, so allowed in the static context).
    const [x, y, z] = ['e1', 'e2', 'e3'].map((a) => `0x${'00'.repeat(19)}${a}`);
    const overrides = {
      [x]: { code: '0x600060006000600060e25afa5000' },
      [y]: { code: '0x6000600060006000600060e35af15000' },
    };
    const trace = (
      await rpc(suite.url, 'debug_traceCall', [
        { from: EWOQ, to: x },
        'latest',
        { tracer: 'callTracer', stateOverrides: overrides },
      ])
    ).body.result;
    const [outer] = trace.calls;
    assert.deepEqual([outer.type, outer.from, outer.to, outer.value], ['STATICCALL', x, y, undefined]);
    const [inner] = outer.calls;
    assert.deepEqual([inner.type, inner.from, inner.to, inner.value], ['CALL', y, z, '0x0']);
  });
});
