/**
 * cb58 for ids on the hot path. Every issued tx needs its cb58 id, and the generic base58 of
 * @scure/base (quadratic radix conversion) costs about as much as verifying the tx's signature;
 * this converts through one BigInt, 9 digits per division.
 */
import { sha256 } from '@noble/hashes/sha2.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
// 58^9 < 2^53: a chunk converts exactly through a JS number.
const CHUNK = 58n ** 9n;
const DIGITS_PER_CHUNK = 9;

/** cb58(bytes): base58 of bytes ‖ the last 4 bytes of sha256(bytes). */
export function fastCb58(bytes: Uint8Array): string {
  const full = Buffer.concat([bytes, sha256(bytes).subarray(28)]);
  let n = full.length > 0 ? BigInt('0x' + full.toString('hex')) : 0n;
  let out = '';
  while (n > 0n) {
    let chunk = Number(n % CHUNK);
    n /= CHUNK;
    // Nine digits per chunk; leading zero digits only matter while more chunks follow.
    for (let i = 0; i < DIGITS_PER_CHUNK && (chunk > 0 || n > 0n); i++) {
      out = ALPHABET[chunk % 58] + out;
      chunk = Math.floor(chunk / 58);
    }
  }
  for (let i = 0; i < full.length && full[i] === 0; i++) out = '1' + out;
  return out;
}
