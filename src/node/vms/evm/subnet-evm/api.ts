/**
 * Subnet-EVM's extra `eth_` methods: `eth_feeConfig` (the fee config in force at a block and the
 * block that last changed it), `eth_getChainConfig` (genesis config with the upgrade config),
 * `eth_getActiveRulesAt` (fork rules — `avalancheRules`, also served as `platformRules` — and the
 * precompiles active at a timestamp) and the deprecated `eth_getActivePrecompilesAt`.
 * Timestamps may be omitted, "latest", a JSON number or a hex/decimal string.
 */
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import { arity, goInteger, optionalBlockRef } from '../api/args.js';
import { stateBlockOf } from '../api/eth/block-ref.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import { feeConfigJson } from './fee-config.js';
import type { SubnetEvmChain } from './subnet-evm-chain.js';

function invalid(i: number, message: string): never {
  throw new RpcError(RpcCode.invalidParams, `invalid argument ${i}: ${message}`);
}

function timestampParam(chain: SubnetEvmChain, params: unknown[]): number {
  const v = params[0];
  if (v === undefined || v === null || v === 'latest' || v === 'accepted' || v === 'pending')
    return Number(chain.latest.header.timestamp);
  if (typeof v === 'number') {
    // subnet-evm's `*uint64`: the literal as sent, in encoding/json's words when it is not one.
    const timestamp = goInteger(params, 0, 'uint64');
    if (timestamp > BigInt(Number.MAX_SAFE_INTEGER)) invalid(0, 'timestamp is too large');
    return Number(timestamp);
  }
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/.test(v)) {
    const n = BigInt(v);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) invalid(0, 'timestamp is too large');
    return Number(n);
  }
  return invalid(0, 'timestamp must be a number, a hex string or "latest"');
}

/**
 * The reference's ChainConfigWithUpgradesJSON. Go's `omitempty` drops `allowFeeRecipients` when
 * false and an empty `precompileUpgrades`, so a chain without upgrades shows `"upgrades": {}`.
 */
export function subnetChainConfigJson(chain: SubnetEvmChain): Record<string, unknown> {
  const g = chain.genesisConfig;
  return {
    chainId: g.chainId,
    feeConfig: feeConfigJson(g.feeConfig),
    ...(g.allowFeeRecipients ? { allowFeeRecipients: true } : {}),
    homesteadBlock: 0,
    eip150Block: 0,
    eip150Hash: '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0',
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    shanghaiTime: 0,
    cancunTime: 0,
    subnetEVMTimestamp: 0,
    durangoTimestamp: 0,
    etnaTimestamp: 0,
    fortunaTimestamp: 0,
    ...(lowercaseAddresses(g.precompileConfigs) as Record<string, unknown>),
    upgrades: g.upgrades.precompileUpgrades.length ? lowercaseAddresses(g.upgrades) : {},
  };
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The genesis configs as the reference re-marshals them: its precompile configs hold
 * `common.Address` values (and address-keyed maps), which Go writes in lowercase hex however the
 * genesis spelled them.
 */
function lowercaseAddresses(value: unknown): unknown {
  if (typeof value === 'string') return ADDRESS.test(value) ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map(lowercaseAddresses);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [ADDRESS.test(k) ? k.toLowerCase() : k, lowercaseAddresses(v)]),
    );
  return value;
}

function activeRules(chain: SubnetEvmChain, timestamp: number): Record<string, unknown> {
  const ethRules = {
    ChainID: chain.genesisConfig.chainId,
    IsHomestead: true,
    IsEIP150: true,
    IsEIP155: true,
    IsEIP158: true,
    IsByzantium: true,
    IsConstantinople: true,
    IsPetersburg: true,
    IsIstanbul: true,
    IsBerlin: true,
    IsLondon: true,
    IsMerge: true,
    IsShanghai: true,
    IsCancun: true,
    IsPrague: false,
    IsVerkle: false,
  };
  const avalancheRules = {
    IsSubnetEVM: true,
    IsDurango: true,
    IsEtna: true,
    IsFortuna: true,
    IsGranite: false,
  };
  const precompiles: Record<string, { timestamp: number }> = {};
  for (const m of chain.precompiles.activeAt(timestamp))
    precompiles[m.configKey] = { timestamp: m.activation };
  return { ethRules, avalancheRules, platformRules: avalancheRules, precompiles };
}

export function createSubnetEvmApi(chain: SubnetEvmChain): Record<string, EvmHandler> {
  return {
    eth_feeConfig: async (params) => {
      arity(params, 1);
      // subnet-evm reads the block as HeaderByNumberOrHash, with its errors.
      const { feeConfig, lastChangedAt } = await chain.feeConfigAt(
        stateBlockOf(chain, optionalBlockRef(params, 0)),
      );
      return { feeConfig: feeConfigJson(feeConfig), lastChangedAt: Number(lastChangedAt) };
    },
    eth_getChainConfig: (params) => (arity(params, 0), subnetChainConfigJson(chain)),
    eth_getActiveRulesAt: (params) => (arity(params, 1), activeRules(chain, timestampParam(chain, params))),
    eth_getActivePrecompilesAt: (params) => {
      arity(params, 1);
      const out: Record<string, unknown> = {};
      for (const m of chain.precompiles.activeAt(timestampParam(chain, params)))
        out[m.configKey] = { blockTimestamp: m.activation, ...(m.configJson ?? {}) };
      return out;
    },
  };
}
