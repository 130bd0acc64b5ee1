/**
 * How the pool ranks transactions by what they pay, for making room when it is full: as
 * legacypool's priced list, by the tip a tx would pay at the next block's base fee, then its fee
 * cap, then its tip cap. (coreth keeps two heaps, one by that tip and one by the fee cap alone,
 * evicting from whichever is fuller; one order over both keys is what a client can rely on.)
 */
import type { TypedTransaction } from '@ethereumjs/tx';

export function feeCaps(tx: TypedTransaction): { maxFee: bigint; tip: bigint } {
  const t = tx as any;
  if (t.maxFeePerGas !== undefined) return { maxFee: t.maxFeePerGas, tip: t.maxPriorityFeePerGas };
  return { maxFee: t.gasPrice, tip: t.gasPrice };
}

/** Negative when `a` pays less than `b` at `baseFee`, positive when more, 0 when the same. */
export function comparePay(a: TypedTransaction, b: TypedTransaction, baseFee: bigint): number {
  const fa = feeCaps(a);
  const fb = feeCaps(b);
  const tipA = min(fa.tip, fa.maxFee - baseFee);
  const tipB = min(fb.tip, fb.maxFee - baseFee);
  return sign(tipA - tipB) || sign(fa.maxFee - fb.maxFee) || sign(fa.tip - fb.tip);
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function sign(n: bigint): number {
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}
