/**
 * How long an HTTP client may take to send a request: AvalancheGo's `http-read-timeout` and
 * `http-read-header-timeout` (30 s each). Without them a client that trickles its headers or its
 * body holds a connection (and its socket) for ever. Every server of both halves (the node's
 * JSON-RPC, the chain-data REST service, the metrics service) applies the same limit.
 */
import type http from 'node:http';

export const DEFAULT_HTTP_READ_TIMEOUT_MS = 30_000;

/**
 * node:http server options for a read timeout of `ms` (0: none). Node looks for expired
 * requests every `connectionsCheckingInterval` (30 s by default): it is shortened with the
 * timeout, so a slow request is cut off close to the timeout rather than up to 30 s later.
 */
export function readTimeoutOptions(
  ms: number,
): Required<Pick<http.ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'>> {
  if (ms <= 0) return { headersTimeout: 0, requestTimeout: 0, connectionsCheckingInterval: 30_000 };
  return {
    headersTimeout: ms,
    requestTimeout: ms,
    connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(ms / 4))),
  };
}

/** The same for a Fastify server: its own `requestTimeout` (Fastify's default is none). */
export function fastifyReadTimeouts(ms: number): {
  requestTimeout: number;
  http: Pick<http.ServerOptions, 'headersTimeout' | 'connectionsCheckingInterval'>;
} {
  const { requestTimeout, headersTimeout, connectionsCheckingInterval } = readTimeoutOptions(ms);
  return { requestTimeout, http: { headersTimeout, connectionsCheckingInterval } };
}
