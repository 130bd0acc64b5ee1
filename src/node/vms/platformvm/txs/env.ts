/**
 * What verifying a P-chain tx reads (the state, config and block it goes into) and what it returns.
 * A module of its own so the dispatch (executor.ts) and every tx family share these types without
 * importing one another.
 */
import type { NetworkIdentity } from '../../../../shared/networks.js';
import type { SharedMemory } from '../../components/shared-memory.js';
import type { PlatformConfig } from '../config.js';
import type { ChainRecord, PlatformState } from '../state/platform-state.js';

export interface ChainIds {
  readonly p: Uint8Array;
  readonly x: Uint8Array;
  readonly c: Uint8Array;
  readonly avax: Uint8Array;
}

export interface ExecEnv {
  readonly state: PlatformState;
  readonly config: PlatformConfig;
  readonly network: NetworkIdentity;
  readonly ids: ChainIds;
  readonly sharedMemory: SharedMemory;
  /** The timestamp of the block the tx goes into (Unix seconds). */
  readonly chainTime: number;
  /** Height of that block. */
  readonly height: bigint;
  readonly gasPrice: bigint;
  /** The L1 validator fee counter at the block's time. */
  readonly validatorFeeAccrued: bigint;
}

export interface Executed {
  readonly type: string;
  readonly gas: bigint;
  /** Writes the tx's effects; call inside the accepting transaction. */
  readonly apply: () => void;
  readonly createdChain?: ChainRecord;
}

export const PRIMARY_NETWORK = new Uint8Array(32);
