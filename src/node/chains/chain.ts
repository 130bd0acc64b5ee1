/**
 * What every chain the node runs (X, P, C, Subnet-EVM L1s) offers the node, and what the node
 * offers every chain. A chain mounts its own JSON-RPC routes and indexes through the context.
 */
import type { Logger } from '../../shared/logger.js';
import type { DevnetClock } from '../clock.js';
import type { NodeConfig } from '../config.js';
import type { Genesis } from '../genesis/genesis.js';
import type { ContainerIndex } from '../index/container-index.js';
import type { Router } from '../rpc/http-server.js';
import type { NodeDatabase } from '../storage/database.js';
import type { SharedMemory } from '../vms/components/shared-memory.js';
import type { WarpSigner } from '../warp/warp-signer.js';

export interface Chain {
  /** Short alias: `X`, `P`, `C`, or the blockchain id for L1 chains. */
  readonly alias: string;
  /** Every name the chain answers to (alias, VM alias, cb58 id). */
  readonly aliases: readonly string[];
  readonly blockchainID: string;
  readonly subnetID: string;
  readonly vmID: string;
  readonly name: string;
  isBootstrapped(): boolean;
  /** Whether this chain accepted the block with this 32-byte id (Warp block-hash attestations). */
  isAcceptedBlock?(blockID: Uint8Array): boolean;
  /** Latest accepted height, for health and banner. */
  height(): bigint;
  close(): Promise<void>;
}

/** What the node hands each chain when it starts it. */
export interface ChainContext {
  readonly config: NodeConfig;
  readonly genesis: Genesis;
  readonly db: NodeDatabase;
  readonly router: Router;
  readonly clock: DevnetClock;
  readonly logger: Logger;
  /** The index named `<alias>/<kind>` (e.g. `X/tx`), created on first use. */
  index(name: string): ContainerIndex;
  /** Atomic UTXOs between the primary-network chains. */
  readonly sharedMemory: SharedMemory;
  /** Where a chain registers which Warp messages from it the validators sign. */
  readonly warp: WarpSigner;
  /** Other chains by alias or id, for cross-chain checks. */
  chain(aliasOrId: string): Chain | undefined;
}
