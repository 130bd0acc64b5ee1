/**
 * The health API: `GET /ext/health` (also `/liveness`, `/readiness`) and `health.health` over
 * JSON-RPC. 200 when every check passes, 503 otherwise, as the reference node answers.
 */
import type http from 'node:http';
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import { sendJson, type RawHandler } from '../rpc/http-server.js';
import type { Chain } from '../chains/chain.js';

export interface HealthReport {
  checks: Record<
    string,
    {
      message: Record<string, unknown>;
      timestamp: string;
      duration: number;
      contiguousFailures: number;
      timeOfFirstFailure: null;
    }
  >;
  healthy: boolean;
}

export function healthReport(chains: readonly Chain[], startedAtMs: number): HealthReport {
  const timestamp = new Date().toISOString();
  const checks: HealthReport['checks'] = {};
  let healthy = true;
  for (const chain of chains) {
    const ok = chain.isBootstrapped();
    healthy &&= ok;
    checks[chain.alias] = {
      message: { engine: { consensus: { lastAcceptedHeight: Number(chain.height()) } }, bootstrapped: ok },
      timestamp,
      duration: 0,
      contiguousFailures: ok ? 0 : 1,
      timeOfFirstFailure: null,
    };
  }
  checks.network = {
    message: {
      connectedPeers: chains.length,
      timeSinceLastMsgReceived: '0s',
      timeSinceLastMsgSent: '0s',
      uptimeMs: Date.now() - startedAtMs,
    },
    timestamp,
    duration: 0,
    contiguousFailures: 0,
    timeOfFirstFailure: null,
  };
  return { checks, healthy };
}

export function createHealthEndpoint(report: () => HealthReport): {
  endpoint: AvalancheEndpoint;
  get: RawHandler;
} {
  const endpoint = new AvalancheEndpoint('health');
  endpoint.registerAll('health', {
    health: () => report(),
    liveness: () => ({ checks: {}, healthy: true }),
    readiness: () => report(),
  });
  const get: RawHandler = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const r = report();
    sendJson(res, r, r.healthy ? 200 : 503);
  };
  return { endpoint, get };
}
