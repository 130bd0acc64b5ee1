/**
 * ContractNativeMinter (0x0200…0001): `mintNativeCoin(address,uint256)` credits native coin to
 * an address when the caller is Enabled (or Manager/Admin) on its allow list, and emits the
 * reference `NativeCoinMinted` event. `initialMint` credits balances at activation.
 */
import { Account, Address, createAddressFromString } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  allowListFunctions,
  allowListJson,
  configureAllowList,
  isEnabled,
  parseAllowListConfig,
  AllowListConfigError,
  roleOf,
} from './allow-list.js';
import {
  addressWord,
  dispatcher,
  eventTopic,
  goAddress,
  log,
  logGas,
  outOfGas,
  readAddress,
  readWords,
  refuse,
  selector,
  stateOf,
  success,
  unpackInput,
  word,
} from './contract.js';
import { PRECOMPILE_ADDRESSES, type SubnetPrecompileModule } from './subnet-module.js';

export const MINT_GAS_COST = 30_000n;
const NATIVE_COIN_MINTED = eventTopic('NativeCoinMinted(address,address,uint256)');
const ADDRESS = createAddressFromString(PRECOMPILE_ADDRESSES.contractNativeMinterConfig);

const BALANCE_MODULUS = 1n << 256n;

/** Adds `amount` to a balance as the reference's uint256 AddBalance does: modulo 2^256. */
async function credit(state: MerkleStateManager, address: Address, amount: bigint): Promise<void> {
  const acct = (await state.getAccount(address)) ?? new Account();
  acct.balance = (acct.balance + amount) % BALANCE_MODULUS;
  await state.putAccount(address, acct);
}

function parseInitialMint(json: unknown): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (json === undefined || json === null) return out;
  if (typeof json !== 'object' || Array.isArray(json))
    throw new AllowListConfigError('contractNativeMinterConfig.initialMint must be an object');
  for (const [addr, amount] of Object.entries(json)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(addr))
      throw new AllowListConfigError(`initialMint: ${addr} is not an address`);
    let v: bigint;
    try {
      v = BigInt(amount as string | number);
    } catch {
      throw new AllowListConfigError(`initialMint: ${String(amount)} is not an amount`);
    }
    if (v < 0n) throw new AllowListConfigError('initialMint amounts must not be negative');
    out.set(addr.toLowerCase(), v);
  }
  return out;
}

export function contractNativeMinter(
  activation: number,
  json: Record<string, unknown>,
): SubnetPrecompileModule {
  const cfg = parseAllowListConfig(json, 'contractNativeMinterConfig');
  const initialMint = parseInitialMint(json.initialMint);
  const configJson: Record<string, unknown> = allowListJson(cfg);
  if (initialMint.size)
    configJson.initialMint = Object.fromEntries([...initialMint].map(([a, v]) => [a, '0x' + v.toString(16)]));
  return {
    address: PRECOMPILE_ADDRESSES.contractNativeMinterConfig,
    configKey: 'contractNativeMinterConfig',
    activation,
    configJson,
    run: dispatcher({
      ...allowListFunctions(ADDRESS),
      [selector('mintNativeCoin(address,uint256)')]: async (call, args) => {
        // MintGasCost, then the NativeCoinMinted event once the caller may mint (the
        // reference's order); no allow-list read on top.
        if (call.gasLimit < MINT_GAS_COST) return outOfGas(call);
        if (call.isStatic) return refuse(call, 'write protection');
        const [to, amount] = unpackInput(() => [readAddress(args, 0, 2), readWords(args, 2)[1]] as const);
        const state = stateOf(call);
        if (!isEnabled(await roleOf(state, ADDRESS, call.caller)))
          return refuse(call, `non-enabled cannot mint: ${goAddress(call.caller)}`);
        const cost = MINT_GAS_COST + logGas(3, 32);
        if (call.gasLimit < cost) return outOfGas(call);
        await credit(state, to, amount);
        const entry = log(
          ADDRESS,
          [NATIVE_COIN_MINTED, addressWord(call.caller.bytes), addressWord(to.bytes)],
          word(amount),
        );
        return success(cost, new Uint8Array(), [entry]);
      },
    }),
    async configure(state) {
      await configureAllowList(state, ADDRESS, cfg);
      for (const [addr, amount] of initialMint) await credit(state, createAddressFromString(addr), amount);
    },
  };
}
