/**
 * ACP-77's continuous fee of L1 validators, shared by the P-chain (which charges it) and the
 * data indexer (which replays it from the chain's blocks to know what each validator paid): the
 * same arithmetic on both sides is what makes the replay exact. The price follows an
 * approximated exponential of the "excess" of active validators over target, integrated over
 * time, as ACP-103's transaction gas price does.
 */

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

/** The parameters the fee depends on (`platform.getValidatorFeeConfig`, less the capacity). */
export interface ValidatorFeeRules {
  readonly target: bigint;
  readonly minPrice: bigint;
  readonly excessConversionConstant: bigint;
}

export interface ValidatorFeeState {
  /** Active L1 validators' excess over target, integrated over time. */
  readonly excess: bigint;
  /** Total fee per validator accrued since genesis (nAVAX). */
  readonly accrued: bigint;
  readonly timestamp: number;
}

export function validatorFeePrice(config: ValidatorFeeRules, excess: bigint): bigint {
  return fakeExponential(config.minPrice, excess, config.excessConversionConstant);
}

/**
 * Accrues the per-validator fee from the state's timestamp to `until` while `active` validators
 * pay it. Stepped per second only while the set is above target (the price moves then).
 */
export function advanceValidatorFee(
  config: ValidatorFeeRules,
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
