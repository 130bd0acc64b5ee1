/**
 * coreth's eth_callDetailed (a call's gas, failure code and text beside its return data, where
 * eth_call answers a failure as an error) and eth_getBadBlocks; Subnet-EVM serves both too, from
 * the same handlers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, type Hex } from 'viem';
import { cChainSuite } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Outcomes {
  uint256 public stored = 7;
  function ok() external view returns (uint256) { return stored * 6; }
  function no() external pure { revert("nope"); }
  function bare() external pure { revert(); }
}`;

describe('C-chain eth_callDetailed and eth_getBadBlocks', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('Outcomes.sol', SOURCE, 'cancun');
  let contract: Hex;

  const calling = (functionName: 'ok' | 'no' | 'bare') => ({
    to: contract,
    data: encodeFunctionData({ abi: artifacts.Outcomes.abi, functionName }),
  });

  it('answers a successful call with its gas and return data', async () => {
    const { client, wallet, url } = suite;
    const hash = await wallet.deployContract({
      abi: artifacts.Outcomes.abi,
      bytecode: artifacts.Outcomes.bytecode,
    });
    contract = (await client.waitForTransactionReceipt({ hash })).contractAddress as Hex;
    const detailed = (await rpc(url, 'eth_callDetailed', [calling('ok'), 'latest'])).body.result;
    const plain = (await rpc(url, 'eth_call', [calling('ok'), 'latest'])).body.result;
    const traced = (await rpc(url, 'debug_traceCall', [calling('ok'), 'latest', { tracer: 'callTracer' }]))
      .body.result;
    assert.deepEqual(detailed, { gas: Number(traced.gasUsed), errCode: 0, err: '', returnData: plain });
    assert.equal(BigInt(plain), 42n);
  });

  it('answers failures in the result: a revert with a reason as code 3, others as code 0', async () => {
    const { url } = suite;
    const reverted = (await rpc(url, 'eth_callDetailed', [calling('no'), 'latest'])).body.result;
    const asError = (await rpc(url, 'eth_call', [calling('no'), 'latest'])).body.error;
    assert.equal(reverted.errCode, 3);
    assert.equal(reverted.err, 'execution reverted: nope');
    assert.equal(reverted.returnData, asError.data);
    assert.equal(typeof reverted.gas, 'number');
    const bare = (await rpc(url, 'eth_callDetailed', [calling('bare'), 'latest'])).body.result;
    assert.deepEqual(
      { ...bare, gas: 0 },
      { gas: 0, errCode: 0, err: 'execution reverted', returnData: '0x' },
    );
  });

  it('refuses a call that cannot run as eth_call does', async () => {
    const { url } = suite;
    const broke = { from: '0x00000000000000000000000000000000000000b0', ...calling('ok'), value: '0x1' };
    const detailed = (await rpc(url, 'eth_callDetailed', [broke, 'latest'])).body.error;
    const plain = (await rpc(url, 'eth_call', [broke, 'latest'])).body.error;
    assert.equal(detailed.code, -32000);
    assert.equal(detailed.message, plain.message);
    const extra = (await rpc(url, 'eth_callDetailed', [calling('ok'), 'latest', {}, {}])).body.error;
    assert.deepEqual(extra, { code: -32602, message: 'too many arguments, want at most 3' });
  });

  it('has no bad blocks', async () => {
    assert.deepEqual((await rpc(suite.url, 'eth_getBadBlocks', [])).body.result, []);
  });
});
