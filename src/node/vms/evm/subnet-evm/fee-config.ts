/**
 * Subnet-EVM's fee config (the eight `feeConfig` fields of the genesis and of the FeeManager
 * precompile) and the base fee rule it drives: the gas used in the last ten seconds against
 * `targetGas`, moving the parent's base fee by at most 1/`baseFeeChangeDenominator` of it, never
 * below `minBaseFee`; `gasLimit` is every block's gas limit.
 */

export interface FeeConfig {
  readonly gasLimit: bigint;
  readonly targetBlockRate: bigint;
  readonly minBaseFee: bigint;
  readonly targetGas: bigint;
  readonly baseFeeChangeDenominator: bigint;
  readonly minBlockGasCost: bigint;
  readonly maxBlockGasCost: bigint;
  readonly blockGasCostStep: bigint;
}

export const FEE_CONFIG_FIELDS = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const satisfies readonly (keyof FeeConfig)[];

/** The reference default (`DefaultFeeConfig`): 8M gas, 2 s, 25 gwei, 15M per 10 s. */
export const DEFAULT_FEE_CONFIG: FeeConfig = {
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
};

/** The window the base fee looks back over, in seconds. */
export const ROLLUP_WINDOW = 10n;

export class FeeConfigError extends Error {}

export const MAX_UINT64 = (1n << 64n) - 1n;

/**
 * The reference `FeeConfig.Verify` rules, in its words (the rule, then the offending values).
 * A gas limit past 64 bits, which the reference accepts and then truncates into headers, is
 * refused in the same style.
 */
export function verifyFeeConfig(c: FeeConfig): void {
  const refuse = (rule: string, values: (keyof FeeConfig)[]): never => {
    throw new FeeConfigError(`${rule}: ${values.map((f) => `${f} = ${c[f]}`).join(', ')}`);
  };
  if (c.gasLimit <= 0n) refuse('gasLimit cannot be less than or equal to 0', ['gasLimit']);
  if (c.targetBlockRate <= 0n)
    refuse('targetBlockRate cannot be less than or equal to 0', ['targetBlockRate']);
  if (c.minBaseFee < 0n) refuse('minBaseFee cannot be less than 0', ['minBaseFee']);
  if (c.targetGas <= 0n) refuse('targetGas cannot be less than or equal to 0', ['targetGas']);
  if (c.baseFeeChangeDenominator <= 0n)
    refuse('baseFeeChangeDenominator cannot be less than or equal to 0', ['baseFeeChangeDenominator']);
  if (c.minBlockGasCost < 0n) refuse('minBlockGasCost cannot be less than 0', ['minBlockGasCost']);
  if (c.minBlockGasCost > c.maxBlockGasCost)
    refuse('minBlockGasCost cannot be greater than maxBlockGasCost', ['minBlockGasCost', 'maxBlockGasCost']);
  if (c.blockGasCostStep < 0n) refuse('blockGasCostStep cannot be less than 0', ['blockGasCostStep']);
  if (c.maxBlockGasCost > MAX_UINT64) refuse('maxBlockGasCost is not a valid uint64', ['maxBlockGasCost']);
  if (c.gasLimit > MAX_UINT64) refuse('gasLimit is not a valid uint64', ['gasLimit']);
}

/** Parses a genesis `feeConfig` (missing fields take the default, as partial configs are common). */
export function parseFeeConfig(json: unknown): FeeConfig {
  if (json === undefined || json === null) return DEFAULT_FEE_CONFIG;
  if (typeof json !== 'object' || Array.isArray(json))
    throw new FeeConfigError('feeConfig must be an object');
  const out: Record<string, bigint> = { ...DEFAULT_FEE_CONFIG };
  for (const field of FEE_CONFIG_FIELDS) {
    const v = (json as Record<string, unknown>)[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' && typeof v !== 'string')
      throw new FeeConfigError(`feeConfig.${field} must be a number`);
    try {
      out[field] = BigInt(v);
    } catch {
      throw new FeeConfigError(`feeConfig.${field} must be a number`);
    }
  }
  const cfg = out as unknown as FeeConfig;
  verifyFeeConfig(cfg);
  return cfg;
}

/** JSON numbers, as the reference writes a fee config (big.Int fields marshal as numbers). */
export function feeConfigJson(c: FeeConfig): Record<string, number> {
  const out: Record<string, number> = {};
  for (const field of FEE_CONFIG_FIELDS) out[field] = Number(c[field]);
  return out;
}

/**
 * The next block's base fee. `windowGas` is the gas used in the last ROLLUP_WINDOW seconds
 * before the block (already decayed for the time elapsed); `elapsed` is seconds since the parent.
 */
export function nextBaseFee(c: FeeConfig, parentBaseFee: bigint, windowGas: bigint, elapsed: bigint): bigint {
  let base = parentBaseFee < c.minBaseFee ? c.minBaseFee : parentBaseFee;
  if (windowGas > c.targetGas) {
    let delta = (base * (windowGas - c.targetGas)) / c.targetGas / c.baseFeeChangeDenominator;
    if (delta < 1n) delta = 1n;
    base += delta;
  } else if (windowGas < c.targetGas) {
    let delta = (base * (c.targetGas - windowGas)) / c.targetGas / c.baseFeeChangeDenominator;
    if (delta < 1n) delta = 1n;
    // A quiet chain lowers its fee once per elapsed window, as the reference does.
    if (elapsed > ROLLUP_WINDOW) delta *= elapsed / ROLLUP_WINDOW;
    base = base > delta ? base - delta : 0n;
  }
  return base < c.minBaseFee ? c.minBaseFee : base;
}

/** Gas used in the window, carried to a block `elapsed` seconds later (linear decay). */
export function decayWindow(windowGas: bigint, elapsed: bigint): bigint {
  if (elapsed >= ROLLUP_WINDOW) return 0n;
  if (elapsed <= 0n) return windowGas;
  return (windowGas * (ROLLUP_WINDOW - elapsed)) / ROLLUP_WINDOW;
}
