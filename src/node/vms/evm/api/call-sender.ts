/**
 * The sender checks of geth's calls (`eth_call`, `eth_estimateGas`, `eth_createAccessList`,
 * `debug_traceCall`), which differ from a transaction's: a call may come from an address with
 * code (core.Message.SkipAccountChecks), and the sender must hold `gas × fee cap + value`, with a
 * fee cap of 0 when the call names no price (buyGas), so a call moving more value than its sender
 * has fails even without a price. The engine's runTx does neither: it refuses any sender with
 * code (EIP-3607) and, told to skip its balance check, tops the sender up to any value.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { VM } from '@ethereumjs/vm';
import { Address, KECCAK256_NULL, equalsBytes, toChecksumAddress } from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { CallArgs } from './call.js';
import { insufficientFunds } from './core-errors.js';

/** The fee cap geth's ToMessage gives a call: gasPrice, else maxFeePerGas, else 0. */
export function callFeeCap(args: CallArgs): bigint {
  return args.gasPrice ?? args.maxFeePerGas ?? 0n;
}

/** geth's buyGas refusal, as a call's run reports it. */
export async function checkCallFunds(
  state: MerkleStateManager,
  from: Address,
  args: CallArgs,
  gas: bigint,
): Promise<void> {
  const have = (await state.getAccount(from))?.balance ?? 0n;
  const want = gas * callFeeCap(args) + (args.value ?? 0n);
  if (have < want) throw new Error(insufficientFunds(toChecksumAddress(from.toString()), have, want));
}

/**
 * geth's estimator caps its search at the gas the sender can pay for at the call's fee cap
 * (after the value), and refuses a value the balance does not exceed; without a fee cap there is
 * no such bound (undefined).
 */
export async function fundedGas(
  state: MerkleStateManager,
  from: Address,
  args: CallArgs,
): Promise<bigint | undefined> {
  const feeCap = callFeeCap(args);
  if (feeCap === 0n) return undefined;
  const balance = (await state.getAccount(from))?.balance ?? 0n;
  const value = args.value ?? 0n;
  if (value >= balance) throw new RpcError(RpcCode.server, 'insufficient funds for transfer');
  return (balance - value) / feeCap;
}

/**
 * Lets the next runTx take `from` as a sender though it has code. runTx reads the sender's
 * account right after its `beforeTx` event and checks its code hash (EIP-3607), with no option to
 * skip that; so once every other `beforeTx` listener has run (a tracer reads the sender there),
 * that next read is answered with an account whose code hash reads as empty exactly once: the
 * check passes, and every later read (the account runTx writes back, calls into the sender's own
 * code) sees the real hash. Returns a function that removes the hooks.
 */
export async function admitCodeSender(vm: VM, state: MerkleStateManager, from: Address): Promise<() => void> {
  const account = await state.getAccount(from);
  if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return () => {};
  const read = state.getAccount.bind(state);
  let hooked = false;
  const unhook = () => {
    // The hook is an own property shadowing the class's method.
    if (hooked) delete (state as { getAccount?: unknown }).getAccount;
    hooked = false;
  };
  // Registered last, so it runs after every listener already attached (tracers).
  const onBeforeTx = (_tx: unknown, resolve?: () => void) => {
    hooked = true;
    state.getAccount = async (address: Address) => {
      const found = await read(address);
      if (found === undefined || !address.equals(from)) return found;
      unhook();
      Object.defineProperty(found, 'codeHash', {
        configurable: true,
        get() {
          delete (found as { codeHash?: unknown }).codeHash;
          return KECCAK256_NULL;
        },
      });
      return found;
    };
    resolve?.();
  };
  vm.events.on('beforeTx', onBeforeTx);
  return () => {
    vm.events.off('beforeTx', onBeforeTx);
    unhook();
  };
}
