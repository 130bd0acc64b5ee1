/**
 * The metrics service: its own HTTP server (default port 9701), no authentication, metered per
 * client address with compute units (429 with retry-after when spent). It serves the legacy
 * `GET /v1/avg_tps/{chainId}` and the `GET /v2/chains/{chainId}/metrics/{metric}` the public
 * SDKs call and their rolling windows (`GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}`),
 * all read from the buckets the indexer maintains, the chains it has metrics of
 * (`GET /v2/chains`, `GET /v2/chains/{chainId}`), staking metrics from the indexed stakers and ICM
 * message counts (`GET /v2/icm/timeseries`, `GET /v2/icm/summary`) from the indexed messages, and
 * two Looking Glass lists: the addresses running validators during a time frame (from the
 * stakers) and the BTC.b bridgers (from the token transfers). Errors use the metrics body
 * `{message: [..], error, statusCode}`.
 *
 * This module only starts and stops it: the app is assembled in app.ts, each route group is a
 * plugin in routes/, and the schemas are in schemas.ts.
 */
import type { FastifyInstance } from 'fastify';
import { joinHostPort } from '../../shared/host-port.js';
import { buildMetricsApp, type MetricsAppOptions } from './app.js';

export interface MetricsServiceOptions extends MetricsAppOptions {
  host: string;
  port: number;
}

export interface RunningMetricsService {
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

export async function startMetricsService(options: MetricsServiceOptions): Promise<RunningMetricsService> {
  const app = await buildMetricsApp(options);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${joinHostPort(options.host, port)}`,
    port,
    app,
    async close() {
      await app.close();
    },
  };
}
