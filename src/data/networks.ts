/**
 * What the REST service accepts in `{network}` and `{blockchainId}`, resolved against the one
 * network identity this service indexes. Addresses are checked as bech32 with that network's
 * human-readable part.
 *
 * A local devnet is a test network, and the spec's clients (chainkit's closed enum among them)
 * can only name mainnet, fuji or testnet: a devnet also answers to `fuji` and `testnet`, takes
 * addresses with the test network's prefix besides its own, and reports the name it was asked by.
 */
import { utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { NETWORKS, networkByName, type NetworkIdentity } from '../shared/networks.js';
import { InvalidParameterError, NotFoundError } from './internal/errors.js';

export type ChainAlias = 'p-chain' | 'x-chain' | 'c-chain';

/** The five primary-network chain ids public clients enumerate (mainnet P/X/C, fuji X/C). */
export const ENUMERATED_BLOCKCHAIN_IDS = [
  NETWORKS.mainnet.pChainID,
  NETWORKS.mainnet.xChainID,
  NETWORKS.fuji.xChainID,
  NETWORKS.mainnet.cChainID,
  NETWORKS.fuji.cChainID,
] as const;

export const NETWORK_PARAM_VALUES = ['mainnet', 'fuji', 'testnet', 'local'] as const;

export interface ResolvedChain {
  alias: ChainAlias;
  blockchainId: string;
}

/** The network a request names, or a 404 when this service does not index it. */
export function resolveNetwork(indexed: NetworkIdentity, requested: string): NetworkIdentity {
  const n = networkByName(requested);
  if (!n) throw new InvalidParameterError(`network must be one of ${NETWORK_PARAM_VALUES.join(', ')}`);
  const served = answeringNetwork(indexed, n);
  if (!served)
    throw new NotFoundError(
      `network "${requested}" is not indexed by this service (it indexes ${indexed.name})`,
    );
  return served;
}

/** The indexed network when a request naming `requested` is its to answer. */
export function answeringNetwork(
  indexed: NetworkIdentity,
  requested: NetworkIdentity,
): NetworkIdentity | undefined {
  if (requested.name === indexed.name) return requested;
  if (isLocalDevnet(indexed) && requested.name === 'fuji') return indexed;
  return undefined;
}

function isLocalDevnet(network: NetworkIdentity): boolean {
  return network.name !== 'mainnet' && network.name !== 'fuji';
}

/** The `network` a response's `chainInfo` reports: the name the request used, as it used it. */
export function reportedNetworkName(requested: string): string {
  return requested.toLowerCase();
}

/** `{blockchainId}`: an alias, or a primary-network chain id of the indexed network. */
export function resolveChain(network: NetworkIdentity, value: string, allowed?: ChainAlias[]): ResolvedChain {
  const lower = value.toLowerCase();
  let alias: ChainAlias | undefined;
  if (lower === 'p-chain' || value === network.pChainID) alias = 'p-chain';
  else if (lower === 'x-chain' || value === network.xChainID) alias = 'x-chain';
  else if (lower === 'c-chain' || value === network.cChainID) alias = 'c-chain';
  if (!alias) {
    const known = (ENUMERATED_BLOCKCHAIN_IDS as readonly string[]).includes(value);
    throw new InvalidParameterError(
      known
        ? `blockchainId ${value} is not a chain of the ${network.name} network`
        : `blockchainId must be p-chain, x-chain, c-chain or a primary-network blockchain id, got "${value}"`,
    );
  }
  if (allowed && !allowed.includes(alias))
    throw new InvalidParameterError(
      `blockchainId must be ${allowed.join(' or ')} on this route, got "${value}"`,
    );
  const blockchainId =
    alias === 'p-chain' ? network.pChainID : alias === 'x-chain' ? network.xChainID : network.cChainID;
  return { alias, blockchainId };
}

/**
 * Parses a comma-separated address list (each optionally `P-`/`X-`/`C-` prefixed) into bech32
 * addresses without chain prefix, checking checksum and human-readable part.
 */
export function parseAddresses(network: NetworkIdentity, list: string, max = 1024): string[] {
  const key = `${network.hrp}|${max}|${list}`;
  const hit = parsedLists.get(key);
  if (hit) return hit;
  const parsed = parseAddressList(network, list, max);
  if (parsedLists.size >= 10_000) parsedLists.clear();
  parsedLists.set(key, parsed);
  return parsed;
}

/** Recently parsed address lists: bech32 decoding is a measurable share of a list request. */
const parsedLists = new Map<string, string[]>();

function parseAddressList(network: NetworkIdentity, list: string, max: number): string[] {
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) throw new InvalidParameterError('addresses must name at least one address');
  if (parts.length > max)
    throw new InvalidParameterError(`at most ${max} addresses per request, got ${parts.length}`);
  const out = new Set<string>();
  for (const p of parts) {
    const bare = p.replace(/^[PXC]-/i, '');
    let hrp: string;
    let bytes: Uint8Array;
    try {
      [hrp, bytes] = utils.parseBech32(bare);
    } catch {
      throw new InvalidParameterError(`invalid address "${p}"`);
    }
    const alsoFuji = isLocalDevnet(network);
    if (hrp !== network.hrp && !(alsoFuji && hrp === NETWORKS.fuji.hrp))
      // Name every prefix that is taken: a devnet's user told only `local` would not try `fuji`.
      throw new InvalidParameterError(
        `address "${p}" is not a ${network.name} address (prefix ${network.hrp}${alsoFuji ? ` or ${NETWORKS.fuji.hrp}` : ''})`,
      );
    if (bytes.length !== 20) throw new InvalidParameterError(`invalid address "${p}"`);
    // Stored and answered with the indexed network's own prefix.
    out.add(utils.formatBech32(network.hrp, bytes));
  }
  return [...out];
}

