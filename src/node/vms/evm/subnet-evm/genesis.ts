/**
 * Reads a Subnet-EVM genesis (the JSON a CreateChainTx carries): `config` with `chainId`,
 * `feeConfig`, `allowFeeRecipients`, the precompile configs (each with `blockTimestamp`) and
 * `upgrades.precompileUpgrades`; `alloc`, `gasLimit`, `timestamp`. Precompile upgrades activate
 * a precompile at a timestamp, or disable the active one (`disable: true`); a later entry may
 * enable it again with a new config. Errors name the offending field.
 */
import type { GenesisAccount } from '../chain-config.js';
import { AllowListConfigError } from '../precompiles/allow-list.js';
import { contractDeployerAllowList, txAllowList } from '../precompiles/allow-list-precompiles.js';
import { feeManager } from '../precompiles/fee-manager.js';
import { contractNativeMinter } from '../precompiles/native-minter.js';
import { rewardManager } from '../precompiles/reward-manager.js';
import {
  PRECOMPILE_CONFIG_KEYS,
  type PrecompileConfigKey,
  type SubnetPrecompileModule,
} from '../precompiles/subnet-module.js';
import { DEFAULT_QUORUM_NUMERATOR, warpPrecompile, type WarpConfig } from '../warp/precompile.js';
import { FeeConfigError, parseFeeConfig, type FeeConfig } from './fee-config.js';

export class SubnetEvmGenesisError extends Error {
  override readonly name = 'SubnetEvmGenesisError';
}

export interface SubnetEvmGenesis {
  readonly chainId: number;
  readonly feeConfig: FeeConfig;
  readonly allowFeeRecipients: boolean;
  readonly timestamp: number;
  readonly gasLimit: bigint;
  /** The genesis block's base fee: `baseFeePerGas` if given, else the fee config's minimum. */
  readonly baseFeePerGas: bigint;
  readonly alloc: ReadonlyMap<string, GenesisAccount>;
  /** Every precompile activation (and deactivation), genesis configs first, then upgrades. */
  readonly precompiles: readonly SubnetPrecompileModule[];
  /** The genesis precompile configs as given (for eth_getChainConfig). */
  readonly precompileConfigs: Readonly<Record<string, unknown>>;
  /** `upgrades` as given (for eth_getChainConfig). */
  readonly upgrades: { precompileUpgrades: unknown[] };
  readonly warp?: WarpConfig;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function toBigInt(v: unknown, what: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v)) return BigInt(v);
  throw new SubnetEvmGenesisError(
    `${what} must be a non-negative integer (number, decimal or 0x hex string)`,
  );
}

function timestampOf(cfg: Obj, what: string): number {
  const t = cfg.blockTimestamp;
  if (t === undefined || t === null) throw new SubnetEvmGenesisError(`${what}.blockTimestamp is required`);
  const n = toBigInt(t, `${what}.blockTimestamp`);
  if (n > BigInt(Number.MAX_SAFE_INTEGER))
    throw new SubnetEvmGenesisError(`${what}.blockTimestamp is too large`);
  return Number(n);
}

function parseWarpConfig(cfg: Obj): WarpConfig {
  const q = cfg.quorumNumerator;
  const quorumNumerator =
    q === undefined || q === null || q === 0
      ? DEFAULT_QUORUM_NUMERATOR
      : toBigInt(q, 'warpConfig.quorumNumerator');
  if (quorumNumerator < 33n || quorumNumerator > 100n)
    throw new SubnetEvmGenesisError('warpConfig.quorumNumerator must be between 33 and 100');
  return { quorumNumerator, requirePrimaryNetworkSigners: cfg.requirePrimaryNetworkSigners === true };
}

interface ModuleContext {
  readonly networkID: number;
  readonly blockchainID: Uint8Array;
}

