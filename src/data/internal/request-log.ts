/**
 * What the HTTP services log about a request that failed, by whose fault it was (fastify's own
 * rule, which both services replace with `logger: false`): a client's bad request (4XX) is one
 * debug line without a stack, as a client sending rubbish is no news to the operator; a 502 or
 * 503, which the services answer only for a condition outside the server (a node or validators
 * that did not answer or sign, the store unavailable for now), one warn line without a stack;
 * only a 500, an unexpected failure and so a real fault of the server, an error with its stack.
 */
import type { Logger } from '../../shared/logger.js';

export function logRequestFailure(
  logger: Logger | undefined,
  err: unknown,
  status: number,
  url: string,
  what = 'request failed',
): void {
  if (!logger) return;
  const reason = err instanceof Error ? err.message : String(err);
  if (status < 500) logger.debug({ status, url, reason }, what);
  else if (status === 502 || status === 503) logger.warn({ status, url, reason }, what);
  else logger.error({ err, status, url }, what);
}
