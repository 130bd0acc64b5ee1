/**
 * How a Subnet-EVM L1's stateful precompiles refuse, as subnet-evm does: a refused call fails
 * with the precompile's error (not a revert), so `eth_call`/`eth_estimateGas` answer -32000 with
 * its words and a calling contract sees no return data; malformed calldata is worded as the
 * reference's dispatcher and go-ethereum's ABI decoder word it; the allow-list check comes
 * before an event's gas is charged; and the pool checks a sender's funds before the tx allow list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeFunctionResult, encodeFunctionData, parseAbi, zeroAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  ALLOW_LIST_ABI,
  compile,
  createSubnetEvmChain,
  EWOQ_EVM_KEY,
  evmClients,
  intrinsicGas,
  PRECOMPILES,
} from './subnet-evm-helpers.js';

const CHAIN_ID = 77_041;
const GWEI = 10n ** 9n;
const MINT_ABI = parseAbi(['function mintNativeCoin(address addr, uint256 amount)']);
const REWARD_ABI = parseAbi(['function setRewardAddress(address addr)']);
const FEE_ABI = parseAbi([
  'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
]);
const PROBE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Probe {
  function viaCall(address p, bytes calldata d) external returns (bool ok, bytes memory ret) { (ok, ret) = p.call(d); }
  function viaStatic(address p, bytes calldata d) external view returns (bool ok, bytes memory ret) { (ok, ret) = p.staticcall(d); }
}`;

describe('Subnet-EVM precompile refusals', () => {
  let net: Devnet;
  let rpcUrl: string;
  const ewoq = privateKeyToAccount(EWOQ_EVM_KEY);
  const stranger = privateKeyToAccount(generatePrivateKey());

  before(async () => {
    net = await startDevnet();
    const admin = { blockTimestamp: 0, adminAddresses: [ewoq.address] };
    const { chainId } = await createSubnetEvmChain(net.url, {
      config: {
        chainId: CHAIN_ID,
        feeConfig: { gasLimit: 15_000_000, minBaseFee: 25_000_000_000, targetGas: 15_000_000 },
        txAllowListConfig: admin,
        contractNativeMinterConfig: admin,
        feeManagerConfig: admin,
        rewardManagerConfig: admin,
      },
      alloc: { [ewoq.address.slice(2)]: { balance: '0x' + (10n ** 24n).toString(16) } },
    });
    rpcUrl = `${net.url}/ext/bc/${chainId}/rpc`;
  });
  after(async () => {
    await net?.stop();
  });

  const ethCall = async (from: Hex, to: Hex, data: Hex, gas?: bigint, method = 'eth_call') => {
    const tx = { from, to, data, ...(gas === undefined ? {} : { gas: `0x${gas.toString(16)}` }) };
    return (await rpc(rpcUrl, method, [tx, 'latest'])).body;
  };

  it("fails a refused call with the precompile's error at -32000, no revert data, as subnet-evm", async () => {
    const setAdmin = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setAdmin',
      args: [stranger.address],
    });
    const refusal = `cannot modify allow list: modify address: ${stranger.address}, from role: NoRole, to role: AdminRole`;
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const body = await ethCall(stranger.address, PRECOMPILES.txAllowList, setAdmin, undefined, method);
      assert.deepEqual(body.error, { code: -32000, message: refusal }, method);
    }

    // A contract whose call is refused gets no return data back, whether the precompile refused
    // the caller or a static call's write.
    const { Probe } = compile(PROBE);
    const c = evmClients(rpcUrl, CHAIN_ID, ewoq);
    const deployed = await c.client.waitForTransactionReceipt({
      hash: await c.wallet.deployContract({
        abi: Probe.abi,
        bytecode: Probe.bytecode,
        chain: c.chain,
        account: ewoq,
      } as any),
    });
    const probe = deployed.contractAddress!;
    const setEnabled = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setEnabled',
      args: [probe],
    });
    // Mined, the refusal costs all the gas and the trace names the error, with no revert reason.
    const refused = await c.client.waitForTransactionReceipt({
      hash: await c.wallet.sendTransaction({
        to: PRECOMPILES.rewardManager,
        data: encodeFunctionData({ abi: REWARD_ABI, functionName: 'setRewardAddress', args: [zeroAddress] }),
        gas: 100_000n,
        chain: c.chain,
        account: ewoq,
      } as any),
    });
    assert.deepEqual([refused.status, refused.gasUsed], ['reverted', 100_000n]);
    const { body: trace } = await rpc(rpcUrl, 'debug_traceTransaction', [
      refused.transactionHash,
      { tracer: 'callTracer' },
    ]);
    assert.equal(trace.result.error, 'reward address cannot be empty');
    assert.equal(trace.result.revertReason, undefined);
    assert.equal(trace.result.output, undefined);
    for (const via of ['viaCall', 'viaStatic']) {
      const data = encodeFunctionData({
        abi: Probe.abi,
        functionName: via,
        args: [PRECOMPILES.txAllowList, setEnabled],
      } as any);
      const body = await ethCall(ewoq.address, probe, data);
      const result = decodeFunctionResult({ abi: Probe.abi, functionName: via, data: body.result } as any);
      assert.deepEqual(result, [false, '0x'], via);
    }
  });

  it('words malformed calldata and bad fee configs as subnet-evm', async () => {
    const cases: [Hex, Hex, string][] = [
      [PRECOMPILES.txAllowList, '0x', 'missing function selector to precompile - input length (0)'],
      [PRECOMPILES.txAllowList, '0x01', 'missing function selector to precompile - input length (1)'],
      [PRECOMPILES.txAllowList, '0x12345678', 'invalid function selector: 0x12345678'],
      [
        PRECOMPILES.txAllowList,
        '0x704b6c02',
        'abi: attempting to unmarshal an empty string while arguments are expected',
      ],
      [
        PRECOMPILES.txAllowList,
        '0x704b6c020000000000',
        'abi: cannot marshal in to go type: length insufficient 5 require 32',
      ],
      [
        PRECOMPILES.minter,
        encodeFunctionData({ abi: MINT_ABI, functionName: 'mintNativeCoin', args: [ewoq.address, 1n] }).slice(
          0,
          4 * 2 + 2 + 40 * 2,
        ) as Hex,
        'failed to unpack input: abi: cannot marshal in to go type: length insufficient 40 require 64',
      ],
    ];
    const fee = (values: bigint[]) =>
      encodeFunctionData({ abi: FEE_ABI, functionName: 'setFeeConfig', args: values as any });
    const good = [15_000_000n, 2n, 25n * GWEI, 15_000_000n, 36n, 0n, 1_000_000n, 200_000n];
    cases.push(
      [
        PRECOMPILES.feeManager,
        fee([0n, ...good.slice(1)]),
        'cannot verify fee config: gasLimit cannot be less than or equal to 0: gasLimit = 0',
      ],
      [
        PRECOMPILES.feeManager,
        fee([...good.slice(0, 5), 2n, 1n, 0n]),
        'cannot verify fee config: minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 2, maxBlockGasCost = 1',
      ],
      [
        PRECOMPILES.feeManager,
        fee([...good.slice(0, 6), 1n << 64n, 0n]),
        'cannot verify fee config: maxBlockGasCost is not a valid uint64: maxBlockGasCost = 18446744073709551616',
      ],
    );
    for (const [to, data, message] of cases) {
      const body = await ethCall(ewoq.address, to, data);
      assert.deepEqual(body.error, { code: -32000, message }, data);
    }
    // go-ethereum's ABI decoder reads an address from a word's last 20 bytes, whatever the rest holds.
    const setEnabled = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setEnabled',
      args: [stranger.address],
    });
    const dirty = `${setEnabled.slice(0, 10)}${'ff'.repeat(12)}${stranger.address.slice(2)}` as Hex;
    assert.deepEqual(await ethCall(ewoq.address, PRECOMPILES.txAllowList, dirty), {
      jsonrpc: '2.0',
      id: 1,
      result: '0x',
    });
  });

  it('refuses a non-enabled caller before charging for the event, as subnet-evm', async () => {
    // Gas for the function's own cost but not its event: the refusal, not "out of gas".
    const setAdmin = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setAdmin',
      args: [stranger.address],
    });
    const mint = encodeFunctionData({
      abi: MINT_ABI,
      functionName: 'mintNativeCoin',
      args: [stranger.address, 1n],
    });
    for (const [to, data, cost, message] of [
      [
        PRECOMPILES.txAllowList,
        setAdmin,
        20_000n,
        `cannot modify allow list: modify address: ${stranger.address}, from role: NoRole, to role: AdminRole`,
      ],
      [PRECOMPILES.minter, mint, 30_000n, `non-enabled cannot mint: ${stranger.address}`],
    ] as const) {
      const body = await ethCall(stranger.address, to, data, intrinsicGas(data) + cost + 100n);
      assert.deepEqual(body.error, { code: -32000, message }, to);
    }
  });

  it("checks a transaction's funds before the tx allow list, as subnet-evm's pool", async () => {
    const { wallet, chain } = evmClients(rpcUrl, CHAIN_ID, stranger);
    const send = wallet.sendTransaction({
      to: ewoq.address,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 100n * GWEI,
      maxPriorityFeePerGas: 1n,
      chain,
      account: stranger,
    } as any);
    await assert.rejects(send, (err: any) => {
      const cost = 21_000n * 100n * GWEI + 1n;
      assert.equal(
        err.details,
        `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}`,
      );
      return true;
    });
  });

  it("leaves out of a block a sender an earlier transaction took off the tx allow list, as subnet-evm's worker", async () => {
    const member = privateKeyToAccount(generatePrivateKey());
    const admin = evmClients(rpcUrl, CHAIN_ID, ewoq);
    const fees = { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI, chain: admin.chain };
    const mined = async (hash: Promise<Hex>) => admin.client.waitForTransactionReceipt({ hash: await hash });
    await mined(admin.wallet.sendTransaction({ to: member.address, value: 10n ** 18n, ...fees } as any));
    const setAdmin = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setAdmin',
      args: [member.address],
    });
    await mined(
      admin.wallet.sendTransaction({ to: PRECOMPILES.txAllowList, data: setAdmin, ...fees } as any),
    );

    // The member's second transaction waits behind a nonce gap; its first, filling the gap,
    // takes the member off the list, so the second meets the list's refusal in the same block.
    const { wallet } = evmClients(rpcUrl, CHAIN_ID, member);
    const queued = await wallet.sendTransaction({
      to: ewoq.address,
      value: 1n,
      gas: 21_000n,
      nonce: 1,
      account: member,
      ...fees,
    } as any);
    const setNone = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setNone',
      args: [member.address],
    });
    const demoted = await mined(
      wallet.sendTransaction({
        to: PRECOMPILES.txAllowList,
        data: setNone,
        gas: 100_000n,
        nonce: 0,
        account: member,
        ...fees,
      } as any),
    );
    assert.equal(demoted.status, 'success');
    // A later block is built too; the refused transaction stays pooled, in no block.
    await mined(admin.wallet.sendTransaction({ to: ewoq.address, value: 1n, ...fees } as any));
    assert.equal((await rpc(rpcUrl, 'eth_getTransactionReceipt', [queued])).body.result, null);
    const pending = (await rpc(rpcUrl, 'eth_getTransactionByHash', [queued])).body.result;
    assert.equal(pending?.blockNumber, null);
    assert.equal(await admin.client.getTransactionCount({ address: member.address }), 1);
  });

  it("adds a mint to the balance modulo 2^256, as subnet-evm's uint256 AddBalance", async () => {
    const admin = evmClients(rpcUrl, CHAIN_ID, ewoq);
    const target = privateKeyToAccount(generatePrivateKey()).address;
    for (const amount of [(1n << 256n) - 1n, 2n]) {
      const receipt = await admin.client.waitForTransactionReceipt({
        hash: await admin.wallet.sendTransaction({
          to: PRECOMPILES.minter,
          data: encodeFunctionData({ abi: MINT_ABI, functionName: 'mintNativeCoin', args: [target, amount] }),
          gas: 100_000n,
          maxFeePerGas: 100n * GWEI,
          maxPriorityFeePerGas: GWEI,
          chain: admin.chain,
        } as any),
      });
      assert.equal(receipt.status, 'success');
    }
    assert.equal((await rpc(rpcUrl, 'eth_getBalance', [target, 'latest'])).body.result, '0x1');
  });
});
