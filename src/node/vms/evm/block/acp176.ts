/**
 * Avalanche's C-chain dynamic fee rules as the reference applies them since the Fortuna upgrade
 * (ACP-176): a gas bucket that refills at twice the target rate up to ten seconds of target, an
 * excess that drains at the target rate, and a price `M · e^(excess / K)` with K = 87 · target.
 * The target itself is `P · e^(q / D)`; validators move q by at most 2^15 per block. The full
 * rules and the constants are written out in docs/evm.md.
 */

/** P: the smallest target, in gas per second. */
export const MIN_TARGET_PER_SECOND = 1_000_000n;
/** D: converts the target excess q into the target. */
export const TARGET_CONVERSION = 1n << 25n;
/** Q: the largest change of q in one block. */
export const MAX_TARGET_EXCESS_DIFF = 1n << 15n;
/** M: the minimum gas price, in wei. */
export const MIN_GAS_PRICE = 1n;
export const TARGET_TO_MAX = 2n;
export const TIME_TO_FILL_CAPACITY = 5n;
export const TARGET_TO_PRICE_UPDATE_CONVERSION = 87n;

export interface FeeState {
  /** Gas the next block may still use. */
  readonly capacity: bigint;
  /** Gas used above the target rate, decaying at the target rate. */
  readonly excess: bigint;
  /** q: selects the target rate. */
  readonly targetExcess: bigint;
}

/** The EIP-4844 integer approximation of factor · e^(numerator / denominator). */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n;
  let output = 0n;
  let accum = factor * denominator;
  while (accum > 0n) {
    output += accum;
    accum = (accum * numerator) / (denominator * i);
    i++;
  }
  return output / denominator;
}

/** Targets by q: q stays put between blocks, and every fee computation needs the target. */
const targets = new Map<bigint, bigint>();

export function targetPerSecond(state: FeeState): bigint {
  let target = targets.get(state.targetExcess);
  if (target === undefined) {
    target = fakeExponential(MIN_TARGET_PER_SECOND, state.targetExcess, TARGET_CONVERSION);
    if (targets.size >= 1024) targets.clear();
    targets.set(state.targetExcess, target);
  }
  return target;
}

export function maxCapacity(state: FeeState): bigint {
  return targetPerSecond(state) * TARGET_TO_MAX * TIME_TO_FILL_CAPACITY;
}

/** The base fee a block with this (already advanced) state pays, in wei. */
export function gasPrice(state: FeeState): bigint {
  const k = targetPerSecond(state) * TARGET_TO_PRICE_UPDATE_CONVERSION;
  // Every transaction admitted between two blocks asks for the same price.
  if (lastPrice.excess !== state.excess || lastPrice.k !== k)
    lastPrice = { excess: state.excess, k, price: fakeExponential(MIN_GAS_PRICE, state.excess, k) };
  return lastPrice.price;
}

let lastPrice = { excess: -1n, k: 0n, price: 0n };

/** The state `seconds` later: capacity refills, excess drains. */
export function advanceSeconds(state: FeeState, seconds: bigint): FeeState {
  if (seconds <= 0n) return state;
  const target = targetPerSecond(state);
  const maxPerSecond = target * TARGET_TO_MAX;
  const cap = maxPerSecond * TIME_TO_FILL_CAPACITY;
  const capacity = state.capacity + maxPerSecond * seconds;
  const drain = target * seconds;
  return {
    capacity: capacity > cap ? cap : capacity,
    excess: state.excess > drain ? state.excess - drain : 0n,
    targetExcess: state.targetExcess,
  };
}

/** The state after a block used `gasUsed` (execution gas plus atomic gas). */
export function consumeGas(state: FeeState, gasUsed: bigint): FeeState {
  if (gasUsed > state.capacity)
    throw new Error(`block gas ${gasUsed} exceeds the capacity ${state.capacity}`);
  return {
    capacity: state.capacity - gasUsed,
    excess: state.excess + gasUsed,
    targetExcess: state.targetExcess,
  };
}

/**
 * Moves q toward the validator's desired value by at most Q, rescaling the excess so the price
 * does not jump when the target changes (as the reference does).
 */
export function updateTargetExcess(state: FeeState, desired: bigint): FeeState {
  const diff = desired - state.targetExcess;
  const step =
    diff > MAX_TARGET_EXCESS_DIFF
      ? MAX_TARGET_EXCESS_DIFF
      : diff < -MAX_TARGET_EXCESS_DIFF
        ? -MAX_TARGET_EXCESS_DIFF
        : diff;
  if (step === 0n) return state;
  const oldK = targetPerSecond(state) * TARGET_TO_PRICE_UPDATE_CONVERSION;
  const next = { ...state, targetExcess: state.targetExcess + step };
  const newK = targetPerSecond(next) * TARGET_TO_PRICE_UPDATE_CONVERSION;
  const excess = (state.excess * newK) / oldK;
  const cap = maxCapacity(next);
  return { capacity: state.capacity > cap ? cap : state.capacity, excess, targetExcess: next.targetExcess };
}

/** q for a target rate: the inverse of `targetPerSecond`, found by bisection. */
export function targetExcessFor(target: bigint): bigint {
  if (target <= MIN_TARGET_PER_SECOND) return 0n;
  // Grow the bracket first: the series behind a far too large q (e^(q/D)) takes seconds to sum.
  let hi = TARGET_CONVERSION;
  while (targetPerSecond({ capacity: 0n, excess: 0n, targetExcess: hi }) < target) hi *= 2n;
  let lo = 0n;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (targetPerSecond({ capacity: 0n, excess: 0n, targetExcess: mid }) < target) lo = mid + 1n;
    else hi = mid;
  }
  return lo;
}

/** The header `Extra` prefix the reference writes: capacity, excess and q as big-endian u64s. */
export function encodeFeeState(state: FeeState): Uint8Array {
  const out = Buffer.alloc(24);
  out.writeBigUInt64BE(state.capacity, 0);
  out.writeBigUInt64BE(state.excess, 8);
  out.writeBigUInt64BE(state.targetExcess, 16);
  return out;
}

export function decodeFeeState(extra: Uint8Array): FeeState {
  if (extra.length < 24) throw new Error('header extra is shorter than the fee state');
  const b = Buffer.from(extra.buffer, extra.byteOffset, extra.byteLength);
  return {
    capacity: b.readBigUInt64BE(0),
    excess: b.readBigUInt64BE(8),
    targetExcess: b.readBigUInt64BE(16),
  };
}
