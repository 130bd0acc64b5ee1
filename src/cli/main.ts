/** `flurry` — the command-line entry point. */
import fs from 'node:fs';
import os from 'node:os';
import { createLogger } from '../shared/logger.js';
import { startGenesisProofs } from '../node/genesis/proofs-off-thread.js';
import { FLURRY_VERSION } from '../node/version.js';
import { COMPATIBLE_NODE_VERSION } from '../shared/networks.js';
import { DataDirLockedError, dataDirUser, registerDataDirUser } from '../node/storage/data-dir-lock.js';
import type { RunningDataService } from '../data/service.js';
import { dataReadyFacts, formatBanner, formatDataBanner, readyFacts, type DataReadyFacts } from './banner.js';
import { parseOptions, UsageError } from './options.js';
import { isApiWorker, reportWorkerFailed, reportWorkerReady, runApiWorkers } from './api-workers.js';
import { startFailure, type PortFlags } from './start-failure.js';
import { reservePorts, type ReservedPorts } from './port-reservation.js';

export async function main(argv: string[]): Promise<number> {
  const t0 = performance.now();
  let options;
  try {
    options = parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`flurry: ${err.message}\n\n${err.usage}`);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(options.usage);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`flurry ${FLURRY_VERSION} (${COMPATIBLE_NODE_VERSION} compatible)\n`);
    return 0;
  }
  if (options.reset) {
    // Deleting a data dir a running node or data role uses would pull its state out from under it.
    const holder = dataDirUser(options.dataDir);
    if (holder !== undefined) {
      process.stderr.write(
        `flurry: --reset refused: ${new DataDirLockedError(options.dataDir, holder).message}\n`,
      );
      return 1;
    }
    try {
      fs.rmSync(options.dataDir, { recursive: true, force: true });
    } catch (err) {
      // Not ours to delete (read-only, another user's, under a file): the operator's setting.
      process.stderr.write(
        `flurry: --reset could not delete ${options.dataDir}: ${(err as Error).message}\n`,
      );
      return 1;
    }
  }
  const logger = createLogger(options.logLevel);
  if (options.command === 'indexer' || options.command === 'api') return runDataRole(options, logger, t0);
  // The data platform's ports are bound only after the node serves: hold them now, so a taken
  // one stops the start before the node says it listens.
  let reserved: ReservedPorts | undefined;
  if (options.command === 'start') {
    try {
      reserved = await reservePorts(options.host, {
        '--data-port': options.dataPort,
        '--metrics-port': options.metricsPort,
      });
    } catch (err) {
      // A host that cannot be bound at all is the node's to report, as for `flurry node`.
      if ((err as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
        process.stderr.write(
          `flurry: the data platform did not start: ${startFailure(err, portFlags(options))}\n`,
        );
        return 1;
      }
    }
  }
  // A cold start's genesis proofs are made on another CPU while this thread loads the node's
  // modules (loaded only by the roles that run a node).
  const proofs = startGenesisProofs(options);
  const { startNode, NodeStartError } = await import('../node/node.js');
  // Load the data platform's modules while the node starts: only the roles that run it pay for them.
  const dataModule = options.command === 'start' ? import('../data/service.js') : undefined;
  let node;
  try {
    node = await startNode(
      {
        network: options.network,
        dataDir: options.dataDir,
        seed: options.seed,
        validators: options.validators,
        blockTimeMs: options.blockTimeMs,
        host: options.host,
        port: options.nodePort,
        indexEnabled: options.indexEnabled,
        indexAllowIncomplete: options.indexAllowIncomplete,
        logLevel: options.logLevel,
        debugApi: options.debugApi,
        pruningEnabled: options.pruningEnabled,
        historicalProofQueryWindow: options.historicalProofQueryWindow,
        minStakeDuration: options.minStakeDuration,
        rpcEvmTimeoutMs: options.rpcEvmTimeoutMs,
        batchResponseMaxBytes: options.batchResponseMaxBytes,
        httpReadTimeoutMs: options.httpReadTimeoutMs,
        txPool: options.txPool,
      },
      logger,
      { proofs },
    );
  } catch (err) {
    // A port or address the node cannot listen on (in use, not on this host, not resolvable,
    // privileged) is the operator's setting, not a crash: one line, as for the data roles.
    if (err instanceof NodeStartError || (err as NodeJS.ErrnoException)?.syscall) {
      await reserved?.release();
      process.stderr.write(`flurry: ${startFailure(err, portFlags(options))}\n`);
      return 1;
    }
    throw err;
  }
  // Listen for signals before announcing readiness: a script may send SIGTERM the moment it
  // reads the ready line, and without a listener Node would die without closing anything.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  let data: RunningDataService | undefined;
  if (options.command === 'start') {
    // The data platform reads the node over HTTP, exactly as it would read any other node.
    try {
      const { startDataService } = await dataModule!;
      await reserved?.release();
      data = await startDataService({
        indexer: true,
        api: true,
        dataDir: options.dataDir,
        databaseUrl: options.databaseUrl,
        nodeUrl: node.url,
        host: options.host,
        port: options.dataPort,
        metricsPort: options.metricsPort,
        network: options.network,
        apiKeysFile: options.apiKeysFile,
        apiKeysJson: process.env.FLURRY_API_KEYS,
        batchSize: options.indexerBatchSize,
        httpReadTimeoutMs: options.httpReadTimeoutMs,
        logger,
        version: FLURRY_VERSION,
      });
    } catch (err) {
      await node.close();
      process.stderr.write(
        `flurry: the data platform did not start: ${startFailure(err, portFlags(options))}\n`,
      );
      return 1;
    }
  }
  const facts = readyFacts(node, Math.round(performance.now() - t0), data);
  process.stdout.write(options.json ? JSON.stringify(facts) + '\n' : formatBanner(facts));
  await stopped;
  forceExitAfter(SHUTDOWN_GRACE_MS);
  await data?.close();
  await node.close();
  return 0;
}

