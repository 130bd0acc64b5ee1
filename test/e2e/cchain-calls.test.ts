/**
 * eth_call, eth_estimateGas, eth_createAccessList and debug_traceCall hold their sender to what
 * geth's calls hold it to: any address may call (a contract too), the sender must own the value
 * it moves and the gas it offers to pay for, and an estimate stays within what the sender can pay.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeFunctionData, parseEther, parseGwei, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { cChainClients, EWOQ } from '../helpers/cchain-clients.js';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Vault {
  uint256 public pinged;
  function ping() external returns (uint256) { return ++pinged; }
  /** Calls back into itself and reads its own code: what a call from a contract's own address does. */
  function selfCall() external returns (uint256 count, uint256 codeSize) {
    count = this.ping();
    codeSize = address(this).code.length;
  }
  function broken() external pure { assert(false); }
  receive() external payable {}
}`;

/** Addresses given code by state overrides in the tests below. */
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';

describe('C-chain calls and their sender', () => {
  let net: Devnet;
  let url: string;
  let client: any;
  let wallet: any;
  let vault: Hex;
  const artifacts = compileSolidity('Vault.sol', SOURCE, 'cancun');

  before(async () => {
    net = await startDevnet();
    url = net.facts.urls.cChainRpc;
    ({ client, wallet } = cChainClients(url));
    const hash = await wallet.deployContract({
      abi: artifacts.Vault.abi,
      bytecode: artifacts.Vault.bytecode,
    });
    vault = (await client.waitForTransactionReceipt({ hash })).contractAddress;
  });
  after(async () => {
    await net?.stop();
  });

  it('runs calls from an address with code, as geth skips a call’s sender checks', async () => {
    // A Safe or any contract account is simulated by calling from its address (EIP-3607 binds
    // transactions, not calls).
    const { result } = await client.simulateContract({
      account: vault,
      address: vault,
      abi: artifacts.Vault.abi,
      functionName: 'selfCall',
    });
    const [count, codeSize] = result as [bigint, bigint];
    assert.equal(count, 1n);
    assert.ok(codeSize > 0n, 'the sender still has its code during the call');
    const gas = await client.estimateContractGas({
      account: vault,
      address: vault,
      abi: artifacts.Vault.abi,
      functionName: 'selfCall',
    });
    assert.ok(gas > 21_000n && gas < 200_000n, `estimate ${gas}`);
    const data = encodeFunctionData({ abi: artifacts.Vault.abi, functionName: 'selfCall' });
    const list = await rpc(url, 'eth_createAccessList', [{ from: vault, to: vault, data }, 'latest']);
    assert.equal(list.body.error, undefined, JSON.stringify(list.body.error));
    assert.equal(list.body.result.error, undefined);
    const trace = await rpc(url, 'debug_traceCall', [
      { from: vault, to: vault, data },
      'latest',
      { tracer: 'callTracer' },
    ]);
    assert.equal(trace.body.result.from, vault.toLowerCase());
    assert.equal(trace.body.result.calls[0].to, vault.toLowerCase());
    assert.equal(trace.body.result.error, undefined);
    // A tracer that reads the sender before the run sees it as it is, code included.
    const prestate = await rpc(url, 'debug_traceCall', [
      { from: vault, to: vault, data },
      'latest',
      { tracer: 'prestateTracer' },
    ]);
    assert.equal(prestate.body.result[vault.toLowerCase()].code, await client.getCode({ address: vault }));
    // None of these calls changed the contract.
    assert.equal(
      await client.readContract({ address: vault, abi: artifacts.Vault.abi, functionName: 'pinged' }),
      0n,
    );
  });

  it('refuses a call moving more value than its sender has, priced or not', async () => {
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    const call = await rpc(url, 'eth_call', [{ from: poor, to: EWOQ, value: '0x1' }, 'latest']);
    assert.equal(call.body.error.code, -32000);
    assert.equal(
      call.body.error.message,
      `err: insufficient funds for gas * price + value: address ${poor} have 0 want 1 (supplied gas 50000000)`,
    );
    const estimate = await rpc(url, 'eth_estimateGas', [{ from: poor, to: EWOQ, value: '0x1' }]);
    assert.match(
      estimate.body.error.message,
      new RegExp(
        `^failed with \\d+ gas: insufficient funds for gas \\* price \\+ value: address ${poor} have 0 want 1$`,
      ),
    );
    await assert.rejects(client.call({ account: poor, to: EWOQ, value: 1n }), /insufficient funds/);
    // With a price, the gas offered counts too: gas × price + value.
    const priced = await rpc(url, 'eth_call', [
      { from: EWOQ, to: EWOQ, value: '0x1', gas: '0x5208', gasPrice: '0x' + (10n ** 30n).toString(16) },
      'latest',
    ]);
    assert.match(
      priced.body.error.message,
      /^err: insufficient funds for gas \* price \+ value: address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC have \d+ want 21000000000000000000000000000000001 \(supplied gas 21000\)$/,
    );
    // What the sender has is enough.
    assert.equal(
      (await rpc(url, 'eth_call', [{ from: EWOQ, to: poor, value: '0x1' }, 'latest'])).body.result,
      '0x',
    );
  });

  it('estimates within the gas its sender can pay for at the fee cap it names', async () => {
    const modest = privateKeyToAccount(generatePrivateKey());
    const funding = await wallet.sendTransaction({ to: modest.address, value: parseEther('0.01') });
    await client.waitForTransactionReceipt({ hash: funding });
    // 0.01 AVAX pays for 400,000 gas at 25 gwei: far less than the call gas cap, enough for a
    // transfer or a contract call (viem names the fees it will pay when it estimates).
    const fees = { maxFeePerGas: parseGwei('25'), maxPriorityFeePerGas: parseGwei('1') };
    assert.equal(
      await client.estimateGas({ account: modest.address, to: EWOQ, value: 1n, ...fees }),
      21_000n,
    );
    // A plain transfer is exactly 21,000 without a price too.
    const plain = await rpc(url, 'eth_estimateGas', [{ from: EWOQ, to: modest.address, value: '0x1' }]);
    assert.equal(plain.body.result, '0x5208');
    const gas = await client.estimateContractGas({
      account: modest.address,
      address: vault,
      abi: artifacts.Vault.abi,
      functionName: 'ping',
      ...fees,
    });
    assert.ok(gas > 21_000n && gas < 100_000n, `estimate ${gas}`);
    // At 10^12 wei a gas unit the balance pays for 10,000 gas: less than any transaction needs.
    const dear = await rpc(url, 'eth_estimateGas', [
      { from: modest.address, to: EWOQ, maxFeePerGas: '0xe8d4a51000' },
    ]);
    assert.equal(dear.body.error.message, 'gas required exceeds allowance (10000)');
    // A value the balance does not exceed leaves nothing for gas.
    const all = await rpc(url, 'eth_estimateGas', [
      { from: modest.address, to: EWOQ, value: '0x' + parseEther('0.01').toString(16), ...hexFees(fees) },
    ]);
    assert.equal(all.body.error.message, 'insufficient funds for transfer');
  });

  it('words failed runs as geth: empty reverts, panics and the engine’s exceptions', async () => {
    const failure = async (method: string, call: Record<string, string>, code: Record<string, string>) => {
      const overrides = Object.fromEntries(Object.entries(code).map(([a, c]) => [a, { code: c }]));
      return (await rpc(url, method, [{ from: EWOQ, ...call }, 'latest', overrides])).body.error;
    };
    // PUSH0 PUSH0 REVERT: a revert without data is a plain -32000, without data.
    for (const method of ['eth_call', 'eth_estimateGas'])
      assert.deepEqual(await failure(method, { to: A }, { [A]: '0x5f5ffd' }), {
        code: -32000,
        message: 'execution reverted',
      });
    // Panic(0x01) from Solidity, and a code geth has no words for.
    await assert.rejects(
      client.simulateContract({
        account: EWOQ,
        address: vault,
        abi: artifacts.Vault.abi,
        functionName: 'broken',
      }),
      (err: any) => {
        assert.match(err.details, /^execution reverted: assert\(false\)$/);
        return true;
      },
    );
    const panic99 = '0x7f4e487b71' + '00'.repeat(28) + '5f52609960045260245ffd';
    const unknown = await failure('eth_call', { to: A }, { [A]: panic99 });
    assert.equal(unknown.code, 3);
    assert.equal(unknown.message, 'execution reverted: unknown panic code: 0x99');
    // PUSH1 0 JUMP.
    assert.equal(
      (await failure('eth_call', { to: A }, { [A]: '0x600056' })).message,
      'invalid jump destination',
    );
    // Init code returning 24,577 bytes: one more than a contract may hold.
    for (const method of ['eth_call', 'eth_estimateGas'])
      assert.equal((await failure(method, { data: '0x620060015ff3' }, {})).message, 'max code size exceeded');
    // A STATICCALL into code that writes: the inner frame fails with write protection.
    const staticCall = '0x5f5f5f5f73' + B.slice(2) + '5afa00';
    const trace = await rpc(url, 'debug_traceCall', [
      { from: EWOQ, to: A },
      'latest',
      { tracer: 'callTracer', stateOverrides: { [A]: { code: staticCall }, [B]: { code: '0x60015f55' } } },
    ]);
    assert.equal(trace.body.result.calls[0].type, 'STATICCALL');
    assert.equal(trace.body.result.calls[0].error, 'write protection');
    // A message refused before it runs is a failed trace, in coreth's words.
    const poor = privateKeyToAccount(generatePrivateKey()).address;
    const refused = await rpc(url, 'debug_traceCall', [{ from: poor, to: EWOQ, value: '0x1' }, 'latest', {}]);
    assert.equal(
      refused.body.error.message,
      `tracing failed: insufficient funds for gas * price + value: address ${poor} have 0 want 1`,
    );
  });

  it('runs a pending call as the next block, and traces none on top of pending', async () => {
    // NUMBER PUSH0 MSTORE TIMESTAMP PUSH1 32 MSTORE PUSH1 64 PUSH0 RETURN
    const code = { [A]: { code: '0x435f52426020526040' + '5ff3' } };
    const read = async (block: string) => {
      const r = await rpc(url, 'eth_call', [{ from: EWOQ, to: A }, block, code]);
      return [BigInt(r.body.result.slice(0, 66)), BigInt('0x' + r.body.result.slice(66))];
    };
    const head = await client.getBlock();
    assert.deepEqual(await read('latest'), [head.number, head.timestamp]);
    const [number, time] = await read('pending');
    assert.equal(number, head.number + 1n);
    assert.ok(time >= head.timestamp);
    // A block override of the base fee leaves an unpriced call without one, as geth.
    const based = await rpc(url, 'eth_call', [
      { from: EWOQ, to: EWOQ },
      'latest',
      {},
      { baseFeePerGas: '0x3b9aca00' },
    ]);
    assert.equal(based.body.result, '0x');
    const traced = await rpc(url, 'debug_traceCall', [{ from: EWOQ, to: EWOQ }, 'pending', {}]);
    assert.equal(traced.body.error.message, 'tracing on top of pending is not supported');
    const beyond = await rpc(url, 'debug_traceCall', [{ from: EWOQ, to: EWOQ }, '0xffffff', {}]);
    assert.equal(beyond.body.error.message, 'cannot query unfinalized data');
  });
});

function hexFees(fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) {
  return {
    maxFeePerGas: '0x' + fees.maxFeePerGas.toString(16),
    maxPriorityFeePerGas: '0x' + fees.maxPriorityFeePerGas.toString(16),
  };
}
