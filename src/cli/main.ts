/** `flurry` — the command-line entry point. */
import fs from 'node:fs';
import { createLogger } from '../shared/logger.js';
import { startNode, NodeStartError } from '../node/node.js';
import { formatBanner, readyFacts } from './banner.js';
import { parseOptions, USAGE, UsageError } from './options.js';

export async function main(argv: string[]): Promise<number> {
  const t0 = performance.now();
  let options;
  try {
    options = parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`flurry: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (options.reset) fs.rmSync(options.dataDir, { recursive: true, force: true });
  const logger = createLogger(options.logLevel);
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
        minStakeDuration: options.minStakeDuration,
      },
      logger,
    );
  } catch (err) {
    if (err instanceof NodeStartError || (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
      process.stderr.write(`flurry: ${(err as Error).message}\n`);
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
  const facts = readyFacts(node, Math.round(performance.now() - t0));
  process.stdout.write(options.json ? JSON.stringify(facts) + '\n' : formatBanner(facts));
  await stopped;
  await node.close();
  return 0;
}
