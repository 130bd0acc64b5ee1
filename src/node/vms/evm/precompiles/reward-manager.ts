/**
 * RewardManager (0x0200…0004): where block fees go. `setRewardAddress(a)` sends them to `a`,
 * `allowFeeRecipients()` lets each block producer choose (this node's choice is the blackhole
 * address), `disableRewards()` burns them; `currentRewardAddress()` and
 * `areFeeRecipientsAllowed()` read the setting. Stored at the reference key
 * `common.Hash{'r','a','s','k'}`: the reward address as a right-aligned word, or the left-aligned
 * `common.Hash{'a','f','r','a','v'}` meaning "recipients allowed" (whose last 20 bytes, all zero,
 * are what `currentRewardAddress()` then reads, as the reference's `common.BytesToAddress`).
 * `initialRewardConfig` (or the chain's `allowFeeRecipients`) applies at activation.
 */
import { Address, bigIntToBytes, bytesToHex, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
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
  goAddress,
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

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export const REWARD_MANAGER_ADDRESS = createAddressFromString(PRECOMPILE_ADDRESSES.rewardManagerConfig);
const REWARD_ADDRESS_KEY = leftAlignedKey('rask');
/** `common.Hash{'a','f','r','a','v'}`: the stored word meaning "fee recipients allowed". */
const ALLOW_FEE_RECIPIENTS_VALUE = BigInt(bytesToHex(leftAlignedKey('afrav')));
/** Each writer's cost (write one slot, read the allow list), then its event's, as the reference. */
export const WRITE_REWARD_GAS_COST = WRITE_GAS_COST_PER_SLOT + READ_ALLOW_LIST_GAS_COST;
export const READ_REWARD_GAS_COST = READ_GAS_COST_PER_SLOT;
/** RewardAddressChanged also pays for reading the old address. */
const REWARD_ADDRESS_CHANGED_EVENT_GAS = logGas(4, 0) + READ_GAS_COST_PER_SLOT;
const SENDER_ONLY_EVENT_GAS = logGas(2, 0);
export const REWARD_ADDRESS_CHANGED = eventTopic('RewardAddressChanged(address,address,address)');
export const FEE_RECIPIENTS_ALLOWED = eventTopic('FeeRecipientsAllowed(address)');
export const REWARDS_DISABLED = eventTopic('RewardsDisabled(address)');

export interface RewardSetting {
  /** Where fees go (blackhole when disabled); undefined when block producers choose. */
  readonly rewardAddress?: Address;
  readonly feeRecipientsAllowed: boolean;
}

/** The stored address (the word's last 20 bytes) and whether the word means "recipients allowed". */
async function stored(state: MerkleStateManager): Promise<{ address: Address; allowed: boolean }> {
  const v = await readSlot(state, REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_KEY);
  const last20 = setLengthLeft(bigIntToBytes(v), 32).subarray(12);
  return { address: new Address(last20), allowed: v === ALLOW_FEE_RECIPIENTS_VALUE };
}

export async function rewardSetting(state: MerkleStateManager): Promise<RewardSetting> {
  const s = await stored(state);
  if (s.allowed) return { feeRecipientsAllowed: true };
  return { rewardAddress: s.address, feeRecipientsAllowed: false };
}

type Stored = Address | 'allow-fee-recipients';

async function store(state: MerkleStateManager, value: Stored): Promise<void> {
  const word = value === 'allow-fee-recipients' ? ALLOW_FEE_RECIPIENTS_VALUE : BigInt(value.toString());
  await writeSlot(state, REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_KEY, word);
}

const blackhole = (): Address => createAddressFromString(BLACKHOLE);

/**
 * A state-changing function, `name` for the reference's refusal words (`non-enabled cannot call
 * <name>: <caller>`), `eventGas` what its event costs on top of the write. In the reference's
 * order: the write's gas, write protection, `unpack` (the input, before the caller's right),
 * the caller's right, `action`'s own refusal, then the event's gas.
 */
function writer<Input>(
  name: string,
  eventGas: bigint,
  unpack: (args: Uint8Array) => Input,
  action: (
    call: PrecompileCall,
    input: Input,
    state: MerkleStateManager,
  ) => Promise<{ value: Stored; topics: Uint8Array[] } | string>,
) {
  return async (call: PrecompileCall, args: Uint8Array) => {
    if (call.gasLimit < WRITE_REWARD_GAS_COST) return outOfGas(call);
    if (call.isStatic) return refuse(call, 'write protection');
    const input = unpack(args);
    const state = stateOf(call);
    if (!isEnabled(await roleOf(state, REWARD_MANAGER_ADDRESS, call.caller)))
      return refuse(call, `non-enabled cannot call ${name}: ${goAddress(call.caller)}`);
    const done = await action(call, input, state);
    if (typeof done === 'string') return refuse(call, done);
    const cost = WRITE_REWARD_GAS_COST + eventGas;
    if (call.gasLimit < cost) return outOfGas(call);
    await store(state, done.value);
    return success(cost, new Uint8Array(), [log(REWARD_MANAGER_ADDRESS, done.topics, new Uint8Array())]);
  };
}

const noInput = (): undefined => undefined;

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
  // Go writes both fields (omitempty never omits a fixed-size array), addresses in lowercase.
  if (initial)
    configJson.initialRewardConfig = {
      allowFeeRecipients: initial.allowFeeRecipients === true,
      rewardAddress: String(initial.rewardAddress ?? ZERO_ADDRESS).toLowerCase(),
    };
  return {
    address: PRECOMPILE_ADDRESSES.rewardManagerConfig,
    configKey: 'rewardManagerConfig',
    activation,
    configJson,
    run: dispatcher({
      ...allowListFunctions(REWARD_MANAGER_ADDRESS),
      [selector('allowFeeRecipients()')]: writer(
        'allowFeeRecipients',
        SENDER_ONLY_EVENT_GAS,
        noInput,
        async (call) => ({
          value: 'allow-fee-recipients',
          topics: [FEE_RECIPIENTS_ALLOWED, addressWord(call.caller.bytes)],
        }),
      ),
      [selector('disableRewards()')]: writer(
        'disableRewards',
        SENDER_ONLY_EVENT_GAS,
        noInput,
        async (call) => ({
          value: blackhole(),
          topics: [REWARDS_DISABLED, addressWord(call.caller.bytes)],
        }),
      ),
      [selector('setRewardAddress(address)')]: writer(
        'setRewardAddress',
        REWARD_ADDRESS_CHANGED_EVENT_GAS,
        (args) => readAddress(args, 0),
        async (call, a, state) => {
          // The zero address would send fees nowhere; disableRewards() is how fees are burned.
          if (a.isZero()) return 'reward address cannot be empty';
          const old = (await stored(state)).address;
          return {
            value: a,
            topics: [
              REWARD_ADDRESS_CHANGED,
              addressWord(call.caller.bytes),
              addressWord(old.bytes),
              addressWord(a.bytes),
            ],
          };
        },
      ),
      [selector('areFeeRecipientsAllowed()')]: async (call) => {
        if (call.gasLimit < READ_REWARD_GAS_COST) return outOfGas(call);
        const s = await rewardSetting(stateOf(call));
        return success(READ_REWARD_GAS_COST, boolWord(s.feeRecipientsAllowed));
      },
      [selector('currentRewardAddress()')]: async (call) => {
        if (call.gasLimit < READ_REWARD_GAS_COST) return outOfGas(call);
        return success(READ_REWARD_GAS_COST, addressWord((await stored(stateOf(call))).address.bytes));
      },
    }),
    async configure(state, ctx) {
      await configureAllowList(state, REWARD_MANAGER_ADDRESS, cfg);
      // The reference's order: an initial config wins over the chain's allowFeeRecipients, and an
      // initial config without a reward address (or the zero one) disables rewards.
      if (initial?.allowFeeRecipients === true) await store(state, 'allow-fee-recipients');
      else if (initial) {
        const a = createAddressFromString(String(initial.rewardAddress ?? ZERO_ADDRESS));
        await store(state, a.isZero() ? blackhole() : a);
      } else if (ctx.allowFeeRecipients) await store(state, 'allow-fee-recipients');
      else await store(state, blackhole());
    },
  };
}
