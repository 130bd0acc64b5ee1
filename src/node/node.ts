/**
 * The node: opens durable state, restores or creates genesis, starts every chain, and serves
 * them all over one HTTP server (JSON-RPC and WebSocket), exactly as a real node exposes itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createLogger, type Logger } from '../shared/logger.js';
import { NETWORKS } from '../shared/networks.js';
import { createGenesisApi } from './api/devnet-genesis.js';
import { createHealthEndpoint, healthReport } from './api/health.js';
import { createInfoEndpoint } from './api/info.js';
import { mountProposerVm } from './api/proposervm.js';
import type { Chain, ChainContext } from './chains/chain.js';
import { PRIMARY_CHAIN_FACTORIES } from './chains/primary.js';
import { DevnetClock } from './clock.js';
import { NODE_DB_FILE, type NodeConfig } from './config.js';
import { buildGenesis, type Genesis } from './genesis/genesis.js';
import type { OffThreadProofs } from './genesis/proofs-off-thread.js';
import { ContainerIndex } from './index/container-index.js';
import { createIndexEndpoint } from './index/index-api.js';
import { NodeHttpServer, Router } from './rpc/http-server.js';
import { NodeDatabase } from './storage/database.js';
import { DataDirLockedError, lockDataDir } from './storage/data-dir-lock.js';
import { SharedMemory } from './vms/components/shared-memory.js';
import { createDevnetEndpoint, ValidatorPeers } from './warp/validator-peers.js';
import { createSignPool } from './warp/sign-pool.js';
import { WarpSigner } from './warp/warp-signer.js';
import { acceptedBlockRule } from './warp/accepted-block-rule.js';
import { startSubnetEvmChains } from './vms/evm/subnet-evm/launcher.js';
import { joinHostPort } from '../shared/host-port.js';

export interface RunningNode {
  readonly config: NodeConfig;
  readonly genesis: Genesis;
  readonly nodeID: string;
  readonly port: number;
  readonly url: string;
  readonly chains: readonly Chain[];
  readonly clock: DevnetClock;
  close(): Promise<void>;
}

const GENESIS_KEY = 'genesis/params';
const GENESIS_PROOFS_KEY = 'genesis/proofs-of-possession';
const INDEX_HISTORY_KEY = 'index/was-enabled';

/** Index routes that exist on every node with indexing on (the vertex index stays empty). */
const INDEX_NAMES = ['X/tx', 'X/block', 'X/vtx', 'P/block', 'C/block'];

export class NodeStartError extends Error {
  override readonly name = 'NodeStartError';
}

export interface StartNodeOptions {
  /** Genesis proofs of possession already under way (a cold start's, see proofs-off-thread.ts). */
  proofs?: OffThreadProofs;
}

