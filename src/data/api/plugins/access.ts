/**
 * API keys and compute-unit rate limits. A request names its key in `x-data-api-key` (the
 * spec) or `x-glacier-api-key` (what the real SDKs send); without one it is anonymous and
 * metered per client address at the anonymous tier. Order of checks: unknown key → 401, key
 * restricted to other networks → 403, budget spent → 429 with `retry-after`.
 * Each route declares its weight as `config.computeUnits`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { networkByName, type NetworkIdentity } from '../../../shared/networks.js';
import { answeringNetwork } from '../../networks.js';
import { ForbiddenError, RateLimitedError, UnknownApiKeyError } from '../../internal/errors.js';
import type { ApiAccessConfig, ApiKey } from '../api-keys.js';
import { rateLimitHeaders, type RateLimiter } from '../rate-limiter.js';

export const KEY_HEADERS = ['x-data-api-key', 'x-glacier-api-key'] as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Compute units one call of the route costs (the real service's execution weight). */
    computeUnits?: number;
  }
  interface FastifyRequest {
    apiKey?: ApiKey;
  }
}

function keyOf(request: FastifyRequest): string | undefined {
  for (const h of KEY_HEADERS) {
    const v = request.headers[h];
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** The `{network}` path segment of primary-network routes, read before validation runs. */
function networkOf(url: string): string | undefined {
  const m = /^\/v1\/(?:networks|signatureAggregator)\/([^/?]+)/.exec(url);
  return m ? decodeURIComponent(m[1]) : undefined;
}

/** The `{chainId}` path segment of the EVM routes of one chain. */
function chainOf(url: string): string | undefined {
  const m = /^\/v1\/chains\/([^/?]+)/.exec(url);
  return m ? decodeURIComponent(m[1]) : undefined;
}

/** The network name of an indexed EVM chain (EVM chain id or blockchain id); undefined if unknown. */
export type ChainNetworkLookup = (chainId: string) => Promise<string | undefined>;

export function registerAccessControl(
  app: FastifyInstance,
  access: ApiAccessConfig,
  limiter: RateLimiter,
  indexed: NetworkIdentity,
  chainNetwork?: ChainNetworkLookup,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const cost = request.routeOptions.config?.computeUnits;
    if (cost === undefined) return;
    const given = keyOf(request);
    let tier = access.anonymousTier;
    let caller = `anon:${request.ip}`;
    if (given !== undefined) {
      const key = access.keys.get(given);
      if (!key) throw new UnknownApiKeyError('unknown API key');
      request.apiKey = key;
      tier = access.tiers[key.tier];
      caller = `key:${given}`;
      if (key.networks) {
        const requested = networkOf(request.url);
        const named = requested ? networkByName(requested) : undefined;
        // A local devnet also answers to fuji and testnet: the key must allow the devnet.
        const network = named && (answeringNetwork(indexed, named) ?? named);
        if (network && !key.networks.includes(network.name))
          throw new ForbiddenError(`this API key may not query the ${requested} network`);
        // An EVM chain belongs to a network too (an unknown chain is left to its route's 404).
        const chain = chainOf(request.url);
        const chainNet = chain !== undefined ? await chainNetwork?.(chain) : undefined;
        if (chainNet && !key.networks.includes(chainNet as (typeof key.networks)[number]))
          throw new ForbiddenError(`this API key may not query chain ${chain} of the ${chainNet} network`);
      }
    }
    const charge = limiter.charge(caller, tier, cost);
    reply.headers(rateLimitHeaders(charge, tier));
    if (!charge.allowed) {
      throw new RateLimitedError(
        `rate limit exceeded: ${tier.name} tier allows ${charge.limit} compute units per window, this call costs ${cost}`,
        charge.resetSeconds,
      );
    }
  });
}
