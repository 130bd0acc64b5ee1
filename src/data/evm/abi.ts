/**
 * The few ABI pieces the EVM half needs: event topics, call selectors, and decoders for the
 * return values of name()/symbol()/decimals()/tokenURI()/uri(), written defensively because
 * contracts in the wild return non-standard data (bytes32 names, short or empty returns).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';

const utf8 = new TextEncoder();

export function keccakHex(text: string): string {
  return '0x' + Buffer.from(keccak_256(utf8.encode(text))).toString('hex');
}

export const TOPIC_TRANSFER = keccakHex('Transfer(address,address,uint256)');
export const TOPIC_TRANSFER_SINGLE = keccakHex('TransferSingle(address,address,address,uint256,uint256)');
export const TOPIC_TRANSFER_BATCH = keccakHex('TransferBatch(address,address,address,uint256[],uint256[])');

export const SELECTOR = {
  name: '0x06fdde03',
  symbol: '0x95d89b41',
  decimals: '0x313ce567',
  totalSupply: '0x18160ddd',
  supportsInterface: '0x01ffc9a7',
  tokenURI: '0xc87b56dd',
  uri: '0x0e89341c',
} as const;

export const INTERFACE_ERC721 = '0x80ac58cd';
export const INTERFACE_ERC1155 = '0xd9b67a26';

/** Well-known selectors, so `method.methodName` is filled for the common calls. */
export const KNOWN_METHODS: Record<string, string> = {
  '0xa9059cbb': 'transfer(address,uint256)',
  '0x23b872dd': 'transferFrom(address,address,uint256)',
  '0x095ea7b3': 'approve(address,uint256)',
  '0x42842e0e': 'safeTransferFrom(address,address,uint256)',
  '0xb88d4fde': 'safeTransferFrom(address,address,uint256,bytes)',
  '0xf242432a': 'safeTransferFrom(address,address,uint256,uint256,bytes)',
  '0x2eb2c2d6': 'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
  '0x40c10f19': 'mint(address,uint256)',
  '0xa22cb465': 'setApprovalForAll(address,bool)',
  '0xd0e30db0': 'deposit()',
  '0x2e1a7d4d': 'withdraw(uint256)',
};

export function word(n: bigint): string {
  return n.toString(16).padStart(64, '0');
}

/** calldata for `selector(uint256)`. */
export function callWithUint(selector: string, n: bigint): string {
  return selector + word(n);
}

/** calldata for `supportsInterface(bytes4)`. */
export function callSupportsInterface(interfaceId: string): string {
  return SELECTOR.supportsInterface + interfaceId.slice(2).padEnd(64, '0');
}

/** The address in a 32-byte topic or word. */
export function topicToAddress(topic: string): string {
  return '0x' + topic.slice(-40).toLowerCase();
}

export function hexToBigInt(hex: string | null | undefined): bigint {
  if (!hex || hex === '0x') return 0n;
  return BigInt(hex);
}

/** Splits the data part of a log/return into 32-byte words (hex without 0x). */
export function words(data: string): string[] {
  const body = data.startsWith('0x') ? data.slice(2) : data;
  const out: string[] = [];
  for (let i = 0; i + 64 <= body.length; i += 64) out.push(body.slice(i, i + 64));
  return out;
}

/**
 * Decodes an ABI `string` return; falls back to a right-padded bytes32 (old tokens such as MKR).
 * Undefined when the data is neither. NUL characters are dropped: tokens that build their name
 * from a bytes32 return it padded with them, and PostgreSQL's text type cannot hold one (the
 * insert fails, so a single such token would stop the indexer at its block).
 */
export function decodeStringReturn(data: string | undefined): string | undefined {
  if (!data || data === '0x') return undefined;
  const body = data.slice(2);
  if (body.length === 64) {
    const bytes = Buffer.from(body, 'hex');
    const end = bytes.indexOf(0);
    const text = bytes.subarray(0, end === -1 ? 32 : end).toString('utf8');
    return isPrintable(text) ? text : undefined;
  }
  if (body.length < 128) return undefined;
  const offset = Number(BigInt('0x' + body.slice(0, 64)));
  if (!Number.isSafeInteger(offset) || offset * 2 + 64 > body.length) return undefined;
  const length = Number(BigInt('0x' + body.slice(offset * 2, offset * 2 + 64)));
  const start = offset * 2 + 64;
  if (!Number.isSafeInteger(length) || start + length * 2 > body.length) return undefined;
  return Buffer.from(body.slice(start, start + length * 2), 'hex')
    .toString('utf8')
    .replaceAll('\0', '');
}

/** Decodes a uint return that must fit `max` (e.g. decimals as uint8). */
export function decodeUintReturn(data: string | undefined, max: bigint): number | undefined {
  if (!data || data.length < 66) return undefined;
  const n = BigInt(data.slice(0, 66));
  return n <= max ? Number(n) : undefined;
}

export function decodeBoolReturn(data: string | undefined): boolean {
  if (!data || data.length < 66) return false;
  return BigInt(data.slice(0, 66)) === 1n;
}

function isPrintable(text: string): boolean {
  // No control characters (a bytes32 that is not text decodes to some).
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return false;
  return text.length > 0;
}

const checksums = new Map<string, string>();
const CHECKSUM_CACHE = 50_000;

/** EIP-55 mixed-case checksum of a 20-byte hex address (memoised: list pages repeat addresses). */
export function checksumAddress(address: string): string {
  const cached = checksums.get(address);
  if (cached !== undefined) return cached;
  const out = computeChecksum(address);
  if (checksums.size >= CHECKSUM_CACHE) checksums.clear();
  checksums.set(address, out);
  return out;
}

function computeChecksum(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, '');
  const hash = Buffer.from(keccak_256(utf8.encode(lower))).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

export function isHexAddress(text: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(text);
}
