/**
 * Helpers for the Subnet-EVM and Warp end-to-end tests: create a subnet and a Subnet-EVM chain
 * through the P-chain with avalanchejs v5 builders, wait for the node to serve it, viem clients
 * for it, and Solidity compiled with solc.
 */
import { createRequire } from 'node:module';
import { Context, pvm, utils } from '@avalabs/avalanchejs';
import { createPublicClient, createWalletClient, defineChain, http, type Abi, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { rpc } from '../helpers/devnet.js';
import { EWOQ_ADDR, EWOQ_KEY, signAndIssue } from './pchain-helpers.js';

const require = createRequire(import.meta.url);
const solc = require('solc');

export const SUBNET_EVM_VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
export const EWOQ_EVM_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
export const EWOQ_EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

export const PRECOMPILES = {
  deployer: '0x0200000000000000000000000000000000000000',
  minter: '0x0200000000000000000000000000000000000001',
  txAllowList: '0x0200000000000000000000000000000000000002',
  feeManager: '0x0200000000000000000000000000000000000003',
  rewardManager: '0x0200000000000000000000000000000000000004',
  warp: '0x0200000000000000000000000000000000000005',
} as const;

/**
 * A Subnet-EVM genesis with a 15M-gas fee config whose base fee never falls below `minBaseFee`
 * (wei), the ewoq account funded with 1,000,000 of the native token: an L1 where a fee left
 * below the base fee is refused, as dapp tests need.
 */
export function feeFloorGenesis(chainId: number, minBaseFee: bigint): Record<string, unknown> {
  return {
    config: {
      chainId,
      feeConfig: {
        gasLimit: 15_000_000,
        targetBlockRate: 2,
        minBaseFee: Number(minBaseFee),
        targetGas: 15_000_000,
        baseFeeChangeDenominator: 36,
        minBlockGasCost: 0,
        maxBlockGasCost: 1_000_000,
        blockGasCostStep: 200_000,
      },
    },
    alloc: { [EWOQ_EVM.slice(2)]: { balance: '0x' + (10n ** 24n).toString(16) } },
    nonce: '0x0',
    timestamp: '0x0',
    gasLimit: '0xe4e1c0',
    difficulty: '0x0',
  };
}

export async function createSubnetEvmChain(
  url: string,
  genesis: Record<string, unknown>,
  name = 'flurry l1',
): Promise<{ subnetId: string; chainId: string; api: pvm.PVMApi; ctx: Context.Context }> {
  const api = new pvm.PVMApi(url);
  const ctx = await Context.getContextFromURI(url);
  const ownerUtxos = async () => (await api.getUTXOs({ addresses: [pAddress(ctx.hrp)] })).utxos;
  const createSubnet = pvm.newCreateSubnetTx(
    {
      feeState: await api.getFeeState(),
      fromAddressesBytes: [EWOQ_ADDR],
      utxos: await ownerUtxos(),
      subnetOwners: [EWOQ_ADDR],
    },
    ctx,
  );
  const subnetId = await signAndIssue(api, createSubnet);
  const createChain = pvm.newCreateChainTx(
    {
      feeState: await api.getFeeState(),
      fromAddressesBytes: [EWOQ_ADDR],
      utxos: await ownerUtxos(),
      chainName: name,
      subnetId,
      subnetAuth: [0],
      vmId: SUBNET_EVM_VM,
      fxIds: [],
      genesisData: genesis,
    },
    ctx,
  );
  const chainId = await signAndIssue(api, createChain, [EWOQ_KEY], EWOQ_KEY);
  await waitForChain(url, chainId);
  return { subnetId, chainId, api, ctx };
}

export function pAddress(hrp: string): string {
  return utils.format('P', hrp, EWOQ_ADDR);
}

export async function waitForChain(url: string, chainId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { body } = await rpc(`${url}/ext/bc/${chainId}/rpc`, 'eth_chainId', []).catch(() => ({
      body: {} as any,
    }));
    if (body?.result) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`chain ${chainId} is not served`);
}

export function evmClients(rpcUrl: string, chainId: number, account: PrivateKeyAccount) {
  const chain = defineChain({
    id: chainId,
    name: `L1 ${chainId}`,
    nativeCurrency: { name: 'Token', symbol: 'TKN', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(rpcUrl), cacheTime: 0, pollingInterval: 50 });
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  return { chain, client, wallet };
}

/** A call's intrinsic gas: 21,000 plus 4 per zero and 16 per other calldata byte. */
export function intrinsicGas(data: Hex): bigint {
  return [...Buffer.from(data.slice(2), 'hex')].reduce((sum, b) => sum + (b === 0 ? 4n : 16n), 21_000n);
}

/** Compiles `source`; each contract's ABI, creation code and runtime code (for genesis allocs). */
export function compile(source: string): Record<string, { abi: Abi; bytecode: Hex; runtime: Hex }> {
  const input = {
    language: 'Solidity',
    sources: { 'C.sol': { content: source } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e: any) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: any) => e.formattedMessage).join('\n'));
  const result: Record<string, { abi: Abi; bytecode: Hex; runtime: Hex }> = {};
  for (const [name, c] of Object.entries<any>(out.contracts['C.sol'])) {
    result[name] = {
      abi: c.abi,
      bytecode: `0x${c.evm.bytecode.object}`,
      runtime: `0x${c.evm.deployedBytecode.object}`,
    };
  }
  return result;
}

export const ALLOW_LIST_ABI = [
  {
    type: 'function',
    name: 'setAdmin',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'setEnabled',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'setManager',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'setNone',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'readAllowList',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [{ name: 'role', type: 'uint256' }],
    stateMutability: 'view',
  },
  {
    type: 'event',
    name: 'RoleSet',
    inputs: [
      { name: 'role', type: 'uint256', indexed: true },
      { name: 'account', type: 'address', indexed: true },
      { name: 'sender', type: 'address', indexed: true },
      { name: 'oldRole', type: 'uint256', indexed: false },
    ],
  },
] as const;
