/**
 * `platform.sampleValidators`: `size` distinct validators drawn by weight, without replacement,
 * as the reference's weighted sampler does (a heavier validator is proportionally more likely to
 * be drawn; each is drawn at most once).
 */
import { randomBytes } from 'node:crypto';
import type { ValidatorWeight } from '../state/validator-sets.js';

/** A uniform integer in [0, bound), bound > 0. */
export type RandomBelow = (bound: bigint) => bigint;

/** Rejection sampling over 64 random bits at a time (no modulo bias). */
export const cryptoRandomBelow: RandomBelow = (bound) => {
  const bits = BigInt(bound.toString(2).length);
  const words = Number((bits + 63n) / 64n);
  for (;;) {
    let v = 0n;
    for (const w of new BigUint64Array(randomBytes(8 * words).buffer)) v = (v << 64n) | w;
    v &= (1n << bits) - 1n;
    if (v < bound) return v;
  }
};

export class SampleSizeError extends Error {
  override readonly name = 'SampleSizeError';
}

/** `size` validators of `set`, drawn by weight without replacement (in draw order). */
export function sampleByWeight(
  set: readonly ValidatorWeight[],
  size: number,
  randomBelow: RandomBelow = cryptoRandomBelow,
): ValidatorWeight[] {
  const left = set.filter((v) => v.weight > 0n);
  if (size > left.length)
    throw new SampleSizeError(`${size} validators requested, the set has ${left.length}`);
  const out: ValidatorWeight[] = [];
  let total = left.reduce((sum, v) => sum + v.weight, 0n);
  while (out.length < size) {
    let r = randomBelow(total);
    let i = 0;
    while (r >= left[i].weight) r -= left[i++].weight;
    const [drawn] = left.splice(i, 1);
    total -= drawn.weight;
    out.push(drawn);
  }
  return out;
}
