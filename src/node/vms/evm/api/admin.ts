/**
 * The C-chain admin API (`/ext/bc/C/admin`): the reference's `admin.*` methods, also reachable
 * by the spec's underscore names (`admin_startCPUProfiler` …). Every method but getVMConfig
 * answers an empty object, as the spec says and the reference's `api.EmptyReply` marshals. The
 * profilers write real files into `<data-dir>/profiles/` and log each file's path: a V8 CPU
 * profile (open it in Chrome DevTools), a heap snapshot, and — Node has no mutexes — an
 * event-loop contention report (delay histogram since the last report, active handles and
 * requests).
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import v8 from 'node:v8';
import type { ChainContext } from '../../../chains/chain.js';
import { AvalancheEndpoint } from '../../../rpc/avalanche-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { chainConfigJson } from '../chain-config.js';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
/** The reference's log level names, mapped onto pino's. */
const LEVEL_ALIASES: Record<string, string> = {
  verbo: 'trace',
  // geth's short names, which coreth's parser takes too.
  trce: 'trace',
  dbug: 'debug',
  eror: 'error',
  crit: 'fatal',
  off: 'silent',
  warning: 'warn',
};

export function createAdminApi(
  ctx: ChainContext,
  chain: EvmChain,
): { endpoint: AvalancheEndpoint; close(): void } {
  const dir = path.join(ctx.config.dataDir, 'profiles');
  let session: inspector.Session | undefined;
  let delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let delaySince = Date.now();
  const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
  const file = (name: string) => {
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, name);
  };
  /** The reference answers `{}`; where the profile went is only in the log, as there. */
  const written = (target: string) => {
    ctx.logger.info({ file: target }, 'admin: profile written');
    return {};
  };
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T))),
    );

  const endpoint = new AvalancheEndpoint(`${chain.alias}/admin`)
    .acceptUnderscoreNames()
    .registerAll('admin', {
      startCPUProfiler: async () => {
        if (session) throw new Error('cpu profiler already running');
        session = new inspector.Session();
        session.connect();
        await post('Profiler.enable');
        await post('Profiler.start');
        return {};
      },
      stopCPUProfiler: async () => {
        if (!session) throw new Error("cpu profiler doesn't exist");
        const { profile } = await post<{ profile: unknown }>('Profiler.stop');
        session.disconnect();
        session = undefined;
        const target = file(`cpu-${stamp()}.cpuprofile`);
        fs.writeFileSync(target, JSON.stringify(profile));
        return written(target);
      },
      memoryProfile: () => {
        return written(v8.writeHeapSnapshot(file(`heap-${stamp()}.heapsnapshot`)));
      },
      lockProfile: () => {
        const ms = (ns: number) => Math.round(ns / 1e4) / 100;
        const report = {
          kind: 'event-loop contention (Node has no mutexes: time callbacks waited for the loop)',
          fromMs: delaySince,
          toMs: Date.now(),
          eventLoopDelayMs: {
            min: ms(delay.min),
            mean: ms(delay.mean),
            p50: ms(delay.percentile(50)),
            p99: ms(delay.percentile(99)),
            max: ms(delay.max),
            samples: delay.count,
          },
          activeResources: (process as any).getActiveResourcesInfo?.() ?? [],
          pendingTxs: chain.pool.size,
          height: chain.height().toString(),
        };
        const target = file(`lock-${stamp()}.json`);
        fs.writeFileSync(target, JSON.stringify(report, null, 2));
        delay.disable();
        delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        delaySince = Date.now();
        return written(target);
      },
      setLogLevel: (params) => {
        const raw = params.optionalString('level') ?? '';
        const level = LEVEL_ALIASES[raw.toLowerCase()] ?? raw.toLowerCase();
        // coreth wraps its logger's parse error, trailing space included.
        if (!LEVELS.includes(level)) throw new Error(`failed to parse log level: unknown level: ${raw} `);
        ctx.logger.level = level;
        chain.logger.level = level;
        return {};
      },
      getVMConfig: () => ({
        config: {
          ...chainConfigJson(chain.config),
          blockchainID: chain.blockchainID,
          blockTimeMs: chain.config.blockTimeMs,
          debugApiEnabled: chain.config.debugApi,
          pruningEnabled: chain.config.pruning,
          historicalProofQueryWindow: Number(chain.config.historicalProofQueryWindow),
          gasTargetPerSecond: Number(chain.config.gasTargetPerSecond),
          logLevel: ctx.logger.level,
          dataDir: ctx.config.dataDir,
        },
      }),
    });
  return {
    endpoint,
    close() {
      delay.disable();
      session?.disconnect();
    },
  };
}
