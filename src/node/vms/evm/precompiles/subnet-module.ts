/**
 * A Subnet-EVM stateful precompile as a chain config enables it: the module the engine runs, plus
 * `configure`, which writes the precompile's initial state (allow-list roles, initial mint, fee
 * config, reward settings) when it activates — at genesis or at an upgrade's timestamp.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { FeeConfig } from '../subnet-evm/fee-config.js';
import type { PrecompileModule } from './registry.js';

export interface ConfigureContext {
  /** The block the reference configures in: 0 for a precompile active at genesis. */
  readonly blockNumber: bigint;
  readonly blockTimestamp: bigint;
  /** The chain config's `allowFeeRecipients` (the reward manager's default). */
  readonly allowFeeRecipients: boolean;
  /** The chain config's fee config (what the fee manager stores without an initial one). */
  readonly feeConfig: FeeConfig;
}

export interface SubnetPrecompileModule extends PrecompileModule {
  configure(state: MerkleStateManager, ctx: ConfigureContext): Promise<void>;
}

/** Reference precompile addresses (`0x0200…000n`). */
export const PRECOMPILE_ADDRESSES = {
  contractDeployerAllowListConfig: '0x0200000000000000000000000000000000000000',
  contractNativeMinterConfig: '0x0200000000000000000000000000000000000001',
  txAllowListConfig: '0x0200000000000000000000000000000000000002',
  feeManagerConfig: '0x0200000000000000000000000000000000000003',
  rewardManagerConfig: '0x0200000000000000000000000000000000000004',
  warpConfig: '0x0200000000000000000000000000000000000005',
} as const;

export type PrecompileConfigKey = keyof typeof PRECOMPILE_ADDRESSES;
export const PRECOMPILE_CONFIG_KEYS = Object.keys(PRECOMPILE_ADDRESSES) as PrecompileConfigKey[];

/** Fees and rewards go here unless a reward address says otherwise (the reference BlackholeAddr). */
export const BLACKHOLE = '0x0100000000000000000000000000000000000000';

/** A 32-byte storage key whose first bytes are `prefix` (Go's `common.Hash{'l','c','a'}`). */
export function leftAlignedKey(prefix: string | readonly number[]): Uint8Array {
  const key = new Uint8Array(32);
  const bytes = typeof prefix === 'string' ? new TextEncoder().encode(prefix) : Uint8Array.from(prefix);
  key.set(bytes);
  return key;
}
