/**
 * The signers bitset of a Warp BitSetSignature: a big integer written as its minimal big-endian
 * magnitude, where bit i (from the least-significant bit of the last byte) marks canonical
 * validator i. A leading zero byte is not minimal and is refused by verifiers.
 */

export class BitSetError extends Error {
  override readonly name = 'BitSetError';
}

export function encodeSigners(indices: Iterable<number>): Uint8Array {
  let value = 0n;
  for (const i of indices) value |= 1n << BigInt(i);
  if (value === 0n) return new Uint8Array(0);
  const hex = value.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 ? '0' + hex : hex, 'hex'));
}

/** Signer indices in ascending order; throws for a non-minimal encoding. */
export function decodeSigners(bytes: Uint8Array): number[] {
  if (bytes.length > 0 && bytes[0] === 0) throw new BitSetError('signers bitset is not minimally encoded');
  const out: number[] = [];
  for (let byteIndex = 0; byteIndex < bytes.length; byteIndex++) {
    const byte = bytes[bytes.length - 1 - byteIndex];
    for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) out.push(byteIndex * 8 + bit);
  }
  return out;
}
