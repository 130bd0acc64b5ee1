/**
 * Issue 8: a Subnet-EVM chain created through the P-chain (avalanchejs v5 builders) and driven
 * with viem — its fee config and rules methods, every allow-list role, the deployer and
 * transaction allow lists, minting, fee changes that take effect for the next blocks, reward
 * settings, and precompile upgrades that activate and disable at their timestamps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pvm } from '@avalabs/avalanchejs';
import {
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  parseAbi,
  parseEventLogs,
  webSocket,
  zeroAddress,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  ALLOW_LIST_ABI,
  compile,
  createSubnetEvmChain,
  EWOQ_EVM,
  EWOQ_EVM_KEY,
  evmClients,
  intrinsicGas,
  pAddress,
  PRECOMPILES,
} from './subnet-evm-helpers.js';
import { EWOQ_ADDR, EWOQ_KEY, signAndIssue } from './pchain-helpers.js';

const GWEI = 1_000_000_000n;
const ETHER = 10n ** 18n;
const CHAIN_ID = 77_001;
const BLACKHOLE = '0x0100000000000000000000000000000000000000';

const MINTER_ABI = [
  ...ALLOW_LIST_ABI,
  {
    type: 'function',
    name: 'mintNativeCoin',
    inputs: [
      { name: 'addr', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'event',
    name: 'NativeCoinMinted',
    inputs: [
      { name: 'sender', type: 'address', indexed: true },
      { name: 'recipient', type: 'address', indexed: true },
      { name: 'amount', type: 'uint256', indexed: false },
    ],
  },
] as const;
const FEE_FIELDS = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const;
const FEE_MANAGER_ABI = [
  ...ALLOW_LIST_ABI,
  {
    type: 'function',
    name: 'setFeeConfig',
    inputs: FEE_FIELDS.map((name) => ({ name, type: 'uint256' })),
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'getFeeConfig',
    inputs: [],
    outputs: FEE_FIELDS.map((name) => ({ name, type: 'uint256' })),
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getFeeConfigLastChangedAt',
    inputs: [],
    outputs: [{ name: 'blockNumber', type: 'uint256' }],
    stateMutability: 'view',
  },
] as const;
const FEE_CHANGED_ABI = parseAbi([
  'event FeeConfigChanged(address indexed sender, (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep) oldFeeConfig, (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep) newFeeConfig)',
]);
const REWARD_ABI = [
  ...ALLOW_LIST_ABI,
  {
    type: 'function',
    name: 'setRewardAddress',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  { type: 'function', name: 'allowFeeRecipients', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'disableRewards', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  {
    type: 'function',
    name: 'currentRewardAddress',
    inputs: [],
    outputs: [{ name: 'rewardAddress', type: 'address' }],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'areFeeRecipientsAllowed',
    inputs: [],
    outputs: [{ name: 'isAllowed', type: 'bool' }],
    stateMutability: 'view',
  },
] as const;
const WARP_ID_ABI = [
  {
    type: 'function',
    name: 'getBlockchainID',
    inputs: [],
    outputs: [{ name: 'blockchainID', type: 'bytes32' }],
    stateMutability: 'view',
  },
] as const;

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Counter { uint256 public n; function inc() external { n++; } }`;

describe('Subnet-EVM chain', () => {
  let net: Devnet;
  let rpcUrl: string;
  let blockchainId: string;
  let created: Awaited<ReturnType<typeof createSubnetEvmChain>>;
  const ewoq = privateKeyToAccount(EWOQ_EVM_KEY);
  const other = privateKeyToAccount(generatePrivateKey());
  const third = privateKeyToAccount(generatePrivateKey());
  const outsider = privateKeyToAccount(generatePrivateKey());
  const minted = privateKeyToAccount(generatePrivateKey()).address;
  const rewardee = privateKeyToAccount(generatePrivateKey()).address;
  let upgradeAt: number;
  let c: ReturnType<typeof evmClients>;
  const fees = { maxFeePerGas: 500n * GWEI, maxPriorityFeePerGas: 1n * GWEI };
  const walletOf = (a: typeof ewoq) => evmClients(rpcUrl, CHAIN_ID, a).wallet;

  /** Sends a contract call with fixed gas (so refused calls are mined) and returns its receipt. */
  async function send(
    from: typeof ewoq,
    address: Hex,
    abi: readonly unknown[],
    functionName: string,
    args: unknown[] = [],
  ) {
    const hash = await walletOf(from).writeContract({
      address,
      abi: abi as any,
      functionName,
      args,
      gas: 300_000n,
      ...fees,
      chain: c.chain,
      account: from,
    } as any);
    return c.client.waitForTransactionReceipt({ hash });
  }
  const transfer = async (from: typeof ewoq, to: Hex, value: bigint) => {
    const hash = await walletOf(from).sendTransaction({
      to,
      value,
      gas: 21_000n,
      ...fees,
      chain: c.chain,
      account: from,
    } as any);
    return c.client.waitForTransactionReceipt({ hash });
  };
  const role = (precompile: Hex, who: Hex) =>
    c.client.readContract({
      address: precompile,
      abi: ALLOW_LIST_ABI,
      functionName: 'readAllowList',
      args: [who],
    });

  before(async () => {
    net = await startDevnet();
    const now = Math.floor(Date.now() / 1000);
    upgradeAt = now + 3_600;
    const genesis = {
      config: {
        chainId: CHAIN_ID,
        feeConfig: {
          gasLimit: 15_000_000,
          targetBlockRate: 2,
          minBaseFee: 25_000_000_000,
          targetGas: 15_000_000,
          baseFeeChangeDenominator: 36,
          minBlockGasCost: 0,
          maxBlockGasCost: 1_000_000,
          blockGasCostStep: 200_000,
        },
        allowFeeRecipients: false,
        contractDeployerAllowListConfig: { blockTimestamp: 0, adminAddresses: [EWOQ_EVM] },
        txAllowListConfig: { blockTimestamp: 0, adminAddresses: [EWOQ_EVM] },
        contractNativeMinterConfig: {
          blockTimestamp: 0,
          adminAddresses: [EWOQ_EVM],
          initialMint: { [minted]: '0x3e8' },
        },
        feeManagerConfig: { blockTimestamp: 0, adminAddresses: [EWOQ_EVM] },
        // The zero reward address disables rewards (fees to the blackhole), as the reference.
        rewardManagerConfig: {
          blockTimestamp: 0,
          adminAddresses: [EWOQ_EVM],
          initialRewardConfig: { rewardAddress: '0x0000000000000000000000000000000000000000' },
        },
        upgrades: {
          precompileUpgrades: [
            { txAllowListConfig: { blockTimestamp: upgradeAt, disable: true } },
            { warpConfig: { blockTimestamp: upgradeAt, quorumNumerator: 67 } },
          ],
        },
      },
      alloc: { [EWOQ_EVM.slice(2)]: { balance: '0x' + (1_000_000n * ETHER).toString(16) } },
      nonce: '0x0',
      timestamp: '0x0',
      gasLimit: '0xe4e1c0',
      difficulty: '0x0',
    };
    created = await createSubnetEvmChain(net.url, genesis);
    blockchainId = created.chainId;
    rpcUrl = `${net.url}/ext/bc/${blockchainId}/rpc`;
    c = evmClients(rpcUrl, CHAIN_ID, ewoq);
  });
  after(async () => {
    await net?.stop();
  });

  it('serves the chain from its genesis, with its fee config and rules', async () => {
    // The precompiles active at genesis are configured in block 0's state, as subnet-evm's
    // Genesis.toBlock does: a new chain is at height 0, no block built to configure them.
    const { body: height } = await rpc(rpcUrl, 'eth_blockNumber', []);
    assert.equal(height.result, '0x0');
    const callAt0 = async (to: Hex, abi: readonly unknown[], functionName: string, args: unknown[] = []) => {
      const data = encodeFunctionData({ abi: abi as any, functionName, args } as any);
      const { body } = await rpc(rpcUrl, 'eth_call', [{ to, data }, '0x0']);
      assert.equal(body.error, undefined, `${functionName} at block 0`);
      return decodeFunctionResult({ abi: abi as any, functionName, data: body.result } as any);
    };
    for (const precompile of [
      PRECOMPILES.txAllowList,
      PRECOMPILES.deployer,
      PRECOMPILES.minter,
      PRECOMPILES.feeManager,
      PRECOMPILES.rewardManager,
    ])
      assert.equal(await callAt0(precompile, ALLOW_LIST_ABI, 'readAllowList', [EWOQ_EVM]), 2n, precompile);
    assert.deepEqual(
      [...((await callAt0(PRECOMPILES.feeManager, FEE_MANAGER_ABI, 'getFeeConfig')) as readonly bigint[])],
      [15_000_000n, 2n, 25n * GWEI, 15_000_000n, 36n, 0n, 1_000_000n, 200_000n],
    );
    assert.equal(await callAt0(PRECOMPILES.feeManager, FEE_MANAGER_ABI, 'getFeeConfigLastChangedAt'), 0n);
    assert.equal(
      await callAt0(PRECOMPILES.rewardManager, REWARD_ABI, 'currentRewardAddress'),
      // The zero reward address disables rewards: DisableFeeRewards stores the blackhole.
      '0x0100000000000000000000000000000000000000',
    );
    assert.equal(await c.client.getBalance({ address: minted, blockNumber: 0n }), 1000n);
    const { body: code } = await rpc(rpcUrl, 'eth_getCode', [PRECOMPILES.txAllowList, '0x0']);
    assert.equal(code.result, '0x01');

    assert.equal(await c.client.getChainId(), CHAIN_ID);
    assert.equal(await c.client.getBalance({ address: EWOQ_EVM }), 1_000_000n * ETHER);
    assert.equal(await c.client.getBalance({ address: minted }), 1000n, 'initialMint at activation');
    const block0 = await c.client.getBlock({ blockNumber: 0n });
    assert.equal(block0.gasLimit, 15_000_000n);
    // Subnet-EVM headers have no atomic-tx fields: its RPCMarshalHeader writes blockGasCost but not
    // coreth's extDataHash/extDataGasUsed (nor blockExtraData).
    for (const [method, params] of [
      ['eth_getBlockByNumber', ['0x0', false]],
      ['eth_getHeaderByNumber', ['0x0']],
    ] as const) {
      const { body } = await rpc(rpcUrl, method, params);
      assert.equal(body.result.blockGasCost, '0x0', method);
      for (const field of ['extDataHash', 'extDataGasUsed', 'blockExtraData'])
        assert.equal(field in body.result, false, `${method} ${field}`);
    }

    const { body: fee } = await rpc(rpcUrl, 'eth_feeConfig', ['latest']);
    assert.equal(fee.result.feeConfig.minBaseFee, 25_000_000_000);
    assert.equal(fee.result.feeConfig.gasLimit, 15_000_000);
    assert.equal(fee.result.lastChangedAt, 0);

    const { body: cfg } = await rpc(rpcUrl, 'eth_getChainConfig', []);
    assert.equal(cfg.result.chainId, CHAIN_ID);
    // Addresses in lowercase, as Go marshals common.Address, though the genesis checksummed them.
    assert.deepEqual(cfg.result.contractDeployerAllowListConfig, {
      blockTimestamp: 0,
      adminAddresses: [EWOQ_EVM.toLowerCase()],
    });
    // Go writes both fields of the initial reward config (omitempty keeps an array).
    assert.deepEqual(cfg.result.rewardManagerConfig.initialRewardConfig, {
      allowFeeRecipients: false,
      rewardAddress: '0x0000000000000000000000000000000000000000',
    });
    assert.equal(cfg.result.upgrades.precompileUpgrades.length, 2);
    // Go's omitempty: a false allowFeeRecipients is not written.
    assert.equal('allowFeeRecipients' in cfg.result, false);
    assert.equal(cfg.result.upgrades.precompileUpgrades[0].txAllowListConfig.disable, true);

    for (const arg of [[], ['latest'], [upgradeAt - 1], ['0x' + (upgradeAt - 1).toString(16)]]) {
      const { body } = await rpc(rpcUrl, 'eth_getActiveRulesAt', arg);
      assert.equal(body.result.ethRules.IsCancun, true);
      assert.equal(body.result.avalancheRules.IsDurango, true);
      assert.deepEqual(body.result.platformRules, body.result.avalancheRules);
      assert.deepEqual(body.result.precompiles.txAllowListConfig, { timestamp: 0 });
      assert.equal(body.result.precompiles.warpConfig, undefined);
    }
    const { body: later } = await rpc(rpcUrl, 'eth_getActiveRulesAt', [upgradeAt]);
    assert.equal(later.result.precompiles.txAllowListConfig, undefined);
    assert.deepEqual(later.result.precompiles.warpConfig, { timestamp: upgradeAt });
    const { body: active } = await rpc(rpcUrl, 'eth_getActivePrecompilesAt', []);
    assert.deepEqual(active.result.feeManagerConfig, {
      blockTimestamp: 0,
      adminAddresses: [EWOQ_EVM.toLowerCase()],
    });
    const { body: bad } = await rpc(rpcUrl, 'eth_getActiveRulesAt', ['soon']);
    assert.equal(bad.error.code, -32602);
    // A number timestamp is subnet-evm's *uint64, read from the literal as sent (not JavaScript's value).
    for (const literal of ['1e3', '1.0', '-0']) {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"jsonrpc":"2.0","id":1,"method":"eth_getActiveRulesAt","params":[${literal}]}`,
      });
      const { error } = (await res.json()) as { error: { code: number; message: string } };
      assert.deepEqual(
        error,
        {
          code: -32602,
          message: `invalid argument 0: json: cannot unmarshal number ${literal} into Go value of type uint64`,
        },
        literal,
      );
    }
    // Extra arguments are refused, as geth refuses them, not ignored.
    for (const [method, params] of [
      ['eth_feeConfig', ['latest', 1]],
      ['eth_getActiveRulesAt', [0, 1]],
      ['eth_getActivePrecompilesAt', [0, 1]],
      ['eth_getChainConfig', [1]],
    ] as const) {
      const { body: extra } = await rpc(rpcUrl, method, params);
      assert.equal(extra.error?.code, -32602, method);
      assert.match(extra.error.message, /^too many arguments, want at most [01]$/, method);
    }
  });

  it('enforces the transaction allow list and every allow-list role', async () => {
    assert.equal(await role(PRECOMPILES.txAllowList, EWOQ_EVM), 2n);
    await transfer(ewoq, other.address, 10n * ETHER);
    await transfer(ewoq, third.address, 10n * ETHER);
    await transfer(ewoq, outsider.address, 10n * ETHER);
    assert.equal(await role(PRECOMPILES.txAllowList, other.address), 0n);
    // subnet-evm's words, the sender as Go prints a common.Address (checksummed).
    await assert.rejects(transfer(other, ewoq.address, 1n), (err: any) => {
      assert.equal(err.details, `cannot issue transaction from non-allow listed address: ${other.address}`);
      return true;
    });

    const enabled = await send(ewoq, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setEnabled', [other.address]);
    assert.equal(enabled.status, 'success');
    const [roleSet] = parseEventLogs({ abi: ALLOW_LIST_ABI, logs: enabled.logs });
    assert.equal(roleSet.eventName, 'RoleSet');
    assert.equal((roleSet.args as any).role, 1n);
    assert.equal((roleSet.args as any).account, other.address);
    assert.equal((roleSet.args as any).oldRole, 0n);
    // The reference's gas: the write (20,000) and the RoleSet event (375 + 4 × 375 + 8 × 32).
    assert.equal(
      enabled.gasUsed,
      intrinsicGas(
        encodeFunctionData({ abi: ALLOW_LIST_ABI, functionName: 'setEnabled', args: [other.address] }),
      ) +
        20_000n +
        2_131n,
    );
    assert.equal(await role(PRECOMPILES.txAllowList, other.address), 1n);
    assert.equal((await transfer(other, ewoq.address, 1n)).status, 'success');

    // Enabled cannot modify the list: the call is refused and its gas is consumed.
    const refused = await send(other, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setEnabled', [third.address]);
    assert.equal(refused.status, 'reverted');
    assert.equal(refused.gasUsed, 300_000n);
    await assert.rejects(
      c.client.simulateContract({
        address: PRECOMPILES.txAllowList,
        abi: ALLOW_LIST_ABI,
        functionName: 'setEnabled',
        args: [third.address],
        account: other,
      }),
      (err: any) => {
        // The reference's words: the caller named as the "modify address", roles as Role.String().
        assert.match(
          err.message,
          new RegExp(
            `cannot modify allow list: modify address: ${other.address}, from role: NoRole, to role: EnabledRole`,
          ),
        );
        return true;
      },
    );
    // Since Durango the reference ignores bytes after the arguments (non-strict unpacking).
    const setEnabled = encodeFunctionData({
      abi: ALLOW_LIST_ABI,
      functionName: 'setEnabled',
      args: [third.address],
    });
    const { body: padded } = await rpc(rpcUrl, 'eth_call', [
      { from: EWOQ_EVM, to: PRECOMPILES.txAllowList, data: `${setEnabled}00` },
      'latest',
    ]);
    assert.equal(padded.result, '0x');

    // A manager moves accounts between None and Enabled, but never touches admins or managers.
    assert.equal(
      (await send(ewoq, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setManager', [other.address])).status,
      'success',
    );
    assert.equal(await role(PRECOMPILES.txAllowList, other.address), 3n);
    assert.equal(
      (await send(other, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setEnabled', [third.address])).status,
      'success',
    );
    assert.equal(await role(PRECOMPILES.txAllowList, third.address), 1n);
    assert.equal(
      (await send(other, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setAdmin', [third.address])).status,
      'reverted',
    );
    assert.equal(
      (await send(other, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setNone', [ewoq.address])).status,
      'reverted',
    );
    assert.equal(
      (await send(other, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setNone', [third.address])).status,
      'success',
    );
    assert.equal(await role(PRECOMPILES.txAllowList, third.address), 0n);
    // An admin can make another admin, and that admin can demote the first manager.
    assert.equal(
      (await send(ewoq, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setAdmin', [third.address])).status,
      'success',
    );
    assert.equal(await role(PRECOMPILES.txAllowList, third.address), 2n);
    assert.equal(
      (await send(third, PRECOMPILES.txAllowList, ALLOW_LIST_ABI, 'setNone', [other.address])).status,
      'success',
    );
    await assert.rejects(transfer(other, ewoq.address, 1n), /non-allow listed address/);
  });

  it('lets only deployer-enabled origins create contracts', async () => {
    const { Counter } = compile(COUNTER);
    // third is an admin of the tx allow list but None on the deployer list. The creation fails
    // with the reference's words (CanCreateContract), which calls and estimates report.
    const refusal = `tx.origin ${third.address} is not authorized to deploy a contract`;
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const { body } = await rpc(rpcUrl, method, [{ from: third.address, data: Counter.bytecode }, 'latest']);
      assert.deepEqual(body.error, { code: -32000, message: refusal }, method);
    }
    const hash = await walletOf(third).deployContract({
      abi: Counter.abi,
      bytecode: Counter.bytecode,
      gas: 500_000n,
      ...fees,
      chain: c.chain,
      account: third,
    } as any);
    const failed = await c.client.waitForTransactionReceipt({ hash });
    assert.equal(failed.status, 'reverted');
    assert.equal(failed.gasUsed, 500_000n, 'the refused creation keeps its gas');
    const { body: trace } = await rpc(rpcUrl, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    assert.equal(trace.result.error, refusal);
    // The flat trace (explorers' internal transactions) drops a failed creation's result.
    const { body: flat } = await rpc(rpcUrl, 'debug_traceTransaction', [hash, { tracer: 'flatCallTracer' }]);
    assert.deepEqual(
      flat.result.map((f: any) => [f.type, f.error, f.result, f.traceAddress, f.transactionHash]),
      [['create', refusal, undefined, [], hash]],
    );
    // Replayed, the block's one transaction leaves the state root the block carries; the sender
    // paid for it.
    const { body: roots } = await rpc(rpcUrl, 'debug_intermediateRoots', [failed.blockHash]);
    const sealed = await c.client.getBlock({ blockHash: failed.blockHash });
    assert.deepEqual(roots.result, [sealed.stateRoot]);
    const { body: modified } = await rpc(rpcUrl, 'debug_getModifiedAccountsByHash', [failed.blockHash]);
    assert.ok(modified.result.includes(third.address.toLowerCase()));
    // As in geth, the receipt names the address the creation would have had; nothing lives there.
    assert.equal(await c.client.getCode({ address: failed.contractAddress! }), undefined);
    const ok = await c.client.waitForTransactionReceipt({
      hash: await c.wallet.deployContract({
        abi: Counter.abi,
        bytecode: Counter.bytecode,
        ...fees,
        chain: c.chain,
        account: ewoq,
      } as any),
    });
    assert.equal(ok.status, 'success');
    assert.ok(ok.contractAddress);
    assert.equal(
      (await send(ewoq, PRECOMPILES.deployer, ALLOW_LIST_ABI, 'setEnabled', [third.address])).status,
      'success',
    );
    const later = await c.client.waitForTransactionReceipt({
      hash: await walletOf(third).deployContract({
        abi: Counter.abi,
        bytecode: Counter.bytecode,
        ...fees,
        chain: c.chain,
        account: third,
      } as any),
    });
    assert.equal(later.status, 'success');
  });

  it('mints native coin for enabled callers only', async () => {
    const before = await c.client.getBalance({ address: rewardee });
    const receipt = await send(ewoq, PRECOMPILES.minter, MINTER_ABI, 'mintNativeCoin', [
      rewardee,
      5n * ETHER,
    ]);
    assert.equal(receipt.status, 'success');
    // The reference's gas: MintGasCost (30,000) and the event (375 + 3 × 375 + 8 × 32), no
    // allow-list read on top.
    assert.equal(
      receipt.gasUsed,
      intrinsicGas(
        encodeFunctionData({ abi: MINTER_ABI, functionName: 'mintNativeCoin', args: [rewardee, 5n * ETHER] }),
      ) +
        30_000n +
        1_756n,
    );
    assert.equal(await c.client.getBalance({ address: rewardee }), before + 5n * ETHER);
    const [event] = parseEventLogs({ abi: MINTER_ABI, logs: receipt.logs, eventName: 'NativeCoinMinted' });
    assert.equal((event.args as any).recipient, rewardee);
    assert.equal((event.args as any).amount, 5n * ETHER);
    const refused = await send(third, PRECOMPILES.minter, MINTER_ABI, 'mintNativeCoin', [
      third.address,
      ETHER,
    ]);
    assert.equal(refused.status, 'reverted');
    assert.equal(await c.client.getBalance({ address: rewardee }), before + 5n * ETHER);
  });

  it('changes the fee config for the next blocks through the fee manager', async () => {
    // Activated at genesis without an initialFeeConfig, the fee manager holds the chain's fee
    // config, stored in the genesis (block 0), as the reference's Configure stores it.
    const genesisFees = [15_000_000n, 2n, 25n * GWEI, 15_000_000n, 36n, 0n, 1_000_000n, 200_000n];
    const readFees = () =>
      c.client.readContract({
        address: PRECOMPILES.feeManager,
        abi: FEE_MANAGER_ABI,
        functionName: 'getFeeConfig',
      });
    assert.deepEqual([...((await readFees()) as readonly bigint[])], genesisFees);
    assert.equal(
      await c.client.readContract({
        address: PRECOMPILES.feeManager,
        abi: FEE_MANAGER_ABI,
        functionName: 'getFeeConfigLastChangedAt',
      }),
      0n,
    );
    const next = [20_000_000n, 2n, 50n * GWEI, 15_000_000n, 36n, 0n, 1_000_000n, 200_000n];
    const receipt = await send(ewoq, PRECOMPILES.feeManager, FEE_MANAGER_ABI, 'setFeeConfig', next);
    assert.equal(receipt.status, 'success');
    const [changed] = parseEventLogs({ abi: FEE_CHANGED_ABI, logs: receipt.logs });
    assert.deepEqual(Object.values((changed.args as any).oldFeeConfig), genesisFees);
    assert.deepEqual(Object.values((changed.args as any).newFeeConfig), next);
    const changedAt = receipt.blockNumber;
    const onChain = await c.client.readContract({
      address: PRECOMPILES.feeManager,
      abi: FEE_MANAGER_ABI,
      functionName: 'getFeeConfig',
    });
    assert.deepEqual([...(onChain as readonly bigint[])], next);
    assert.equal(
      await c.client.readContract({
        address: PRECOMPILES.feeManager,
        abi: FEE_MANAGER_ABI,
        functionName: 'getFeeConfigLastChangedAt',
      }),
      changedAt,
    );
    const { body: now } = await rpc(rpcUrl, 'eth_feeConfig', []);
    assert.equal(now.result.feeConfig.minBaseFee, 50_000_000_000);
    assert.equal(now.result.feeConfig.gasLimit, 20_000_000);
    assert.equal(now.result.lastChangedAt, Number(changedAt));
    const { body: before } = await rpc(rpcUrl, 'eth_feeConfig', ['0x' + (changedAt - 1n).toString(16)]);
    assert.equal(before.result.feeConfig.minBaseFee, 25_000_000_000);

    const after = await transfer(ewoq, rewardee, 1n);
    const block = await c.client.getBlock({ blockNumber: after.blockNumber });
    assert.equal(block.gasLimit, 20_000_000n);
    assert.ok(block.baseFeePerGas! >= 50n * GWEI, `base fee ${block.baseFeePerGas} below the new minimum`);
    // An invalid config is refused and changes nothing.
    const invalid = await send(ewoq, PRECOMPILES.feeManager, FEE_MANAGER_ABI, 'setFeeConfig', [
      0n,
      ...next.slice(1),
    ]);
    assert.equal(invalid.status, 'reverted');
    const refused = await send(third, PRECOMPILES.feeManager, FEE_MANAGER_ABI, 'setFeeConfig', next);
    assert.equal(refused.status, 'reverted');
    const { body: still } = await rpc(rpcUrl, 'eth_feeConfig', []);
    assert.equal(still.result.lastChangedAt, Number(changedAt));
  });

  it('pays fees to the reward address, then burns them when rewards are disabled', async () => {
    const read = (functionName: 'currentRewardAddress' | 'areFeeRecipientsAllowed') =>
      c.client.readContract({ address: PRECOMPILES.rewardManager, abi: REWARD_ABI, functionName });
    assert.equal((await read('currentRewardAddress')) as string, BLACKHOLE);
    assert.equal(
      (await send(ewoq, PRECOMPILES.rewardManager, REWARD_ABI, 'setRewardAddress', [rewardee])).status,
      'success',
    );
    assert.equal(((await read('currentRewardAddress')) as string).toLowerCase(), rewardee.toLowerCase());
    const start = await c.client.getBalance({ address: rewardee });
    const paid = await transfer(ewoq, ewoq.address, 1n);
    assert.equal(
      await c.client.getBalance({ address: rewardee }),
      start + paid.gasUsed * paid.effectiveGasPrice,
    );
    // subnet-evm's worker writes the address it pays into the header's coinbase (`miner`).
    const paidIn = await c.client.getBlock({ blockNumber: paid.blockNumber });
    assert.equal(paidIn.miner.toLowerCase(), rewardee.toLowerCase());

    // The reference refuses the zero address (disableRewards is how fees are burned), in its words.
    const { body: empty } = await rpc(rpcUrl, 'eth_call', [
      {
        from: EWOQ_EVM,
        to: PRECOMPILES.rewardManager,
        data: encodeFunctionData({ abi: REWARD_ABI, functionName: 'setRewardAddress', args: [zeroAddress] }),
      },
      'latest',
    ]);
    assert.match(empty.error.message, /reward address cannot be empty/);
    const { body: refused } = await rpc(rpcUrl, 'eth_call', [
      {
        from: third.address,
        to: PRECOMPILES.rewardManager,
        data: encodeFunctionData({ abi: REWARD_ABI, functionName: 'disableRewards' }),
      },
      'latest',
    ]);
    assert.match(
      refused.error.message,
      new RegExp(`non-enabled cannot call disableRewards: ${third.address}$`),
    );

    const allowed = await send(ewoq, PRECOMPILES.rewardManager, REWARD_ABI, 'allowFeeRecipients');
    assert.equal(allowed.status, 'success');
    // 21,000 + 4 calldata bytes × 16, then the reference's write (20,000 + an allow-list read
    // of 5,000) and its one-topic event (375 + 2 × 375).
    assert.equal(allowed.gasUsed, 21_064n + 25_000n + 1_125n);
    assert.equal(await read('areFeeRecipientsAllowed'), true);
    // Stored as the reference's common.Hash{'a','f','r','a','v'}, whose last 20 bytes (the
    // address currentRewardAddress reads) are all zero.
    const rask = `0x${Buffer.from('rask').toString('hex').padEnd(64, '0')}` as Hex;
    assert.equal(
      await c.client.getStorageAt({ address: PRECOMPILES.rewardManager, slot: rask }),
      `0x${Buffer.from('afrav').toString('hex').padEnd(64, '0')}`,
    );
    assert.equal(await read('currentRewardAddress'), zeroAddress);
    assert.equal(
      (await send(ewoq, PRECOMPILES.rewardManager, REWARD_ABI, 'disableRewards')).status,
      'success',
    );
    assert.equal(await read('areFeeRecipientsAllowed'), false);
    assert.equal((await read('currentRewardAddress')) as string, BLACKHOLE);
    const held = await c.client.getBalance({ address: rewardee });
    await transfer(ewoq, ewoq.address, 1n);
    assert.equal(await c.client.getBalance({ address: rewardee }), held);
    assert.equal(
      (await send(third, PRECOMPILES.rewardManager, REWARD_ABI, 'setRewardAddress', [third.address])).status,
      'reverted',
    );
  });

  it('disables the tx allow list and activates Warp at the upgrade timestamp', async () => {
    await assert.rejects(transfer(outsider, ewoq.address, 1n), /non-allow listed address/);
    // Before its activation the Warp address holds no code: the call returns no data, as subnet-evm's.
    await assert.rejects(
      c.client.readContract({ address: PRECOMPILES.warp, abi: WARP_ID_ABI, functionName: 'getBlockchainID' }),
      (err: any) => {
        assert.equal(err.name, 'ContractFunctionExecutionError');
        assert.equal(err.cause?.name, 'ContractFunctionZeroDataError');
        return true;
      },
    );
    const now = Math.floor(
      Date.parse((await call(`${net.url}/ext/bc/P`, 'platform.getTimestamp')).timestamp) / 1000,
    );
    await call(`${net.url}/ext/bc/P`, 'platform.advanceTime', { seconds: upgradeAt - now + 5 });
    const receipt = await transfer(outsider, ewoq.address, 1n);
    assert.equal(receipt.status, 'success');
    const block = await c.client.getBlock({ blockNumber: receipt.blockNumber });
    assert.ok(block.timestamp >= BigInt(upgradeAt));
    const { body } = await rpc(rpcUrl, 'eth_getActiveRulesAt', ['latest']);
    assert.equal(body.result.precompiles.txAllowListConfig, undefined);
    assert.ok(body.result.precompiles.warpConfig);
    // The disabled precompile's state is gone; Warp answers.
    assert.equal(await c.client.getCode({ address: PRECOMPILES.txAllowList }), undefined);
    const id = await c.client.readContract({
      address: PRECOMPILES.warp,
      abi: WARP_ID_ABI,
      functionName: 'getBlockchainID',
    });
    const { utils } = await import('@avalabs/avalanchejs');
    assert.equal(id, '0x' + Buffer.from(utils.base58check.decode(blockchainId)).toString('hex'));
  });

  it("lists the subnet's permissioned validators through the validators API, weights with every digit", async () => {
    const { api, ctx, subnetId } = created;
    const nodeId = (await api.getCurrentValidators()).validators[0].nodeID as string;
    const start = BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
    // Above 2^53: a JSON number a JavaScript reader would round, as Go writes every digit of it.
    const weight = 2n ** 60n + 1n;
    const add = pvm.newAddSubnetValidatorTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [pAddress(ctx.hrp)] })).utxos,
        nodeId,
        subnetId,
        subnetAuth: [0],
        start,
        end: start + 3_600n,
        weight,
      },
      ctx,
    );
    const txID = await signAndIssue(api, add, [EWOQ_KEY], EWOQ_KEY);
    const res = await fetch(`${net.url}/ext/bc/${blockchainId}/validators`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'validators.getCurrentValidators', params: {} }),
    });
    const text = await res.text();
    const [v] = JSON.parse(text).result.validators;
    assert.equal(v.validationID, txID);
    assert.equal(v.nodeID, nodeId);
    assert.equal(v.isL1Validator, false);
    assert.equal(v.isActive, true);
    assert.equal(typeof v.startTimestamp, 'number');
    assert.ok(v.startTimestamp >= Number(start));
    // Connected since it was first seen (or not tracked for a moment yet): 100%, never 0%.
    assert.equal(v.isConnected, true);
    assert.equal(v.uptimePercentage, 100);
    assert.match(text, new RegExp(`"weight":${weight}[,}]`));
  });

  it("pushes newHeads over the chain's own WebSocket endpoint", async () => {
    // No reconnects: once the devnet stops, a reconnecting socket would keep this process alive.
    const wsUrl = rpcUrl.replace(/^http/, 'ws').replace(/\/rpc$/, '/ws');
    const ws = createPublicClient({
      chain: c.chain,
      transport: webSocket(wsUrl, { reconnect: false, keepAlive: false }),
    });
    const heads: bigint[] = [];
    const stop = ws.watchBlocks({ onBlock: (b) => heads.push(b.number!), emitOnBegin: false });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const receipt = await transfer(ewoq, ewoq.address, 1n);
      for (let i = 0; i < 50 && !heads.includes(receipt.blockNumber); i++)
        await new Promise((r) => setTimeout(r, 100));
      assert.ok(
        heads.includes(receipt.blockNumber),
        `block ${receipt.blockNumber} among ${heads.join(', ')}`,
      );
    } finally {
      stop();
      (await (ws.transport as any).getRpcClient()).close();
    }
  });
});
