/**
 * A trace's `timeout` (geth's TraceConfig, default 5 s as coreth's defaultTraceTimeout): a trace
 * still running when it passes stops with `execution timeout`, the whole answer for a
 * transaction or a call, that transaction's `error` in a block trace (the block's other
 * transactions still traced on their real state); a timeout Go cannot parse is refused in Go's
 * words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, parseEther, type Hex } from 'viem';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Spinner {
  uint256 public sink;
  function spin(uint256 n) external {
    uint256 x;
    for (uint256 i; i < n; i++) x += i;
    sink = x;
  }
}`;

const TIMED_OUT = { code: -32000, message: 'execution timeout' };

describe('C-chain trace timeouts', () => {
  // Blocks every second, so the loop and a transfer sent right after it share one.
  const suite = cChainSuite({ args: ['--block-time', '1000'] });
  const artifacts = compileSolidity('Spinner.sol', SOURCE, 'cancun');
  const state = {} as { spinner: Hex; spinHash: Hex; transferHash: Hex; block: Hex };

  it('mines a long loop and a transfer in one block', async () => {
    const { client, wallet } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Spinner.abi,
      bytecode: artifacts.Spinner.bytecode,
    });
    state.spinner = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const nonce = await client.getTransactionCount({ address: EWOQ, blockTag: 'pending' });
    state.spinHash = await wallet.writeContract({
      address: state.spinner,
      abi: artifacts.Spinner.abi,
      functionName: 'spin',
      args: [20_000n],
      gas: 3_000_000n,
      nonce,
    });
    state.transferHash = await wallet.sendTransaction({
      to: '0x00000000000000000000000000000000000000aa',
      value: parseEther('1'),
      nonce: nonce + 1,
    });
    const spun = await client.waitForTransactionReceipt({ hash: state.spinHash });
    const sent = await client.waitForTransactionReceipt({ hash: state.transferHash });
    assert.equal(spun.status, 'success');
    assert.equal(spun.blockNumber, sent.blockNumber);
    state.block = `0x${spun.blockNumber.toString(16)}`;
  });

  it('stops a transaction trace at its timeout, and traces it whole by default', async () => {
    const { url } = suite;
    const cut = await rpc(url, 'debug_traceTransaction', [state.spinHash, { timeout: '1ns' }]);
    assert.deepEqual(cut.body.error, TIMED_OUT);
    const whole = await rpc(url, 'debug_traceTransaction', [state.spinHash, { tracer: 'callTracer' }]);
    const receipt = await suite.client.getTransactionReceipt({ hash: state.spinHash });
    assert.equal(BigInt(whole.body.result.gasUsed), receipt.gasUsed);
  });

  it("gives a block trace the cut transaction's error and the others' traces", async () => {
    const { url } = suite;
    const config = { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } };
    const full = (await rpc(url, 'debug_traceBlockByNumber', [state.block, config])).body.result;
    const cut = (await rpc(url, 'debug_traceBlockByNumber', [state.block, { ...config, timeout: '1ns' }]))
      .body.result;
    assert.equal(full.length, 2);
    assert.deepEqual(cut[0], { txHash: state.spinHash, error: 'execution timeout' });
    // The transfer runs no code, so no clock is read: it is traced on the state the loop left.
    assert.deepEqual(cut[1], full[1]);
    assert.equal(cut[1].txHash, state.transferHash);
  });

  it('stops a traced call at its timeout, and the node goes on answering', async () => {
    const { url, client } = suite;
    const call = {
      from: EWOQ,
      to: state.spinner,
      data: encodeFunctionData({ abi: artifacts.Spinner.abi, functionName: 'spin', args: [100_000n] }),
      gas: '0x1c9c380',
    };
    const cut = await rpc(url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer', timeout: '1ns' }]);
    assert.deepEqual(cut.body.error, TIMED_OUT);
    const traced = await rpc(url, 'debug_traceCall', [
      call,
      'latest',
      { tracer: 'callTracer', timeout: '1m' },
    ]);
    assert.equal(traced.body.result.type, 'CALL');
    assert.equal((await client.getBlockNumber()) > 0n, true);
  });

  it("refuses a timeout Go cannot parse, in Go's words", async () => {
    const { url } = suite;
    const ask = (timeout: unknown) => rpc(url, 'debug_traceTransaction', [state.transferHash, { timeout }]);
    assert.deepEqual((await ask('abc')).body.error, {
      code: -32000,
      message: 'time: invalid duration "abc"',
    });
    assert.deepEqual((await ask('5')).body.error, {
      code: -32000,
      message: 'time: missing unit in duration "5"',
    });
    const typed = (await ask(5)).body.error;
    assert.equal(typed.code, -32602);
    assert.match(
      typed.message,
      /cannot unmarshal number into Go struct field TraceConfig.Timeout of type string/,
    );
  });
});
