/**
 * FeeManager (0x0200…0003): Enabled accounts set the chain's fee config with
 * `setFeeConfig(8 × uint256)`; `getFeeConfig()` and `getFeeConfigLastChangedAt()` read it. The
 * config lives in the precompile's storage at the reference keys (field i at `common.Hash{i}`,
 * the block number at `common.Hash{'l','c','a'}`); the chain reads it for the next blocks.
 * `initialFeeConfig` is written at activation.
 */
import { createAddressFromString } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  allowListFunctions,
  allowListJson,
  configureAllowList,
  isEnabled,
  parseAllowListConfig,
  roleOf,
} from './allow-list.js';
import {
  addressWord,
  concat,
  dispatcher,
  eventTopic,
  goAddress,
  log,
  logGas,
  outOfGas,
  READ_GAS_COST_PER_SLOT,
  readSlot,
  readWords,
  refuse,
  selector,
  stateOf,
  success,
  unpackInput,
  word,
  WRITE_GAS_COST_PER_SLOT,
  writeSlot,
} from './contract.js';
import { leftAlignedKey, PRECOMPILE_ADDRESSES, type SubnetPrecompileModule } from './subnet-module.js';
import {
  FEE_CONFIG_FIELDS,
  FeeConfigError,
  feeConfigJson,
  MAX_UINT64,
  parseFeeConfig,
  verifyFeeConfig,
  type FeeConfig,
} from '../subnet-evm/fee-config.js';

export const FEE_MANAGER_ADDRESS = createAddressFromString(PRECOMPILE_ADDRESSES.feeManagerConfig);
const N = BigInt(FEE_CONFIG_FIELDS.length);
export const SET_FEE_CONFIG_GAS_COST = WRITE_GAS_COST_PER_SLOT * (N + 1n);
export const GET_FEE_CONFIG_GAS_COST = READ_GAS_COST_PER_SLOT * N;
export const GET_LAST_CHANGED_AT_GAS_COST = READ_GAS_COST_PER_SLOT;
const STRUCT = `(${FEE_CONFIG_FIELDS.map(() => 'uint256').join(',')})`;
export const FEE_CONFIG_CHANGED = eventTopic(`FeeConfigChanged(address,${STRUCT},${STRUCT})`);
/** FeeConfigChanged: reading the old config, two topics, the old and new configs as data. */
const FEE_CONFIG_CHANGED_EVENT_GAS = GET_FEE_CONFIG_GAS_COST + logGas(2, 32 * 2 * FEE_CONFIG_FIELDS.length);
const LAST_CHANGED_AT_KEY = leftAlignedKey('lca');
const fieldKey = (i: number) => leftAlignedKey([i + 1]);

export async function storedFeeConfig(state: MerkleStateManager): Promise<FeeConfig> {
  const out: Record<string, bigint> = {};
  for (let i = 0; i < FEE_CONFIG_FIELDS.length; i++)
    out[FEE_CONFIG_FIELDS[i]] = await readSlot(state, FEE_MANAGER_ADDRESS, fieldKey(i));
  return out as unknown as FeeConfig;
}

export async function feeConfigLastChangedAt(state: MerkleStateManager): Promise<bigint> {
  return readSlot(state, FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_KEY);
}

async function storeFeeConfig(state: MerkleStateManager, c: FeeConfig, blockNumber: bigint): Promise<void> {
  for (let i = 0; i < FEE_CONFIG_FIELDS.length; i++)
    await writeSlot(state, FEE_MANAGER_ADDRESS, fieldKey(i), c[FEE_CONFIG_FIELDS[i]]);
  await writeSlot(state, FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_KEY, blockNumber);
}

export const packFeeConfig = (c: FeeConfig): Uint8Array =>
  concat(...FEE_CONFIG_FIELDS.map((f) => word(c[f])));