function moduleFor(
  key: PrecompileConfigKey,
  activation: number,
  cfg: Obj,
  ctx: ModuleContext,
): SubnetPrecompileModule {
  try {
    switch (key) {
      case 'contractDeployerAllowListConfig':
        return contractDeployerAllowList(activation, cfg);
      case 'txAllowListConfig':
        return txAllowList(activation, cfg);
      case 'contractNativeMinterConfig':
        return contractNativeMinter(activation, cfg);
      case 'feeManagerConfig':
        return feeManager(activation, cfg);
      case 'rewardManagerConfig':
        return rewardManager(activation, cfg);
      case 'warpConfig': {
        const module = warpPrecompile({ ...ctx, activation, config: parseWarpConfig(cfg) });
        // The reference keeps the numerator as given (0 when unset, meaning the default 67) and
        // writes it so in eth_getChainConfig and eth_getActivePrecompilesAt.
        const given =
          cfg.quorumNumerator === undefined || cfg.quorumNumerator === null ? 0 : cfg.quorumNumerator;
        return { ...module, configJson: { ...module.configJson, quorumNumerator: Number(given) } };
      }
    }
  } catch (err) {
    if (err instanceof AllowListConfigError || err instanceof FeeConfigError)
      throw new SubnetEvmGenesisError(`${key}: ${err.message}`);
    throw err;
  }
}

/** Applies `precompileUpgrades` in order to the genesis modules. */
export function applyPrecompileUpgrades(
  base: readonly SubnetPrecompileModule[],
  upgrades: unknown,
  ctx: ModuleContext,
): SubnetPrecompileModule[] {
  const modules = [...base];
  if (upgrades === undefined || upgrades === null) return modules;
  if (!Array.isArray(upgrades))
    throw new SubnetEvmGenesisError('upgrades.precompileUpgrades must be an array');
  let lastTimestamp = -1;
  upgrades.forEach((entry, i) => {
    const what = `precompileUpgrades[${i}]`;
    if (!isObj(entry) || Object.keys(entry).length !== 1)
      throw new SubnetEvmGenesisError(`${what} must be an object with exactly one precompile config`);
    const [key, cfg] = Object.entries(entry)[0];
    if (!PRECOMPILE_CONFIG_KEYS.includes(key as PrecompileConfigKey))
      throw new SubnetEvmGenesisError(`${what}: unknown precompile config ${key}`);
    if (!isObj(cfg)) throw new SubnetEvmGenesisError(`${what}.${key} must be an object`);
    const at = timestampOf(cfg, `${what}.${key}`);
    if (at < lastTimestamp) throw new SubnetEvmGenesisError(`${what}: upgrades must be in timestamp order`);
    lastTimestamp = at;
    // The module of this precompile that is enabled and not yet disabled.
    const current = [...modules]
      .reverse()
      .findIndex((m) => m.configKey === key && m.deactivation === undefined);
    const currentIndex = current === -1 ? -1 : modules.length - 1 - current;
    if (cfg.disable === true) {
      if (currentIndex === -1)
        throw new SubnetEvmGenesisError(`${what}: cannot disable ${key}, it is not enabled`);
      if (modules[currentIndex].activation >= at)
        throw new SubnetEvmGenesisError(`${what}: ${key} must be disabled after it activates`);
      modules[currentIndex] = { ...modules[currentIndex], deactivation: at };
      return;
    }
    if (currentIndex !== -1)
      throw new SubnetEvmGenesisError(`${what}: ${key} is already enabled; disable it first`);
    modules.push(moduleFor(key as PrecompileConfigKey, at, cfg, ctx));
  });
  return modules;
}

function parseAlloc(json: unknown): Map<string, GenesisAccount> {
  const alloc = new Map<string, GenesisAccount>();
  if (json === undefined || json === null) return alloc;
  if (!isObj(json)) throw new SubnetEvmGenesisError('alloc must be an object');
  for (const [rawAddr, rawAcct] of Object.entries(json)) {
    const addr = (
      rawAddr.startsWith('0x') || rawAddr.startsWith('0X') ? rawAddr.slice(2) : rawAddr
    ).toLowerCase();
    if (!/^[0-9a-f]{40}$/.test(addr)) throw new SubnetEvmGenesisError(`alloc: ${rawAddr} is not an address`);
    if (!isObj(rawAcct)) throw new SubnetEvmGenesisError(`alloc.${rawAddr} must be an object`);
    const balance = toBigInt(rawAcct.balance ?? '0x0', `alloc.${rawAddr}.balance`);
    const nonce = rawAcct.nonce === undefined ? undefined : toBigInt(rawAcct.nonce, `alloc.${rawAddr}.nonce`);
    let code: Uint8Array | undefined;
    if (rawAcct.code !== undefined && rawAcct.code !== null && rawAcct.code !== '' && rawAcct.code !== '0x') {
      if (typeof rawAcct.code !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(rawAcct.code))
        throw new SubnetEvmGenesisError(`alloc.${rawAddr}.code must be hex`);
      code = Uint8Array.from(Buffer.from(rawAcct.code.replace(/^0x/, ''), 'hex'));
    }
    let storage: Map<bigint, bigint> | undefined;
    if (rawAcct.storage !== undefined && rawAcct.storage !== null) {
      if (!isObj(rawAcct.storage))
        throw new SubnetEvmGenesisError(`alloc.${rawAddr}.storage must be an object`);
      storage = new Map();
      for (const [k, v] of Object.entries(rawAcct.storage))
        storage.set(
          toBigInt(k, `alloc.${rawAddr}.storage key`),
          toBigInt(v, `alloc.${rawAddr}.storage value`),
        );
    }
    alloc.set('0x' + addr, { balance, nonce, code, storage });
  }
  return alloc;
}

