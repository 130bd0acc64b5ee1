/**
 * Resolves an NFT's `tokenURI`/`uri` to its metadata, and names every outcome with the real
 * service's `indexStatus` values. Fetches are bounded (timeout, size limit, redirect limit) and
 * never reach an address the operator did not allow: hosts resolving to loopback, private or
 * link-local addresses are refused unless listed in `allowHosts`.
 */
import dns from 'node:dns/promises';
import net from 'node:net';

export type NftIndexStatus =
  | 'UNKNOWN'
  | 'MISSING_TOKEN'
  | 'INVALID_TOKEN_URI'
  | 'INVALID_TOKEN_URI_SCHEME'
  | 'UNREACHABLE_TOKEN_URI'
  | 'THROTTLED_TOKEN_URI'
  | 'METADATA_CONTENT_TOO_LARGE'
  | 'INVALID_METADATA'
  | 'INVALID_METADATA_JSON'
  | 'INDEXED'
  | 'UNINDEXED';

export interface NftMetadata {
  name?: string;
  symbol?: string;
  imageUri?: string;
  description?: string;
  animationUri?: string;
  externalUrl?: string;
  background?: string;
  /** ERC-721: the `attributes` array as a JSON string. */
  attributes?: string;
  /** ERC-1155: the `properties` object as a JSON string. */
  properties?: string;
  decimals?: number;
}

export interface ResolvedMetadata {
  indexStatus: NftIndexStatus;
  metadata: NftMetadata;
}

