/**
 * Intrinsic gas with predicate precompiles (the reference `accessListGas`): an access-list entry
 * naming an active predicate precompile (Warp) is charged that precompile's predicate gas
 * instead of the usual per-address and per-key cost. The engine reads a transaction's intrinsic
 * gas from the transaction itself, so the transaction it runs is a view whose
 * `getIntrinsicGas()` answers the adjusted figure; everything else reads through to the original.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import type { PrecompileModule } from './registry.js';

type AccessList = [Uint8Array, Uint8Array[]][];

/** The adjusted intrinsic gas, or undefined when no entry names an active predicate precompile. */
export function predicateIntrinsicGas(
  tx: TypedTransaction,
  active: readonly PrecompileModule[],
): bigint | undefined {
  const accessList = (tx as { accessList?: AccessList }).accessList;
  if (!accessList || accessList.length === 0) return undefined;
  const predicaters = new Map<string, PrecompileModule>();
  for (const m of active) if (m.predicateGas) predicaters.set(m.address.toLowerCase(), m);
  if (predicaters.size === 0) return undefined;
  let gas = tx.getIntrinsicGas();
  let adjusted = false;
  for (const [address, keys] of accessList) {
    const module = predicaters.get(bytesToHex(address).toLowerCase());
    if (!module) continue;
    adjusted = true;
    const usual =
      tx.common.param('accessListAddressGas') +
      BigInt(keys.length) * tx.common.param('accessListStorageKeyGas');
    gas = gas - usual + module.predicateGas!(keys);
  }
  return adjusted ? gas : undefined;
}

/** `tx` as the engine must run it: the same transaction with its predicate-adjusted intrinsic gas. */
export function withIntrinsicGas(tx: TypedTransaction, gas: bigint): TypedTransaction {
  const getIntrinsicGas = () => gas;
  return new Proxy(tx, {
    get(target, key, receiver) {
      return key === 'getIntrinsicGas' ? getIntrinsicGas : Reflect.get(target, key, receiver);
    },
  });
}
