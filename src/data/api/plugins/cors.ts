/**
 * Cross-origin access for browser clients. The real Data and Metrics APIs are called straight
 * from web pages (the builders' console runs AvaCloudSDK in the browser, explorers and wallets
 * call them client-side), so a dapp pointed at a devnet must be able to as well: any origin may
 * read the answers, including error bodies and the rate-limit headers, and a preflight is
 * answered before keys, rate limits or routing (it carries no key and costs nothing). Keys travel
 * in headers, never cookies, so the wildcard origin is enough.
 */
import type { FastifyInstance } from 'fastify';

/** Response headers a page may read besides the CORS-safelisted ones. */
const EXPOSED = 'ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after';

/** Must be registered before any other onRequest hook: a preflight stops here. */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.origin === undefined) return;
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSED);
    const asked = request.headers['access-control-request-method'];
    if (request.method !== 'OPTIONS' || asked === undefined) return;
    reply.header('access-control-allow-methods', 'GET, HEAD, POST, OPTIONS');
    // Whatever headers the page means to send: the SDKs' key header, content-type, their own.
    reply.header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? '');
    reply.header('access-control-max-age', '86400');
    return reply.code(204).send();
  });
}
