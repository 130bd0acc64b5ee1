/**
 * The reference allow list shared by the Subnet-EVM precompiles: each address has a role
 * (None 0, Enabled 1, Admin 2, Manager 3) stored in the precompile's own storage at the
 * address's 32-byte left-padded slot. Admins set any role; managers move accounts between None
 * and Enabled only; Enabled accounts use the precompile. The IAllowList ABI (setAdmin, setEnabled,
 * setManager, setNone, readAllowList) and the `RoleSet` event are the reference's.
 */
import { Address, createAddressFromString } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  addressWord,
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
  word,
  WRITE_GAS_COST_PER_SLOT,
  writeSlot,
  type PrecompileFunction,
} from './contract.js';

export enum Role {
  None = 0,
  Enabled = 1,
  Admin = 2,
  Manager = 3,
}

export const ROLE_NAMES: Record<number, string> = { 0: 'None', 1: 'Enabled', 2: 'Admin', 3: 'Manager' };
/** The reference's `Role.String()`, as its refusals print roles. */
const ROLE_STRINGS: Record<number, string> = {
  0: 'NoRole',
  1: 'EnabledRole',
  2: 'AdminRole',
  3: 'ManagerRole',
};

export const MODIFY_ALLOW_LIST_GAS_COST = WRITE_GAS_COST_PER_SLOT;
export const READ_ALLOW_LIST_GAS_COST = READ_GAS_COST_PER_SLOT;
const ROLE_SET = eventTopic('RoleSet(uint256,address,address,uint256)');
/** RoleSet's four topics and its one data word (the old role). */
const ROLE_SET_EVENT_GAS = logGas(4, 32);

export interface AllowListConfig {
  readonly adminAddresses: readonly string[];
  readonly managerAddresses: readonly string[];
  readonly enabledAddresses: readonly string[];
}

export class AllowListConfigError extends Error {}

/** Reads `adminAddresses`/`managerAddresses`/`enabledAddresses` (each optional) and checks overlaps. */
export function parseAllowListConfig(json: Record<string, unknown>, key: string): AllowListConfig {
  const list = (name: string): string[] => {
    const v = json[name];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((a) => typeof a !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(a)))
      throw new AllowListConfigError(`${key}.${name} must be an array of 0x addresses`);
    return v.map((a: string) => a.toLowerCase());
  };
  const cfg = {
    adminAddresses: list('adminAddresses'),
    managerAddresses: list('managerAddresses'),
    enabledAddresses: list('enabledAddresses'),
  };
  const seen = new Set<string>();
  for (const a of [...cfg.adminAddresses, ...cfg.managerAddresses, ...cfg.enabledAddresses]) {
    if (seen.has(a))
      throw new AllowListConfigError(`${key}: address ${a} appears in more than one role list`);
    seen.add(a);
  }
  return cfg;
}

export function allowListJson(cfg: AllowListConfig): Record<string, unknown> {
  // Go's omitempty on each list.
  const out: Record<string, unknown> = {};
  if (cfg.adminAddresses.length) out.adminAddresses = cfg.adminAddresses;
  if (cfg.managerAddresses.length) out.managerAddresses = cfg.managerAddresses;
  if (cfg.enabledAddresses.length) out.enabledAddresses = cfg.enabledAddresses;
  return out;
}

export async function roleOf(
  state: MerkleStateManager,
  precompile: Address,
  account: Address,
): Promise<Role> {
  const v = await readSlot(state, precompile, addressWord(account.bytes));
  return v <= 3n ? (Number(v) as Role) : Role.None;
}

export async function setRole(
  state: MerkleStateManager,
  precompile: Address,
  account: Address,
  role: Role,
): Promise<void> {
  await writeSlot(state, precompile, addressWord(account.bytes), BigInt(role));
}

export const isEnabled = (role: Role): boolean => role !== Role.None;

/** Writes the configured roles (at activation). */
export async function configureAllowList(
  state: MerkleStateManager,
  precompile: Address,
  cfg: AllowListConfig,
): Promise<void> {
  for (const a of cfg.adminAddresses)
    await setRole(state, precompile, createAddressFromString(a), Role.Admin);
  for (const a of cfg.managerAddresses)
    await setRole(state, precompile, createAddressFromString(a), Role.Manager);
  for (const a of cfg.enabledAddresses)
    await setRole(state, precompile, createAddressFromString(a), Role.Enabled);
}

function canModify(caller: Role, oldRole: Role, newRole: Role): boolean {
  if (caller === Role.Admin) return true;
  const plain = (r: Role) => r === Role.None || r === Role.Enabled;
  return caller === Role.Manager && plain(oldRole) && plain(newRole);
}

function setter(precompile: Address, role: Role): PrecompileFunction {
  return async (call, args) => {
    // The reference's order: the write's gas, the input, write protection, the caller's right,
    // and only then the RoleSet event's gas (so a refused caller hears why, not "out of gas").
    if (call.gasLimit < MODIFY_ALLOW_LIST_GAS_COST) return outOfGas(call);
    const account = readAddress(args, 0);
    if (call.isStatic) return refuse(call, 'write protection');
    const state = stateOf(call);
    const callerRole = await roleOf(state, precompile, call.caller);
    const oldRole = await roleOf(state, precompile, account);
    if (!canModify(callerRole, oldRole, role))
      // The reference's words, which name the caller as the "modify address".
      return refuse(
        call,
        `cannot modify allow list: modify address: ${goAddress(call.caller)}, from role: ${ROLE_STRINGS[oldRole]}, to role: ${ROLE_STRINGS[role]}`,
      );
    const cost = MODIFY_ALLOW_LIST_GAS_COST + ROLE_SET_EVENT_GAS;
    if (call.gasLimit < cost) return outOfGas(call);
    await setRole(state, precompile, account, role);
    const entry = log(
      precompile,
      [ROLE_SET, word(BigInt(role)), addressWord(account.bytes), addressWord(call.caller.bytes)],
      word(BigInt(oldRole)),
    );
    return success(cost, new Uint8Array(), [entry]);
  };
}

/** The IAllowList functions of the precompile at `precompile`. */
export function allowListFunctions(precompile: Address): Record<string, PrecompileFunction> {
  return {
    [selector('setAdmin(address)')]: setter(precompile, Role.Admin),
    [selector('setEnabled(address)')]: setter(precompile, Role.Enabled),
    [selector('setManager(address)')]: setter(precompile, Role.Manager),
    [selector('setNone(address)')]: setter(precompile, Role.None),
    [selector('readAllowList(address)')]: async (call, args) => {
      if (call.gasLimit < READ_ALLOW_LIST_GAS_COST) return outOfGas(call);
      const account = readAddress(args, 0);
      const role = await roleOf(stateOf(call), precompile, account);
      return success(READ_ALLOW_LIST_GAS_COST, word(BigInt(role)));
    },
  };
}