export function parseSubnetEvmGenesis(bytes: Uint8Array, ctx: ModuleContext): SubnetEvmGenesis {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SubnetEvmGenesisError('genesis is not valid JSON');
  }
  if (!isObj(json)) throw new SubnetEvmGenesisError('genesis must be a JSON object');
  const config = json.config;
  if (!isObj(config)) throw new SubnetEvmGenesisError('genesis.config is required');
  const chainId = toBigInt(config.chainId, 'config.chainId');
  if (chainId === 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER))
    throw new SubnetEvmGenesisError('config.chainId must be a positive integer');
  let feeConfig: FeeConfig;
  try {
    feeConfig = parseFeeConfig(config.feeConfig);
  } catch (err) {
    throw new SubnetEvmGenesisError(`config.feeConfig: ${(err as Error).message}`);
  }
  const precompileConfigs: Record<string, unknown> = {};
  const modules: SubnetPrecompileModule[] = [];
  for (const key of PRECOMPILE_CONFIG_KEYS) {
    const cfg = config[key];
    if (cfg === undefined || cfg === null) continue;
    if (!isObj(cfg)) throw new SubnetEvmGenesisError(`config.${key} must be an object`);
    if (cfg.disable === true) {
      precompileConfigs[key] = cfg;
      continue;
    }
    const module = moduleFor(key, timestampOf(cfg, `config.${key}`), cfg, ctx);
    modules.push(module);
    // As the reference re-marshals its parsed config (eth_getChainConfig), not the genesis text.
    precompileConfigs[key] = { blockTimestamp: module.activation, ...(module.configJson ?? {}) };
  }
  const upgradesJson = isObj(config.upgrades) ? config.upgrades : {};
  const precompileUpgrades = upgradesJson.precompileUpgrades ?? [];
  const precompiles = applyPrecompileUpgrades(modules, precompileUpgrades, ctx);
  const warpModule = [...precompiles].reverse().find((m) => m.configKey === 'warpConfig');
  const gasLimit = json.gasLimit === undefined ? feeConfig.gasLimit : toBigInt(json.gasLimit, 'gasLimit');
  const timestamp = json.timestamp === undefined ? 0n : toBigInt(json.timestamp, 'timestamp');
  // As subnet-evm's genesis block: a wallet reading the latest block's base fee before the first
  // block is built must see a price the tx pool accepts.
  const baseFeePerGas =
    json.baseFeePerGas === undefined || json.baseFeePerGas === null
      ? feeConfig.minBaseFee
      : toBigInt(json.baseFeePerGas, 'baseFeePerGas');
  return {
    chainId: Number(chainId),
    feeConfig,
    allowFeeRecipients: config.allowFeeRecipients === true,
    timestamp: Number(timestamp),
    gasLimit,
    baseFeePerGas,
    alloc: parseAlloc(json.alloc),
    precompiles,
    precompileConfigs,
    upgrades: { precompileUpgrades: precompileUpgrades as unknown[] },
    warp: warpModule
      ? {
          quorumNumerator: BigInt((warpModule.configJson?.quorumNumerator as number) || 67),
          requirePrimaryNetworkSigners: warpModule.configJson?.requirePrimaryNetworkSigners === true,
        }
      : undefined,
  };
}
