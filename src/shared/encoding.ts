/**
 * The node's wire encodings. "hex" on the Avalanche endpoints always means `0x` + hex(bytes ‖ last
 * four bytes of sha256(bytes)); ids are cb58 (base58 with the same four-byte checksum).
 */
import { utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';

export class EncodingError extends Error {
  override readonly name = 'EncodingError';
}

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(28);
}

/** Encodes bytes as the node's checksummed hex. */
export function toCheckedHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes).toString('hex') + Buffer.from(checksum(bytes)).toString('hex');
}

/** Decodes `0x` hex without a checksum (the reference's "hexnc"). */
export function fromPlainHex(text: string): Uint8Array {
  if (typeof text !== 'string' || !text.startsWith('0x'))
    throw new EncodingError('missing 0x prefix to hex encoding');
  const body = text.slice(2);
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw goHexError(body);
  return new Uint8Array(Buffer.from(body, 'hex'));
}

const isHexDigit = (b: number) =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/**
 * Go's encoding/hex error for text that is not hex, as the reference passes it on: the first
 * byte that is not a hex digit (`invalid byte: U+007A 'z'`, Go's %#U), else the odd length.
 */
function goHexError(body: string): EncodingError {
  const bytes = Buffer.from(body, 'utf8');
  const bad = bytes.findIndex((b) => !isHexDigit(b));
  if (bad < 0) return new EncodingError('encoding/hex: odd length hex string');
  const b = bytes[bad];
  // %#U quotes the character when Go's strconv.IsPrint holds (here: Latin-1 printables).
  const printable = (b >= 0x20 && b < 0x7f) || (b >= 0xa1 && b !== 0xad);
  const code = `U+${b.toString(16).toUpperCase().padStart(4, '0')}`;
  return new EncodingError(
    `encoding/hex: invalid byte: ${code}${printable ? ` '${String.fromCharCode(b)}'` : ''}`,
  );
}

/** Decodes checksummed hex, with the reference node's error messages. */
export function fromCheckedHex(text: string): Uint8Array {
  const raw = fromPlainHex(text);
  const all = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (all.length < 4) throw new EncodingError('input string is smaller than the checksum size');
  const payload = all.subarray(0, all.length - 4);
  const sum = all.subarray(all.length - 4);
  if (!Buffer.from(checksum(payload)).equals(sum)) throw new EncodingError('invalid input checksum');
  return new Uint8Array(payload);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
// 58^9 < 2^53: a chunk of nine digits converts exactly through a JS number.
const CHUNK = 58n ** 9n;
const DIGITS_PER_CHUNK = 9;

/**
 * cb58(bytes): base58 of bytes ‖ the last four bytes of sha256(bytes). Ids are encoded on every
 * hot path (each tx and block, each output the indexer stores), and the generic base58 of
 * @scure/base (a quadratic radix conversion, digit by digit) costs about as much as checking a
 * signature; this converts through one BigInt, nine digits per division.
 */
export function toCb58(bytes: Uint8Array): string {
  const full = Buffer.concat([bytes, checksum(bytes)]);
  let n = BigInt('0x' + full.toString('hex'));
  let out = '';
  while (n > 0n) {
    let chunk = Number(n % CHUNK);
    n /= CHUNK;
    // Nine digits per chunk; leading zero digits only matter while more chunks follow.
    for (let i = 0; i < DIGITS_PER_CHUNK && (chunk > 0 || n > 0n); i++) {
      out = BASE58[chunk % 58] + out;
      chunk = Math.floor(chunk / 58);
    }
  }
  // Each leading zero byte is a '1', as in any base58.
  for (let i = 0; i < full.length && full[i] === 0; i++) out = '1' + out;
  return out;
}

/**
 * The longest cb58 text decoded. Every cb58 value a request carries is an id, a short id or a
 * key (at most 36 bytes with the checksum, 50 characters); base58 decoding is quadratic in the
 * length, so a 70,000-character "id" held the event loop for seconds before it was refused.
 */
export const MAX_CB58_CHARS = 128;

export function fromCb58(text: string): Uint8Array {
  if (text.length > MAX_CB58_CHARS)
    throw new EncodingError(`invalid cb58 string: ${text.length} characters, at most ${MAX_CB58_CHARS}`);
  let all: Uint8Array;
  try {
    all = utils.base58.decode(text);
  } catch {
    throw new EncodingError(`invalid cb58 string "${text}"`);
  }
  // avalanchejs's base58check.decode only drops the last four bytes; the reference verifies them,
  // so an id with a mistyped character is refused rather than read as another id.
  if (all.length < 4) throw new EncodingError('input string is smaller than the checksum size');
  const payload = all.subarray(0, all.length - 4);
  if (!Buffer.from(checksum(payload)).equals(Buffer.from(all.subarray(all.length - 4))))
    throw new EncodingError('invalid input checksum');
  return payload;
}

/** Parses a 32-byte cb58 id. */
export function parseId(text: string, what = 'ID'): Uint8Array {
  const bytes = fromCb58(text);
  if (bytes.length !== 32) throw new EncodingError(`${what} must be 32 bytes, got ${bytes.length}`);
  return bytes;
}

export function plainHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes).toString('hex');
}

export function sha256Id(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}

export const NODE_ID_PREFIX = 'NodeID-';

export function formatNodeId(shortId: Uint8Array): string {
  return NODE_ID_PREFIX + toCb58(shortId);
}

export function parseNodeId(text: string): Uint8Array {
  if (!text.startsWith(NODE_ID_PREFIX))
    throw new EncodingError(`NodeID has no "${NODE_ID_PREFIX}" prefix: ${text}`);
  const bytes = fromCb58(text.slice(NODE_ID_PREFIX.length));
  if (bytes.length !== 20) throw new EncodingError(`NodeID must be 20 bytes, got ${bytes.length}`);
  return bytes;
}
