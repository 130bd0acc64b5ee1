/**
 * The reference's `encoding` param (formatting.Encoding): `hex` (checksummed, the default),
 * `hexc` (the same bytes under another name), `hexnc` (no checksum) and `json`, matched without
 * case. Any other name fails to unmarshal, as the reference's typed param does. `json` has no
 * string form: methods that answer with encoded bytes refuse it in the reference's words.
 */
import {
  EncodingError,
  fromCheckedHex,
  fromPlainHex,
  plainHex,
  toCheckedHex,
} from '../../shared/encoding.js';
import { ParamsShapeError, type Params } from './params.js';

export type Encoding = 'hex' | 'hexnc' | 'hexc' | 'json';

const NAMES: readonly Encoding[] = ['hex', 'hexnc', 'hexc', 'json'];

/** formatting.Encode/Decode's error for `json`. */
export const UNSUPPORTED_IN_METHOD = 'unsupported encoding in method';

/** The encoding asked for; absent or null means hex (an empty string does not, as in Go). */
export function encodingParam(params: Params): Encoding {
  const raw = params.optionalString('encoding');
  if (raw === undefined) return 'hex';
  const name = raw.toLowerCase() as Encoding;
  if (!NAMES.includes(name))
    throw new ParamsShapeError(`encoding: "${raw}" is not one of ${NAMES.join(', ')}`);
  return name;
}

/** Bytes as a string in `encoding`; throws an EncodingError for json. */
export function encodeBytes(encoding: Encoding, bytes: Uint8Array): string {
  if (encoding === 'json') throw new EncodingError(UNSUPPORTED_IN_METHOD);
  return encoding === 'hexnc' ? plainHex(bytes) : toCheckedHex(bytes);
}

/** A string in `encoding` as bytes; throws an EncodingError for json or malformed text. */
export function decodeBytes(encoding: Encoding, text: string): Uint8Array {
  if (encoding === 'json') throw new EncodingError(UNSUPPORTED_IN_METHOD);
  return encoding === 'hexnc' ? fromPlainHex(text) : fromCheckedHex(text);
}
