/** What route plugins receive: the read model, page tokens and the indexed network. */
import type { NetworkIdentity } from '../../../shared/networks.js';
import type { PageTokens } from '../page-token.js';
import type { PrimaryNetworkRepository } from '../repositories/primary-network.js';

export interface HealthProbe {
  /** Throws when the store cannot be read. */
  database(): Promise<void>;
  /** Source → next container index read, for the health report. */
  checkpoints(): Promise<Record<string, number>>;
  /** Source → when its indexer last heard from the node (ms since the epoch). */
  heartbeats(): Promise<Record<string, number>>;
  /** Throws when the node given with --node-url does not answer; absent without one. */
  node?(): Promise<void>;
}

export interface RouteDeps {
  network: NetworkIdentity;
  repo: PrimaryNetworkRepository;
  tokens: PageTokens;
  health: HealthProbe;
}

/** Compute units per route, from the real service's execution weights. */
export const WEIGHT = { free: 1, small: 10, medium: 20, xl: 100 } as const;
