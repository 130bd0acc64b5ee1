/**
 * The ACP-103 gas model of P-chain transaction fees and the ACP-77 continuous fee of L1
 * validators. Both turn an "excess" into a price with the same approximated exponential, so a
 * sustained load above target raises the price and idle time lowers it back to the minimum.
 */
import type { GasFeeConfig } from '../config.js';
import { fakeExponential } from '../../../../shared/validator-fee.js';

// The validator fee's arithmetic is shared with the data indexer, which replays it.
export {
  advanceValidatorFee,
  fakeExponential,
  secondsUntilAccrued,
  validatorFeePrice,
  type ValidatorFeeState,
} from '../../../../shared/validator-fee.js';

export interface GasState {
  /** Gas the chain may still consume right now. */
  readonly capacity: bigint;
  /** Gas consumed above target, decaying at the target rate. */
  readonly excess: bigint;
  /** Unix seconds this state is valid at. */
  readonly timestamp: number;
}

export function gasPrice(config: GasFeeConfig, state: GasState): bigint {
  return fakeExponential(config.minPrice, state.excess, config.excessConversionConstant);
}

/** The state after `until` (Unix seconds) with nothing consumed: capacity refills, excess decays. */
export function advanceGasState(config: GasFeeConfig, state: GasState, until: number): GasState {
  if (until <= state.timestamp) return state;
  const seconds = BigInt(until - state.timestamp);
  let capacity = state.capacity + config.maxPerSecond * seconds;
  if (capacity > config.maxCapacity) capacity = config.maxCapacity;
  let excess = state.excess - config.targetPerSecond * seconds;
  if (excess < 0n) excess = 0n;
  return { capacity, excess, timestamp: until };
}

export class GasCapacityError extends Error {
  override readonly name = 'GasCapacityError';
}

/** Consumes `gas`; a block may not use more than the capacity accumulated so far. */
export function consumeGas(state: GasState, gas: bigint): GasState {
  if (gas > state.capacity) {
    throw new GasCapacityError(`gas ${gas} exceeds the current capacity ${state.capacity}`);
  }
  return { capacity: state.capacity - gas, excess: state.excess + gas, timestamp: state.timestamp };
}

/** bandwidth, dbRead, dbWrite, compute · weights */
export function dimensionsToGas(
  dimensions: readonly [number, number, number, number],
  weights: readonly [number, number, number, number],
): bigint {
  let gas = 0n;
  for (let i = 0; i < 4; i++) gas += BigInt(dimensions[i]) * BigInt(weights[i]);
  return gas;
}
