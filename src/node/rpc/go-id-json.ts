/**
 * An avalanchego `ids.ID` argument read as its UnmarshalJSON reads one, with the reference's
 * words for each refusal (clients and scripts match on them): a JSON string holding cb58 text
 * whose checksum holds and whose payload is 32 bytes; JSON null leaves the empty id.
 */
import { fromCb58 } from '../../shared/encoding.js';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const EMPTY_ID = new Uint8Array(32);

/** mr-tron/base58's refusal of the first character outside the alphabet (Go's %q of the rune). */
function base58DigitError(text: string): string | undefined {
  if (text === '') return 'zero length string';
  for (const ch of text) {
    if (BASE58_ALPHABET.includes(ch)) continue;
    if (ch.codePointAt(0)! > 127) return 'high-bit set on invalid digit';
    return `invalid base58 digit (${ch === "'" || ch === '\\' ? `'\\${ch}'` : `'${ch}'`})`;
  }
  return undefined;
}

/** Decodes `value` as ids.ID does; throws an Error carrying the reference's message. */
export function decodeGoId(value: unknown): Uint8Array {
  if (value === null) return EMPTY_ID;
  if (typeof value !== 'string') throw new Error('first and last characters should be quotes');
  const digit = base58DigitError(value);
  if (digit) throw new Error(`couldn't decode ID to bytes: base58 decoding error: ${digit}`);
  let bytes: Uint8Array;
  try {
    bytes = fromCb58(value);
  } catch (err) {
    throw new Error(`couldn't decode ID to bytes: ${(err as Error).message}`, { cause: err });
  }
  if (bytes.length !== 32) throw new Error(`invalid hash length: expected 32 bytes but got ${bytes.length}`);
  return bytes;
}
