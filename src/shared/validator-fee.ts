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

/** The excess one second later while `active` validators pay: it moves by their distance to target. */
function nextExcess(config: ValidatorFeeRules, excess: bigint, active: bigint): bigint {
  const next = excess + active - config.target;
  return next < 0n ? 0n : next;
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
      excess = nextExcess(config, excess, active);
      t++;
    }
    accrued += validatorFeePrice(config, excess) * BigInt(seconds - t);
  } else {
    for (let t = 0; t < seconds; t++) {
      accrued += validatorFeePrice(config, excess);
      excess = nextExcess(config, excess, active);
    }
  }
  return { excess, accrued, timestamp: until };
}

/**
 * The whole seconds after the state's timestamp at which the accrued fee first reaches `target`
 * while `active` validators pay it, or `maxSeconds` if it does not get there sooner. For an L1
 * validator whose balance ends at `target`, that is the second its balance runs out: the
 * P-chain's next block may not pass it (the reference's `getNextL1ValidatorEvictionTime` rounds
 * down to the last second the balance covers in full; this rounds up to the second the block
 * that deactivates it can run, the same when the price divides the balance, as 1 nAVAX/s does).
 */
export function secondsUntilAccrued(
  config: ValidatorFeeRules,
  state: ValidatorFeeState,
  active: bigint,
  target: bigint,
  maxSeconds: number,
): number {
  let { excess, accrued } = state;
  for (let t = 0; t < maxSeconds; t++) {
    if (accrued >= target) return t;
    if (excess === 0n && active <= config.target) {
      // The price stays at its minimum from here on: the rest is one division.
      const price = validatorFeePrice(config, 0n);
      if (price === 0n) return maxSeconds;
      const rest = (target - accrued + price - 1n) / price;
      return rest >= BigInt(maxSeconds - t) ? maxSeconds : t + Number(rest);
    }
    accrued += validatorFeePrice(config, excess);
    excess = nextExcess(config, excess, active);
  }
  return maxSeconds;
}
