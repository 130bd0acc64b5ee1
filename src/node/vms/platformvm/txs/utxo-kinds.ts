/**
 * What the P-chain's outputs and inputs mean: a secp256k1fx transfer, optionally wrapped in a
 * stakeable lock (funds that may be staked but not spent before the lock time).
 */
import { TransferInput, TransferOutput, pvmSerial } from '@avalabs/avalanchejs';
import type { Owners } from '../../components/secp256k1fx.js';
import { ownersOf } from '../codec.js';

export class TxVerifyError extends Error {
  override readonly name = 'TxVerifyError';
}

export interface OutputInfo {
  readonly amount: bigint;
  readonly owners: Owners;
  /** 0 when the output is not stakeable-locked. */
  readonly stakeableLocktime: bigint;
}

export function outputInfo(output: unknown): OutputInfo {
  if (output instanceof pvmSerial.StakeableLockOut) {
    const inner = output.transferOut;
    if (!(inner instanceof TransferOutput))
      throw new TxVerifyError('stakeable lock output does not wrap a secp256k1fx transfer output');
    return {
      amount: inner.amount(),
      owners: ownersOf(inner.outputOwners),
      stakeableLocktime: output.getLocktime(),
    };
  }
  if (output instanceof TransferOutput) {
    return { amount: output.amount(), owners: ownersOf(output.outputOwners), stakeableLocktime: 0n };
  }
  throw new TxVerifyError('output is not a secp256k1fx transfer output');
}

export function utxoOwners(output: unknown): Owners {
  return outputInfo(output).owners;
}

export interface InputInfo {
  readonly amount: bigint;
  readonly sigIndices: number[];
  readonly stakeableLocktime: bigint;
}

export function inputInfo(input: unknown): InputInfo {
  if (input instanceof pvmSerial.StakeableLockIn) {
    const inner = input.transferableInput;
    if (!(inner instanceof TransferInput))
      throw new TxVerifyError('stakeable lock input does not wrap a secp256k1fx transfer input');
    return {
      amount: inner.amount(),
      sigIndices: inner.sigIndicies(),
      stakeableLocktime: input.lockTime.value(),
    };
  }
  if (input instanceof TransferInput) {
    return { amount: input.amount(), sigIndices: input.sigIndicies(), stakeableLocktime: 0n };
  }
  throw new TxVerifyError('input is not a secp256k1fx transfer input');
}