export interface MetadataResolverOptions {
  /** Gateway for `ipfs://` URIs, e.g. `https://ipfs.io/ipfs/`. */
  ipfsGateway?: string;
  /** Hosts (names or IPs) that may be fetched even though they are private or loopback. */
  allowHosts?: readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

const DEFAULTS = {
  ipfsGateway: 'https://ipfs.io/ipfs/',
  timeoutMs: 5_000,
  maxBytes: 1_000_000,
  maxRedirects: 3,
};

class Outcome extends Error {
  constructor(
    readonly status: NftIndexStatus,
    message: string,
  ) {
    super(message);
  }
}

/** ERC-1155 clients substitute `{id}` with the token id as 64 lower-case hex digits. */
export function substituteTokenId(uri: string, tokenId: bigint): string {
  return uri.replaceAll('{id}', tokenId.toString(16).padStart(64, '0'));
}

export function createMetadataResolver(options: MetadataResolverOptions = {}) {
  const opts = { ...DEFAULTS, ...options };
  const allowed = new Set((options.allowHosts ?? []).map((h) => h.toLowerCase()));

  async function checkHost(hostname: string): Promise<void> {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (allowed.has(host)) return;
    const addresses = net.isIP(host)
      ? [host]
      : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
    if (addresses.length === 0) throw new Outcome('UNREACHABLE_TOKEN_URI', `cannot resolve ${host}`);
    for (const address of addresses) {
      if (isPrivate(address) && !allowed.has(address)) {
        throw new Outcome('UNREACHABLE_TOKEN_URI', `${host} resolves to ${address}, which is not allowed`);
      }
    }
  }

  async function fetchBounded(url: URL, redirects = 0): Promise<string> {
    await checkHost(url.hostname);
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs) });
    } catch (err) {
      throw new Outcome('UNREACHABLE_TOKEN_URI', `fetch failed: ${(err as Error).message}`);
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      if (redirects >= opts.maxRedirects) throw new Outcome('UNREACHABLE_TOKEN_URI', 'too many redirects');
      const next = new URL(res.headers.get('location')!, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw new Outcome('INVALID_TOKEN_URI_SCHEME', 'redirect to another scheme');
      return fetchBounded(next, redirects + 1);
    }
    if (res.status === 429) throw new Outcome('THROTTLED_TOKEN_URI', 'the metadata host throttles us');
    if (!res.ok) throw new Outcome('UNREACHABLE_TOKEN_URI', `the metadata host answered ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > opts.maxBytes) throw new Outcome('METADATA_CONTENT_TOO_LARGE', `${declared} bytes`);
    const reader = res.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > opts.maxBytes) {
          await reader.cancel();
          throw new Outcome('METADATA_CONTENT_TOO_LARGE', `more than ${opts.maxBytes} bytes`);
        }
        chunks.push(value);
      }
    } catch (err) {
      if (err instanceof Outcome) throw err;
      throw new Outcome('UNREACHABLE_TOKEN_URI', `reading the body failed: ${(err as Error).message}`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function decodeDataUri(uri: string): string {
    const match = /^data:([^,]*?),(.*)$/s.exec(uri);
    if (!match) throw new Outcome('INVALID_TOKEN_URI', 'malformed data: URI');
    const [, meta, data] = match;
    const text = meta.endsWith(';base64')
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeURIComponent(data);
    if (text.length > opts.maxBytes) throw new Outcome('METADATA_CONTENT_TOO_LARGE', `${text.length} bytes`);
    return text;
  }

  async function load(uri: string): Promise<string> {
    if (uri.startsWith('data:')) return decodeDataUri(uri);
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new Outcome('INVALID_TOKEN_URI', `not a URI: ${uri.slice(0, 100)}`);
    }
    if (url.protocol === 'ipfs:') {
      const path = uri.slice('ipfs://'.length).replace(/^ipfs\//, '');
      return fetchBounded(
        new URL(path, opts.ipfsGateway.endsWith('/') ? opts.ipfsGateway : opts.ipfsGateway + '/'),
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Outcome('INVALID_TOKEN_URI_SCHEME', `unsupported scheme ${url.protocol}`);
    }
    return fetchBounded(url);
  }

  return {
    /** Resolves `uri`; never throws: every failure is a status. */
    async resolve(uri: string | undefined): Promise<ResolvedMetadata> {
      if (uri === undefined) return { indexStatus: 'MISSING_TOKEN', metadata: {} };
      if (uri.trim() === '') return { indexStatus: 'INVALID_TOKEN_URI', metadata: {} };
      try {
        const text = await load(uri.trim());
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          return { indexStatus: 'INVALID_METADATA_JSON', metadata: {} };
        }
        if (typeof json !== 'object' || json === null || Array.isArray(json))
          return { indexStatus: 'INVALID_METADATA', metadata: {} };
        return { indexStatus: 'INDEXED', metadata: normalise(json as Record<string, unknown>) };
      } catch (err) {
        if (err instanceof Outcome) return { indexStatus: err.status, metadata: {} };
        return { indexStatus: 'UNKNOWN', metadata: {} };
      }
    },
  };
}

export type MetadataResolver = ReturnType<typeof createMetadataResolver>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function normalise(json: Record<string, unknown>): NftMetadata {
  const out: NftMetadata = {};
  const set = <K extends keyof NftMetadata>(key: K, value: NftMetadata[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set('name', str(json.name));
  set('symbol', str(json.symbol));
  set('description', str(json.description));
  set('imageUri', str(json.image) ?? str(json.image_url) ?? str(json.image_data));
  set('animationUri', str(json.animation_url));
  set('externalUrl', str(json.external_url));
  set('background', str(json.background_color));
  if (json.attributes !== undefined) set('attributes', JSON.stringify(json.attributes));
  if (json.properties !== undefined) set('properties', JSON.stringify(json.properties));
  if (typeof json.decimals === 'number' && Number.isInteger(json.decimals)) set('decimals', json.decimals);
  return out;
}

/** Loopback, private, link-local, unique-local and unspecified addresses. */
export function isPrivate(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a, b] = address.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:')) return isPrivate(lower.slice(7));
  return (
    lower === '::1' ||
    lower === '::' ||
    lower.startsWith('fc') ||
    lower.startsWith('fd') ||
    lower.startsWith('fe80')
  );
}
