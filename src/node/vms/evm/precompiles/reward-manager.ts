/**
 * RewardManager (0x0200…0004): where block fees go. `setRewardAddress(a)` sends them to `a`,
 * `allowFeeRecipients()` lets each block producer choose (this node's choice is the blackhole
 * address), `disableRewards()` burns them; `currentRewardAddress()` and
 * `areFeeRecipientsAllowed()` read the setting. Stored at the reference key
 * `common.Hash{'r','a','s','k'}`, with `common.Address{'a','f','r','a','v'}` meaning "recipients
 * allowed". `initialRewardConfig` (or the chain's `allowFeeRecipients`) applies at activation.
 */
import { Address, bigIntToBytes, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  allowListFunctions,
  allowListJson,
  AllowListConfigError,
  configureAllowList,
  isEnabled,
  parseAllowListConfig,
  READ_ALLOW_LIST_GAS_COST,
  roleOf,
} from './allow-list.js';
import {
  addressWord,
  boolWord,
  dispatcher,
  eventTopic,
  log,
  logGas,
  outOfGas,
  READ_GAS_COST_PER_SLOT,
  readAddress,
  readSlot,
  refuse,
  selector,
  stateOf,
  success,
  WRITE_GAS_COST_PER_SLOT,
  writeSlot,
} from './contract.js';
import {
  BLACKHOLE,
  leftAlignedKey,
  PRECOMPILE_ADDRESSES,
  type SubnetPrecompileModule,
} from './subnet-module.js';
import type { PrecompileCall } from './registry.js';

export const REWARD_MANAGER_ADDRESS = createAddressFromString(PRECOMPILE_ADDRESSES.rewardManagerConfig);
const REWARD_ADDRESS_KEY = leftAlignedKey('rask');
/** `common.Address{'a','f','r','a','v'}`: the stored value meaning "fee recipients allowed". */
export const ALLOW_FEE_RECIPIENTS_VALUE = new Address(
  Uint8Array.from([...new TextEncoder().encode('afrav'), ...new Uint8Array(15)]),
);
export const WRITE_REWARD_GAS_COST = WRITE_GAS_COST_PER_SLOT + READ_ALLOW_LIST_GAS_COST;
export const READ_REWARD_GAS_COST = READ_GAS_COST_PER_SLOT;
export const REWARD_ADDRESS_CHANGED = eventTopic('RewardAddressChanged(address,address,address)');
export const FEE_RECIPIENTS_ALLOWED = eventTopic('FeeRecipientsAllowed(address)');
export const REWARDS_DISABLED = eventTopic('RewardsDisabled(address)');

export interface RewardSetting {
  /** Where fees go (blackhole when disabled); undefined when block producers choose. */
  readonly rewardAddress?: Address;
  readonly feeRecipientsAllowed: boolean;
}

async function storedAddress(state: MerkleStateManager): Promise<Address> {
  const v = await readSlot(state, REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_KEY);
  return new Address(setLengthLeft(bigIntToBytes(v), 20));
}

export async function rewardSetting(state: MerkleStateManager): Promise<RewardSetting> {
  const a = await storedAddress(state);
  if (a.equals(ALLOW_FEE_RECIPIENTS_VALUE)) return { feeRecipientsAllowed: true };
  return { rewardAddress: a, feeRecipientsAllowed: false };
}

async function store(state: MerkleStateManager, a: Address): Promise<void> {
  await writeSlot(state, REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_KEY, BigInt(a.toString()));
}

function writer(
  action: (
    call: PrecompileCall,
    args: Uint8Array,
    state: MerkleStateManager,
  ) => Promise<{ value: Address; topics: Uint8Array[] } | string>,
) {
  return async (call: PrecompileCall, args: Uint8Array) => {
    const cost = WRITE_REWARD_GAS_COST + READ_REWARD_GAS_COST + logGas(4, 0);
    if (call.gasLimit < cost) return outOfGas(call);
    if (call.isStatic) return refuse(call, 'write protection');
    const state = stateOf(call);
    if (!isEnabled(await roleOf(state, REWARD_MANAGER_ADDRESS, call.caller)))
      return refuse(call, `non-enabled cannot call reward manager: ${call.caller.toString()}`);
    const done = await action(call, args, state);
    if (typeof done === 'string') return refuse(call, done);
    await store(state, done.value);
    return success(cost, new Uint8Array(), [log(REWARD_MANAGER_ADDRESS, done.topics, new Uint8Array())]);
  };
}

