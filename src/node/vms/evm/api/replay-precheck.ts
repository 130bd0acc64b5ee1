/**
 * coreth's checks of a block's transaction before it runs (state_transition.go's preCheck, then
 * buyGas), for replays: a trace of a block given as RLP may hold a transaction its parent's
 * state refuses, and coreth's tracers report the first check it fails, in core/error.go's words.
 * The engine's runTx makes the same checks in another order (fee cap, then funds, then nonce) and
 * wants the upfront cost at the price the block charges where buyGas wants gas × fee cap + value;
 * run first, these leave the engine only its intrinsic gas check to refuse with.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { KECCAK256_NULL, bytesToHex, equalsBytes, toChecksumAddress } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { feeCapBelowBaseFee, insufficientFunds, nonceTooHigh, nonceTooLow } from './core-errors.js';

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

/** The fee cap and tip coreth's TransactionToMessage gives `tx` (a legacy price is both). */
function feeFields(tx: TypedTransaction): { feeCap: bigint; tip: bigint } {
  if ('maxFeePerGas' in tx) return { feeCap: tx.maxFeePerGas, tip: tx.maxPriorityFeePerGas };
  return { feeCap: tx.gasPrice, tip: tx.gasPrice };
}

/** Throws coreth's refusal of `tx` on `vm`'s state, in a block with `baseFee`. */
export async function replayPreCheck(vm: VM, tx: TypedTransaction, baseFee: bigint): Promise<void> {
  const from = tx.getSenderAddress();
  const address = toChecksumAddress(from.toString());
  const account = await vm.stateManager.getAccount(from);
  const nonce = account?.nonce ?? 0n;
  if (nonce < tx.nonce) throw new Error(nonceTooHigh(address, tx.nonce, nonce));
  if (nonce > tx.nonce) throw new Error(nonceTooLow(address, tx.nonce, nonce));
  if (nonce === MAX_UINT64) throw new Error(`nonce has max value: address ${address}, nonce: ${nonce}`);
  // An account that never held code has the empty code hash; coreth reads an absent one as zero.
  if (account && !equalsBytes(account.codeHash, KECCAK256_NULL))
    throw new Error(`sender not an eoa: address ${address}, codehash: ${bytesToHex(account.codeHash)}`);
  const { feeCap, tip } = feeFields(tx);
  // Every EVM block has a base fee (London, Apricot Phase 3, is active from genesis).
  if (feeCap < tip)
    throw new Error(
      `max priority fee per gas higher than max fee per gas: address ${address}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`,
    );
  if (feeCap < baseFee) throw new Error(feeCapBelowBaseFee(address, feeCap, baseFee));
  const want = tx.gasLimit * feeCap + tx.value;
  if (want > MAX_UINT256)
    throw new Error(
      `insufficient funds for gas * price + value: address ${address} required balance exceeds 256 bits`,
    );
  const have = account?.balance ?? 0n;
  if (have < want) throw new Error(insufficientFunds(address, have, want));
}
