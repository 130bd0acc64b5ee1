/**
 * The health API: `GET /ext/health` (also `/health`, `/liveness`, `/readiness`, each taking
 * `?tag=`) and `health.health`/`readiness`/`liveness` over JSON-RPC with `{tags}`. 200 when every
 * reported check passes, 503 otherwise, as the reference node answers.
 *
 * Checks carry tags as the reference registers them: each chain's check is tagged with its
 * subnet ID, node-wide checks (`network`, `bootstrapped`) with the application tag, which every
 * query includes. A query without tags reports every check; with tags, the checks carrying one of
 * them plus the node-wide ones (so `tags: ["nope"]` still answers `network` and `bootstrapped`).
 */
import type http from 'node:http';
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import { sendJson, type RawHandler } from '../rpc/http-server.js';
import type { Chain } from '../chains/chain.js';

/** Tag of node-wide checks: included in every answer. */
const APPLICATION_TAG = 'application';
/** Tag every check carries. */
const ALL_TAG = 'all';

/**
 * One check's result as Go marshals the reference's `health.Result`: `error` a string, and
 * `contiguousFailures`/`timeOfFirstFailure` (omitempty) only on a failing check.
 */
export interface CheckResult {
  message: unknown;
  error?: string;
  timestamp: string;
  duration: number;
  contiguousFailures?: number;
  timeOfFirstFailure?: string;
}

export interface HealthReport {
  checks: Record<string, CheckResult>;
  healthy: boolean;
}

export type HealthKind = 'health' | 'readiness' | 'liveness';

interface Check {
  name: string;
  tags: readonly string[];
  ok: boolean;
  message: unknown;
  error?: string;
}

/** What the checks read of the node. */
export interface HealthSource {
  chains: readonly Chain[];
  startedAtMs: number;
  /** Peers the node is connected to: the other genesis validators, as `info.peers` lists them. */
  peerCount: number;
}

/** Every check of one kind, as the reference registers them. */
function checksOf(kind: HealthKind, { chains, startedAtMs, peerCount }: HealthSource): Check[] {
  // The reference registers no liveness checks.
  if (kind === 'liveness') return [];
  const bootstrapping = [...new Set(chains.filter((c) => !c.isBootstrapped()).map((c) => c.subnetID))];
  const bootstrapped: Check = {
    name: 'bootstrapped',
    tags: [APPLICATION_TAG],
    ok: bootstrapping.length === 0,
    message: bootstrapping,
    ...(bootstrapping.length > 0 ? { error: 'subnets not bootstrapped' } : {}),
  };
  // Readiness is the one node-wide bootstrapped check.
  if (kind === 'readiness') return [bootstrapped];
  const checks: Check[] = chains.map((chain) => {
    const ok = chain.isBootstrapped();
    return {
      name: chain.alias,
      tags: [chain.subnetID],
      ok,
      message: { engine: { consensus: { lastAcceptedHeight: Number(chain.height()) } }, bootstrapped: ok },
    };
  });
  checks.push(bootstrapped, {
    name: 'network',
    tags: [APPLICATION_TAG],
    ok: true,
    message: {
      connectedPeers: peerCount,
      timeSinceLastMsgReceived: '0s',
      timeSinceLastMsgSent: '0s',
      // No message to a peer fails on the devnet.
      sendFailRate: 0,
      uptimeMs: Date.now() - startedAtMs,
    },
  });
  return checks;
}

export function healthReport(
  source: HealthSource,
  tags: readonly string[] = [],
  kind: HealthKind = 'health',
): HealthReport {
  const timestamp = new Date().toISOString();
  const wanted = new Set(tags.length === 0 ? [ALL_TAG] : tags);
  wanted.add(APPLICATION_TAG);
  const checks: HealthReport['checks'] = {};
  let healthy = true;
  for (const check of checksOf(kind, source)) {
    if (!wanted.has(ALL_TAG) && !check.tags.some((t) => wanted.has(t))) continue;
    healthy &&= check.ok;
    checks[check.name] = {
      message: check.message,
      ...(check.ok ? {} : { error: check.error ?? 'not bootstrapped' }),
      timestamp,
      duration: 0,
      ...(check.ok ? {} : { contiguousFailures: 1, timeOfFirstFailure: timestamp }),
    };
  }
  return { checks, healthy };
}

export type HealthReporter = (kind: HealthKind, tags: readonly string[]) => HealthReport;

export function createHealthEndpoint(report: HealthReporter): {
  endpoint: AvalancheEndpoint;
  /** The GET handler of one kind; `?tag=a&tag=b` filters as the `tags` param does. */
  get: (kind: HealthKind) => RawHandler;
} {
  const endpoint = new AvalancheEndpoint('health');
  endpoint.registerAll('health', {
    health: (params) => report('health', params.strings('tags')),
    liveness: (params) => report('liveness', params.strings('tags')),
    readiness: (params) => report('readiness', params.strings('tags')),
  });
  const get =
    (kind: HealthKind): RawHandler =>
    (req: http.IncomingMessage, res: http.ServerResponse) => {
      const tags = new URL(req.url ?? '/', 'http://localhost').searchParams.getAll('tag');
      const r = report(kind, tags);
      sendJson(res, r, r.healthy ? 200 : 503);
    };
  return { endpoint, get };
}