/** `flurry indexer` / `flurry api`: one data-platform role without a node in this process. */
async function runDataRole(
  options: ReturnType<typeof parseOptions>,
  logger: ReturnType<typeof createLogger>,
  t0: number,
): Promise<number> {
  // On SQLite the store lives in the data dir: say this process uses it, so --reset refuses it.
  let user;
  try {
    user = options.databaseUrl ? undefined : registerDataDirUser(options.dataDir);
  } catch (err) {
    process.stderr.write(`flurry: ${options.command} did not start: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    return await serveDataRole(options, logger, t0);
  } finally {
    user?.release();
  }
}

async function serveDataRole(
  options: ReturnType<typeof parseOptions>,
  logger: ReturnType<typeof createLogger>,
  t0: number,
): Promise<number> {
  const print = (facts: DataReadyFacts) =>
    process.stdout.write(options.json ? JSON.stringify(facts) + '\n' : formatDataBanner(facts));
  const workers = options.workers === 0 ? os.availableParallelism() : options.workers;
  if (options.command === 'api' && workers > 1 && !isApiWorker()) {
    return runApiWorkers({
      workers,
      logger,
      prepare: async () => {
        // The keys file first, as one worker would read it: a bad one is one line from here,
        // not the same line from each worker followed by the primary's error.
        const { loadApiAccessConfig } = await import('../data/api/api-keys.js');
        loadApiAccessConfig(options.apiKeysFile, process.env.FLURRY_API_KEYS);
        // Migrations and the page-token secret, once, before any worker opens the store.
        const { createDatabase } = await import('../data/store/database.js');
        const { pageTokenSecret } = await import('../data/store/queries/meta.js');
        const database = await createDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
        try {
          await pageTokenSecret(database.db);
        } finally {
          await database.close();
        }
      },
      announce: (facts) => print({ ...facts, startupMs: Math.round(performance.now() - t0) }),
      // The workers' reason, once: each would otherwise print the same line.
      refused: (reason) => process.stderr.write(`flurry: ${options.command} did not start: ${reason}\n`),
    }).catch((err: Error) => {
      // The store could not be prepared (wrong URL, password, database): one line, as without workers.
      process.stderr.write(`flurry: ${options.command} did not start: ${err.message}\n`);
      return 1;
    });
  }
  // A signal while the indexer still waits for its node ends the wait (and the process, cleanly).
  const abort = new AbortController();
  const stopped = new Promise<string>((resolve) => {
    const stop = (signal: string) => {
      abort.abort();
      resolve(signal);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  let data: RunningDataService;
  try {
    const { startDataService } = await import('../data/service.js');
    data = await startDataService({
      indexer: options.command === 'indexer',
      api: options.command === 'api',
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      nodeUrl: options.nodeUrl,
      host: options.host,
      port: options.dataPort,
      metricsPort: options.command === 'api' ? options.metricsPort : undefined,
      network: options.network,
      apiKeysFile: options.apiKeysFile,
      apiKeysJson: process.env.FLURRY_API_KEYS,
      batchSize: options.indexerBatchSize,
      httpReadTimeoutMs: options.httpReadTimeoutMs,
      // The indexer may be started before its node (or while it restarts): wait for it.
      waitForNode: { signal: abort.signal },
      logger,
      version: FLURRY_VERSION,
    });
  } catch (err) {
    if (abort.signal.aborted) return 0;
    const reason = startFailure(err, portFlags(options));
    // A worker leaves the saying to its primary, which says it once for all of them.
    if (isApiWorker()) await reportWorkerFailed(reason);
    else process.stderr.write(`flurry: ${options.command} did not start: ${reason}\n`);
    return 1;
  }
  const facts = dataReadyFacts(options.command, data, Math.round(performance.now() - t0));
  if (isApiWorker()) reportWorkerReady(facts);
  else print(facts);
  logger.info({ signal: await stopped }, 'shutting down');
  forceExitAfter(SHUTDOWN_GRACE_MS);
  await data.close();
  return 0;
}

/** The ports this role listens on, by the flag that set each (for a port-in-use message). */
function portFlags(options: ReturnType<typeof parseOptions>): PortFlags {
  const ports: Record<string, number> = {};
  if (options.command === 'start' || options.command === 'node') ports['--node-port'] = options.nodePort;
  if (options.command === 'start' || options.command === 'api') {
    ports['--data-port'] = options.dataPort;
    ports['--metrics-port'] = options.metricsPort;
  }
  return ports;
}

/** How long a graceful shutdown may take before the process gives up on it. */
const SHUTDOWN_GRACE_MS = 15_000;

/**
 * A shutdown that hangs (a client holding a connection open, a stuck close) must not leave the
 * process running: committed state is durable, so exiting is safe, but say so loudly.
 */
function forceExitAfter(ms: number): void {
  setTimeout(() => {
    process.stderr.write(`flurry: shutdown did not finish in ${ms} ms; exiting\n`);
    process.exit(1);
  }, ms).unref();
}
