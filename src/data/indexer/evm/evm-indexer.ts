/**
 * The EVM half of the indexer: one EvmChainIndexer per EVM chain the node serves, with chain
 * discovery repeated so a Subnet-EVM chain created later is picked up without a restart.
 */
import { UpstreamUnavailableError } from '../../internal/errors.js';
import type { Kysely } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import type { DataSchema } from '../../store/schema.js';
import { discoverEvmChains, recordEvmChain, type DiscoveredChain } from './chain-discovery.js';
import { EvmChainIndexer, type ChainIndexerOptions } from './chain-indexer.js';
import { recordGenesisContracts } from './genesis-contracts.js';
import { createNodeClient } from '../../internal/node-client.js';
import { EvmRpcClient } from './rpc-client.js';

export interface EvmIndexerConfig extends ChainIndexerOptions {
  db: Kysely<DataSchema>;
  nodeUrl: string;
  network: NetworkIdentity;
  /** How often to look for new Subnet-EVM chains. */
  discoveryMs?: number;
}

export interface RunningEvmIndexer {
  readonly chains: ReadonlyMap<string, EvmChainIndexer>;
  /** Resolves once `height` of the chain (EVM chain id or blockchain id) is indexed. */
  waitFor(chain: number | string, height: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts indexing the given chains (tests and benches pass them directly). */
export function startEvmChains(
  db: Kysely<DataSchema>,
  chains: DiscoveredChain[],
  options: ChainIndexerOptions = {},
): Map<string, EvmChainIndexer> {
  const out = new Map<string, EvmChainIndexer>();
  for (const c of chains) {
    const indexer = new EvmChainIndexer(
      db,
      { blockchainId: c.blockchain_id, evmChainId: Number(c.evm_chain_id), rpcUrl: c.rpc_url },
      options,
    );
    indexer.start();
    out.set(c.blockchain_id, indexer);
  }
  return out;
}

export async function startEvmIndexer(config: EvmIndexerConfig): Promise<RunningEvmIndexer> {
  const chains = new Map<string, EvmChainIndexer>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  // The C-chain's atomic txs belong to the primary network's UTXO set.
  const options: ChainIndexerOptions = {
    ...config,
    atomic: config.atomic ?? {
      cChainId: config.network.cChainID,
      pChainId: config.network.pChainID,
      hrp: config.network.hrp,
      avaxAssetId: config.network.avaxAssetID,
    },
  };
  const node = createNodeClient(config.nodeUrl, 10_000);
  /** Chains whose genesis contracts are still to be recorded (the node or store was away). */
  const genesisPending = new Map<string, DiscoveredChain>();
  /**
   * Records the contracts of a chain's genesis alloc. Never fails discovery: a node that does not
   * serve the chain's CreateChainTx gives none, and a passing failure is tried again next round.
   */
  async function learnGenesis(c: DiscoveredChain): Promise<void> {
    try {
      const written = await recordGenesisContracts(config.db, node, new EvmRpcClient(c.rpc_url), {
        blockchainId: c.blockchain_id,
        evmChainId: Number(c.evm_chain_id),
      });
      genesisPending.delete(c.blockchain_id);
      if (written > 0) config.logger?.info({ chain: c.blockchain_id, written }, 'recorded genesis contracts');
    } catch (err) {
      genesisPending.set(c.blockchain_id, c);
      config.logger?.debug({ err, chain: c.blockchain_id }, 'genesis contracts not read; trying again');
    }
  }
  async function discover(): Promise<void> {
    for (const c of [...genesisPending.values()]) await learnGenesis(c);
    const found = await discoverEvmChains(config.nodeUrl, config.network);
    for (const c of found) {
      if (chains.has(c.blockchain_id)) continue;
      await recordEvmChain(config.db, c);
      // Before the chain's indexer starts, so it counts them among the contracts it knows.
      await learnGenesis(c);
      for (const [id, indexer] of startEvmChains(config.db, [c], options)) chains.set(id, indexer);
      config.logger?.info({ chain: c.blockchain_id, evmChainId: c.evm_chain_id }, 'indexing EVM chain');
    }
  }
  // A failed discovery (the node or the store away a moment, also the first one at start) is
  // tried again at the next round, so EVM indexing never ends on one passing error. A failure
  // that persists (a node serving no EVM chain) is said once, then every 60 rounds.
  let failures = 0;
  const attempt = () =>
    discover().then(
      () => {
        failures = 0;
      },
      (err) => {
        failures++;
        // A node that does not answer is reported by every reader of it (node-outage.ts).
        if (!(err instanceof UpstreamUnavailableError) && failures % 60 === 1)
          config.logger?.warn({ err, failures }, 'EVM chain discovery failed; trying again');
      },
    );
  await attempt();
  const again = () => {
    if (stopped) return;
    timer = setTimeout(() => void attempt().finally(again), config.discoveryMs ?? 5_000);
    timer.unref();
  };
  again();

  return {
    chains,
    waitFor(chain, height) {
      const indexer = [...chains.values()].find(
        (c) => c.chain.blockchainId === chain || c.chain.evmChainId === Number(chain),
      );
      if (!indexer) return Promise.reject(new Error(`chain ${chain} is not indexed`));
      return indexer.waitFor(height);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all([...chains.values()].map((c) => c.stop()));
    },
  };
}