/** The new config carried by a FeeConfigChanged log (its last eight data words). */
export function feeConfigFromChangedLog(data: Uint8Array): FeeConfig | undefined {
  if (data.length !== 32 * 2 * FEE_CONFIG_FIELDS.length) return undefined;
  const words = readWords(data.subarray(32 * FEE_CONFIG_FIELDS.length), FEE_CONFIG_FIELDS.length);
  return Object.fromEntries(FEE_CONFIG_FIELDS.map((f, i) => [f, words[i]])) as unknown as FeeConfig;
}

function blockNumberOf(call: { _EVM: unknown }): bigint {
  return ((call._EVM as any)._block?.header?.number as bigint | undefined) ?? 0n;
}

export function feeManager(activation: number, json: Record<string, unknown>): SubnetPrecompileModule {
  const cfg = parseAllowListConfig(json, 'feeManagerConfig');
  const initial = json.initialFeeConfig === undefined ? undefined : parseFeeConfig(json.initialFeeConfig);
  const configJson: Record<string, unknown> = allowListJson(cfg);
  if (initial) configJson.initialFeeConfig = feeConfigJson(initial);
  return {
    address: PRECOMPILE_ADDRESSES.feeManagerConfig,
    configKey: 'feeManagerConfig',
    activation,
    configJson,
    run: dispatcher({
      ...allowListFunctions(FEE_MANAGER_ADDRESS),
      [selector(`setFeeConfig(${FEE_CONFIG_FIELDS.map(() => 'uint256').join(',')})`)]: async (call, args) => {
        // The reference's order: the writes' gas, write protection, the input, the caller's
        // right, the FeeConfigChanged event's gas (which reads the old config), then the check
        // of the new config.
        if (call.gasLimit < SET_FEE_CONFIG_GAS_COST) return outOfGas(call);
        if (call.isStatic) return refuse(call, 'write protection');
        const words = unpackInput(() => readWords(args, FEE_CONFIG_FIELDS.length));
        const next = Object.fromEntries(
          // The reference keeps a uint64 targetBlockRate: the word's low 64 bits.
          FEE_CONFIG_FIELDS.map((f, i) => [f, f === 'targetBlockRate' ? words[i] & MAX_UINT64 : words[i]]),
        ) as unknown as FeeConfig;
        const state = stateOf(call);
        if (!isEnabled(await roleOf(state, FEE_MANAGER_ADDRESS, call.caller)))
          return refuse(call, `non-enabled cannot change fee config: ${goAddress(call.caller)}`);
        const cost = SET_FEE_CONFIG_GAS_COST + FEE_CONFIG_CHANGED_EVENT_GAS;
        if (call.gasLimit < cost) return outOfGas(call);
        try {
          verifyFeeConfig(next);
        } catch (err) {
          if (err instanceof FeeConfigError) return refuse(call, `cannot verify fee config: ${err.message}`);
          throw err;
        }
        const old = await storedFeeConfig(state);
        await storeFeeConfig(state, next, blockNumberOf(call));
        const entry = log(
          FEE_MANAGER_ADDRESS,
          [FEE_CONFIG_CHANGED, addressWord(call.caller.bytes)],
          concat(packFeeConfig(old), packFeeConfig(next)),
        );
        return success(cost, new Uint8Array(), [entry]);
      },
      [selector('getFeeConfig()')]: async (call) => {
        if (call.gasLimit < GET_FEE_CONFIG_GAS_COST) return outOfGas(call);
        return success(GET_FEE_CONFIG_GAS_COST, packFeeConfig(await storedFeeConfig(stateOf(call))));
      },
      [selector('getFeeConfigLastChangedAt()')]: async (call) => {
        if (call.gasLimit < GET_LAST_CHANGED_AT_GAS_COST) return outOfGas(call);
        return success(GET_LAST_CHANGED_AT_GAS_COST, word(await feeConfigLastChangedAt(stateOf(call))));
      },
    }),
    async configure(state, ctx) {
      await configureAllowList(state, FEE_MANAGER_ADDRESS, cfg);
      // As the reference: without an initial config the chain's is stored, so getFeeConfig()
      // and the first FeeConfigChanged event's old config read it, not zeros.
      await storeFeeConfig(state, initial ?? ctx.feeConfig, ctx.blockNumber);
    },
  };
}
