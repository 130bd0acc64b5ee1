/**
 * Operator settings of the NFT metadata fetcher, from the environment (the CLI has no flags for
 * them): FLURRY_IPFS_GATEWAY (default https://ipfs.io/ipfs/) and FLURRY_NFT_ALLOW_HOSTS, a
 * comma-separated list of private or loopback hosts metadata may be fetched from.
 */
import type { MetadataResolverOptions } from './metadata-resolver.js';

export function nftResolverOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): MetadataResolverOptions {
  const allowHosts = (env.FLURRY_NFT_ALLOW_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  return {
    ...(env.FLURRY_IPFS_GATEWAY ? { ipfsGateway: env.FLURRY_IPFS_GATEWAY } : {}),
    allowHosts,
  };
}
