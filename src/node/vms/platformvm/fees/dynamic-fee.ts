/**
 * The ACP-103 gas model of P-chain transaction fees and the ACP-77 continuous fee of L1
 * validators. Both turn an "excess" into a price with the same approximated exponential, so a
 * sustained load above target raises the price and idle time lowers it back to the minimum.
 */
import type { GasFeeConfig, ValidatorFeeConfig } from '../config.js';

/** price = factor · e^(numerator/denominator), by the Taylor series the reference uses. */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let output = 0n;
  let accumulator = factor * denominator;
  for (let i = 1n; accumulator > 0n; i++) {
    output += accumulator;
    accumulator = (accumulator * numerator) / (denominator * i);
  }
  return output / denominator;
}

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

export interface ValidatorFeeState {
  /** Active L1 validators' excess over target, integrated over time. */
  readonly excess: bigint;
  /** Total fee per validator accrued since genesis (nAVAX). */
  readonly accrued: bigint;
  readonly timestamp: number;
}

export function validatorFeePrice(config: ValidatorFeeConfig, excess: bigint): bigint {
  return fakeExponential(config.minPrice, excess, config.excessConversionConstant);
}

/**
 * Accrues the per-validator fee from the state's timestamp to `until` while `active` validators
 * pay it. Stepped per second only while the set is above target (the price moves then).
 */
export function advanceValidatorFee(
  config: ValidatorFeeConfig,
  state: ValidatorFeeState,
  active: bigint,
  until: number,
): ValidatorFeeState {
  if (until <= state.timestamp) return state;
  let { excess, accrued } = state;
  const seconds = until - state.timestamp;
  if (active <= config.target) {
    // The price can only fall; accrue second by second only until excess is gone.
    let t = 0;
    while (t < seconds && excess > 0n) {
      accrued += validatorFeePrice(config, excess);
      excess -= config.target - active;
      if (excess < 0n) excess = 0n;
      t++;
    }
    accrued += validatorFeePrice(config, excess) * BigInt(seconds - t);
  } else {
    for (let t = 0; t < seconds; t++) {
      accrued += validatorFeePrice(config, excess);
      excess += active - config.target;
    }
  }
  return { excess, accrued, timestamp: until };
}
