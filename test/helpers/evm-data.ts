/**
 * The EVM data stack for end-to-end tests: the real `flurry` binary as the node, and the data
 * half (store, EVM indexer, NFT fetcher, REST service with the EVM routes) in this process,
 * reading the node only over its public JSON-RPC as it would in production.
 */
import { NETWORKS, type NetworkName } from '../../src/shared/networks.js';
import { startDataApi, type RunningDataApi } from '../../src/data/api/server.js';
import { parseApiAccessConfig } from '../../src/data/api/api-keys.js';
import { createEvmRoutes } from '../../src/data/api/routes/evm/index.js';
import { startEvmIndexer, type RunningEvmIndexer } from '../../src/data/indexer/evm/evm-indexer.js';
import { startNftFetcher, type RunningNftFetcher } from '../../src/data/nft/fetcher.js';
import { createMetadataResolver } from '../../src/data/nft/metadata-resolver.js';
import { createDatabase, type DataDatabase } from '../../src/data/store/database.js';
import { startDevnet, tempDir, type Devnet } from './devnet.js';
import { storeChoice } from './postgres.js';

export interface EvmDataStack {
  devnet: Devnet;
  database: DataDatabase;
  indexer: RunningEvmIndexer;
  fetcher: RunningNftFetcher;
  api: RunningDataApi;
  stop(): Promise<void>;
}

export const TEST_PRICES = { usd: 25, eur: 23 };

export async function startEvmDataStack(
  options: {
    databaseUrl?: string;
    allowHosts?: string[];
    metadataTimeoutMs?: number;
    maxBytes?: number;
  } = {},
): Promise<EvmDataStack> {
  const devnet = await startDevnet();
  const network = NETWORKS[devnet.facts.network as NetworkName];
  const databaseUrl =
    options.databaseUrl ?? (storeChoice.databaseUrl ? await storeChoice.databaseUrl() : undefined);
  const database = await createDatabase({ dataDir: tempDir('flurry-evm-data-'), databaseUrl });
  const indexer = await startEvmIndexer({ db: database.db, nodeUrl: devnet.url, network });
  const fetcher = startNftFetcher({
    db: database.db,
    resolver: createMetadataResolver({
      allowHosts: options.allowHosts ?? [],
      timeoutMs: options.metadataTimeoutMs ?? 1_000,
      maxBytes: options.maxBytes ?? 10_000,
    }),
    idleMs: 50,
    retryMs: 3_600_000,
  });
  const access = parseApiAccessConfig({ prices: TEST_PRICES }, 'test');
  const api = await startDataApi({
    host: '127.0.0.1',
    port: 0,
    network,
    database,
    access,
    version: 'test',
    extraRoutes: createEvmRoutes({ db: database.db, prices: access.prices }),
  });
  return {
    devnet,
    database,
    indexer,
    fetcher,
    api,
    async stop() {
      await api.close().catch(() => {});
      await fetcher.stop().catch(() => {});
      await indexer.stop().catch(() => {});
      await database.close().catch(() => {});
      await devnet.stop().catch(() => {});
    },
  };
}