const CB58 = /^[1-9A-HJ-NP-Za-km-z]{20,60}$/;

/** Decodes cb58, verifying the four-byte checksum; undefined when malformed. */
export function decodeCb58(value: string): Uint8Array | undefined {
  if (!CB58.test(value)) return undefined;
  let all: Uint8Array;
  try {
    all = utils.base58.decode(value);
  } catch {
    return undefined;
  }
  if (all.length < 5) return undefined;
  const payload = all.subarray(0, all.length - 4);
  const sum = sha256(payload).subarray(28);
  for (let i = 0; i < 4; i++) if (sum[i] !== all[all.length - 4 + i]) return undefined;
  return payload;
}

/** A cb58 id as 0x-prefixed hex (`validationIdHex`); empty hex for text that is no cb58. */
export function cb58Hex(value: string): string {
  return '0x' + Buffer.from(decodeCb58(value) ?? []).toString('hex');
}

/** A cb58 id (tx, asset, chain, subnet): checked for its checksum and 32-byte length. */
export function parseCb58Id(value: string, what: string): string {
  if (decodeCb58(value)?.length !== 32) throw new InvalidParameterError(`invalid ${what} "${value}"`);
  return value;
}

/** A comma-separated list of node ids, each checked, without repeats, sorted. */
export function parseNodeIdList(list: string): string[] {
  return [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map(parseNodeIdParam),
    ),
  ].sort();
}

/**
 * The `addresses` and `nodeIds` filters of the reward lists: at least one is required; addresses
 * are parsed as `parseAddresses` does (at most 64), node ids as `parseNodeIdList`.
 */
export function parseRewardFilter(
  network: NetworkIdentity,
  q: { addresses?: string; nodeIds?: string },
): { addresses: string[]; nodeIds: string[] } {
  if (!q.addresses && !q.nodeIds) throw new InvalidParameterError('addresses or nodeIds is required');
  return {
    addresses: q.addresses ? parseAddresses(network, q.addresses, 64) : [],
    nodeIds: q.nodeIds ? parseNodeIdList(q.nodeIds) : [],
  };
}

/** `NodeID-…`: cb58 with checksum, 20 bytes. */
export function parseNodeIdParam(value: string): string {
  const m = /^NodeID-(.+)$/.exec(value);
  if (!m || decodeCb58(m[1])?.length !== 20)
    throw new InvalidParameterError(`invalid nodeId "${value}": expected NodeID-<cb58 of 20 bytes>`);
  return value;
}
