/**
 * The P-chain's rules that differ between networks or that the devnet makes configurable:
 * staking limits, reward parameters and the two dynamic fee configurations (ACP-103 gas for
 * transactions, ACP-77 continuous fee for L1 validators).
 */
import {
  MAX_VALIDATOR_STAKE,
  MAX_VALIDATOR_WEIGHT_FACTOR,
  type NetworkIdentity,
} from '../../../shared/networks.js';

const NANO_AVAX_PER_AVAX = 1_000_000_000n;

export interface StakingConfig {
  readonly minValidatorStake: bigint;
  readonly maxValidatorStake: bigint;
  readonly minDelegatorStake: bigint;
  /** Parts per million. */
  readonly minDelegationFee: number;
  /** Seconds. */
  readonly minStakeDuration: number;
  readonly maxStakeDuration: number;
  /** A validator's total (own + delegated) weight may reach this multiple of its own stake. */
  readonly maxValidatorWeightFactor: bigint;
}

export interface RewardConfig {
  /** Parts per million. */
  readonly maxConsumptionRate: bigint;
  readonly minConsumptionRate: bigint;
  /** Nanoseconds, as the reference computes with Go durations. */
  readonly mintingPeriodNs: bigint;
  readonly supplyCap: bigint;
}

/** ACP-103 dynamic fee configuration (the values `platform.getFeeConfig` reports). */
export interface GasFeeConfig {
  /** bandwidth, dbRead, dbWrite, compute */
  readonly weights: readonly [number, number, number, number];
  readonly maxCapacity: bigint;
  readonly maxPerSecond: bigint;
  readonly targetPerSecond: bigint;
  readonly minPrice: bigint;
  readonly excessConversionConstant: bigint;
}

/** ACP-77 continuous fee of L1 validators (per validator per second). */
export interface ValidatorFeeConfig {
  readonly capacity: bigint;
  readonly target: bigint;
  readonly minPrice: bigint;
  readonly excessConversionConstant: bigint;
}

export interface PlatformConfig {
  readonly staking: StakingConfig;
  readonly reward: RewardConfig;
  readonly gasFee: GasFeeConfig;
  readonly validatorFee: ValidatorFeeConfig;
  /** How far in the future a RegisterL1ValidatorTx message may expire (seconds). */
  readonly maxExpiryWindow: number;
}

/** Devnet default: staking periods of a minute, so tests can finish one by moving the clock. */
export const DEFAULT_MIN_STAKE_DURATION = 60;

export function platformConfig(
  network: NetworkIdentity,
  minStakeDuration = DEFAULT_MIN_STAKE_DURATION,
): PlatformConfig {
  return {
    staking: {
      // The minimums are the network's (1 AVAX on fuji); the rest is the same on every network.
      minValidatorStake: network.minValidatorStake,
      maxValidatorStake: MAX_VALIDATOR_STAKE,
      minDelegatorStake: network.minDelegatorStake,
      minDelegationFee: 20_000,
      minStakeDuration,
      maxStakeDuration: 365 * 24 * 3600,
      maxValidatorWeightFactor: MAX_VALIDATOR_WEIGHT_FACTOR,
    },
    reward: {
      maxConsumptionRate: 120_000n,
      minConsumptionRate: 100_000n,
      mintingPeriodNs: 365n * 24n * 3600n * 1_000_000_000n,
      supplyCap: 720_000_000n * NANO_AVAX_PER_AVAX,
    },
    gasFee: {
      weights: [1, 1000, 1000, 4],
      maxCapacity: 1_000_000n,
      maxPerSecond: 100_000n,
      targetPerSecond: 50_000n,
      minPrice: 1n,
      excessConversionConstant: 2_164_043n,
    },
    validatorFee: {
      capacity: 20_000n,
      target: 10_000n,
      minPrice: network.validatorFeeMinPrice,
      excessConversionConstant: network.validatorFeeExcessConversionConstant,
    },
    maxExpiryWindow: 24 * 3600,
  };
}