export function rewardManager(activation: number, json: Record<string, unknown>): SubnetPrecompileModule {
  const cfg = parseAllowListConfig(json, 'rewardManagerConfig');
  const initial = json.initialRewardConfig as
    { allowFeeRecipients?: unknown; rewardAddress?: unknown } | undefined;
  if (initial !== undefined) {
    if (typeof initial !== 'object' || initial === null)
      throw new AllowListConfigError('rewardManagerConfig.initialRewardConfig must be an object');
    if (initial.rewardAddress !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(String(initial.rewardAddress)))
      throw new AllowListConfigError('initialRewardConfig.rewardAddress must be an address');
    if (
      initial.allowFeeRecipients === true &&
      initial.rewardAddress !== undefined &&
      BigInt(String(initial.rewardAddress)) !== 0n
    )
      throw new AllowListConfigError(
        'initialRewardConfig: cannot enable both fee recipients and reward address',
      );
  }
  const configJson: Record<string, unknown> = allowListJson(cfg);
  if (initial) configJson.initialRewardConfig = initial;
  return {
    address: PRECOMPILE_ADDRESSES.rewardManagerConfig,
    configKey: 'rewardManagerConfig',
    activation,
    configJson,
    run: dispatcher({
      ...allowListFunctions(REWARD_MANAGER_ADDRESS),
      [selector('allowFeeRecipients()')]: writer(async (call) => ({
        value: ALLOW_FEE_RECIPIENTS_VALUE,
        topics: [FEE_RECIPIENTS_ALLOWED, addressWord(call.caller.bytes)],
      })),
      [selector('disableRewards()')]: writer(async (call) => ({
        value: createAddressFromString(BLACKHOLE),
        topics: [REWARDS_DISABLED, addressWord(call.caller.bytes)],
      })),
      [selector('setRewardAddress(address)')]: writer(async (call, args, state) => {
        const a = readAddress(args, 0);
        if (a.equals(ALLOW_FEE_RECIPIENTS_VALUE))
          return 'cannot enable both fee recipients and reward address at the same time';
        const old = await storedAddress(state);
        return {
          value: a,
          topics: [
            REWARD_ADDRESS_CHANGED,
            addressWord(call.caller.bytes),
            addressWord(old.bytes),
            addressWord(a.bytes),
          ],
        };
      }),
      [selector('areFeeRecipientsAllowed()')]: async (call) => {
        if (call.gasLimit < READ_REWARD_GAS_COST) return outOfGas(call);
        const s = await rewardSetting(stateOf(call));
        return success(READ_REWARD_GAS_COST, boolWord(s.feeRecipientsAllowed));
      },
      [selector('currentRewardAddress()')]: async (call) => {
        if (call.gasLimit < READ_REWARD_GAS_COST) return outOfGas(call);
        return success(READ_REWARD_GAS_COST, addressWord((await storedAddress(stateOf(call))).bytes));
      },
    }),
    async configure(state, ctx) {
      await configureAllowList(state, REWARD_MANAGER_ADDRESS, cfg);
      if (initial?.allowFeeRecipients === true) await store(state, ALLOW_FEE_RECIPIENTS_VALUE);
      else if (initial?.rewardAddress !== undefined)
        await store(state, createAddressFromString(String(initial.rewardAddress)));
      else if (!initial && ctx.allowFeeRecipients) await store(state, ALLOW_FEE_RECIPIENTS_VALUE);
      else await store(state, createAddressFromString(BLACKHOLE));
    },
  };
}