export async function startNode(
  config: NodeConfig,
  logger: Logger = createLogger(config.logLevel),
  options: StartNodeOptions = {},
): Promise<RunningNode> {
  const startedAtMs = Date.now();
  fs.mkdirSync(config.dataDir, { recursive: true });
  // Before opening node.db: a second node on the same data dir must not write a single row.
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new NodeStartError(err.message);
    throw err;
  }
  let db: NodeDatabase | undefined;
  try {
    db = new NodeDatabase(path.join(config.dataDir, NODE_DB_FILE));
    const node = await assemble(config, db, logger, startedAtMs, options);
    return {
      ...node,
      async close() {
        try {
          await node.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    db?.close();
    lock.release();
    throw err;
  }
}

async function assemble(
  config: NodeConfig,
  db: NodeDatabase,
  logger: Logger,
  startedAtMs: number,
  options: StartNodeOptions,
): Promise<RunningNode> {
  const genesis = await restoreGenesis(config, db, options.proofs);
  checkIndexHistory(config, db);
  const clock = new DevnetClock(db);
  const router = new Router();
  const indexes = new Map<string, ContainerIndex>();
  const chains: Chain[] = [];
  const self = genesis.validators[0];
  let port = config.port;

  const chainByName = (aliasOrId: string): Chain | undefined =>
    chains.find((c) => c.aliases.includes(aliasOrId) || c.blockchainID === aliasOrId);
  const index = (name: string): ContainerIndex => {
    let idx = indexes.get(name);
    if (!idx) {
      idx = new ContainerIndex(db, name);
      indexes.set(name, idx);
      if (config.indexEnabled)
        router.mount(`/ext/index/${name}`, { kind: 'avalanche', endpoint: createIndexEndpoint(idx) });
    }
    return idx;
  };
  for (const name of INDEX_NAMES) index(name);

  const sharedMemory = new SharedMemory(db);
  // The hosted validators sign on worker threads, in parallel as separate machines would.
  const signPool = createSignPool({
    onWorkerError: (err) => logger.warn({ err }, 'signing worker failed; signing inline'),
  });
  const warp = new WarpSigner(config.network.networkID, signPool.sign);
  const context: ChainContext = {
    warp,
    config,
    genesis,
    db,
    router,
    clock,
    logger,
    index,
    sharedMemory,
    chain: chainByName,
  };
  for (const factory of PRIMARY_CHAIN_FACTORIES) chains.push(await factory(context));
  for (const chain of chains) mountProposerVm(context, chain.aliases);
  // Chains without a Warp rule of their own sign accepted block hashes.
  for (const chain of chains) {
    if (chain.isAcceptedBlock && !warp.has(chain.blockchainID)) {
      warp.register(
        chain.blockchainID,
        acceptedBlockRule((id) => chain.isAcceptedBlock!(id)),
      );
    }
  }

  // Every genesis validator answers Warp signature requests: the node's own validator on this
  // port, the others on ports of their own (announced in info.peers).
  const peers = new ValidatorPeers(genesis.validators, warp, config.host, logger);
  await peers.start(self.nodeID);
  router.mount('/ext/acp118', { kind: 'avalanche', endpoint: peers.endpointFor(self) });
  router.mount('/ext/devnet', {
    kind: 'avalanche',
    endpoint: createDevnetEndpoint(peers).registerAll('devnet', createGenesisApi(genesis, db)),
  });
  // Subnet-EVM chains the P-chain created, and those it creates later (they join `chains`). A
  // validator counts as connected while its peer endpoint is online.
  const genesisNodeIDs = new Set(genesis.validators.map((v) => v.nodeID));
  await startSubnetEvmChains(
    context,
    chains,
    (nodeID) => genesisNodeIDs.has(nodeID) && peers.faultOf(nodeID).fault !== 'offline',
  );

  const network = config.network;
  const info = createInfoEndpoint({
    config,
    genesis,
    self,
    port: () => port,
    chains: () => chains,
    chain: chainByName,
    primaryChainIds: { X: network.xChainID, P: network.pChainID, C: network.cChainID },
    peerAddress: (nodeID) => peers.addressOf(nodeID),
    startedAtMs,
  });
  router.mount('/ext/info', { kind: 'avalanche', endpoint: info });
  const peerCount = genesis.validators.filter((v) => v.nodeID !== self.nodeID).length;
  const health = createHealthEndpoint((kind, tags) =>
    healthReport({ chains, startedAtMs, peerCount }, tags, kind),
  );
  router.mount('/ext/health', { kind: 'avalanche', endpoint: health.endpoint, raw: health.get('health') });
  router.mount('/ext/health/health', { kind: 'raw', handler: health.get('health') });
  router.mount('/ext/health/readiness', { kind: 'raw', handler: health.get('readiness') });
  router.mount('/ext/health/liveness', { kind: 'raw', handler: health.get('liveness') });

  const server = new NodeHttpServer({
    router,
    nodeId: self.nodeID,
    host: config.host,
    port: config.port,
    readTimeoutMs: config.httpReadTimeoutMs,
    onError: (err) => logger.error({ err }, 'request failed'),
  });
  port = await server.listen();
  logger.info({ port, node_id: self.nodeID }, 'node listening');

  let closed = false;
  return {
    config,
    genesis,
    nodeID: self.nodeID,
    port,
    url: `http://${joinHostPort(config.host, port)}`,
    chains,
    clock,
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await peers.close();
      await signPool.close();
      for (const chain of [...chains].reverse()) await chain.close();
      clock.persist();
      db.close();
    },
  };
}

/**
 * Genesis is built once and its parameters stored; a restart must ask for the same network,
 * seed and validator count (or pass --reset), so an existing chain is never silently replaced.
 */
async function restoreGenesis(
  config: NodeConfig,
  db: NodeDatabase,
  offThread?: OffThreadProofs,
): Promise<Genesis> {
  const stored = db.getMetaString(GENESIS_KEY);
  if (stored) {
    const params = JSON.parse(stored) as {
      network: string;
      seed: string;
      validators: number;
      startTime: number;
    };
    if (
      params.network !== config.network.name ||
      params.seed !== config.seed ||
      params.validators !== config.validators
    ) {
      throw new NodeStartError(
        `the data dir ${config.dataDir} holds a ${params.network} network (seed "${params.seed}", ${params.validators} validators); ` +
          `start with the same options, or pass --reset to start over`,
      );
    }
    return buildGenesis({
      network: NETWORKS[config.network.name],
      seed: params.seed,
      validators: params.validators,
      startTime: params.startTime,
      knownProofs: JSON.parse(db.getMetaString(GENESIS_PROOFS_KEY) ?? '[]') as string[],
    });
  }
  const startTime = Math.floor(Date.now() / 1000);
  const computed =
    offThread?.seed === config.seed && offThread.validators === config.validators
      ? await offThread.proofs
      : undefined;
  const genesis = buildGenesis({
    network: config.network,
    seed: config.seed,
    validators: config.validators,
    startTime,
    knownProofs: computed,
  });
  db.setMeta(
    GENESIS_KEY,
    JSON.stringify({
      network: config.network.name,
      seed: config.seed,
      validators: config.validators,
      startTime,
    }),
  );
  db.setMeta(
    GENESIS_PROOFS_KEY,
    JSON.stringify(genesis.validators.map((v) => Buffer.from(v.blsProofOfPossession).toString('hex'))),
  );
  return genesis;
}

/** A node that indexed before and now runs without indexing refuses to start unless allowed. */
function checkIndexHistory(config: NodeConfig, db: NodeDatabase): void {
  const wasEnabled = db.getMetaString(INDEX_HISTORY_KEY) === 'true';
  if (wasEnabled && !config.indexEnabled && !config.indexAllowIncomplete) {
    throw new NodeStartError(
      'indexing was enabled before and is now disabled: the index would be incomplete. Pass --index-allow-incomplete to start anyway',
    );
  }
  if (config.indexEnabled) db.setMeta(INDEX_HISTORY_KEY, 'true');
  else if (config.indexAllowIncomplete) db.setMeta(INDEX_HISTORY_KEY, 'false');
}
