/**
 * JSON integers written with every digit. Go's encoding/json writes a uint64 as a bare number, and
 * some reference answers (the `json` encoding of P-chain txs and blocks) carry amounts above 2^53,
 * which a JS number cannot hold and JSON.stringify refuses as a bigint. Node 20 has no
 * JSON.rawJSON, so a JsonInteger serialises as a marked string that `stringifyJson` unquotes.
 */
import { randomBytes } from 'node:crypto';
import { jsonText, type JsonReplacer } from './json-text.js';

/** Per process, so no string a client sent can pass for a mark. */
const NONCE = randomBytes(8).toString('hex');
const MARK = `\u0000int${NONCE}:`;
/**
 * A mark as JSON.stringify writes it (U+0000 escaped as \u0000), with its quotes: an integer's
 * digits or a number literal as a client sent it (JsonNumberText).
 */
const QUOTED_MARK = new RegExp(`"\\\\u0000int${NONCE}:(-?\\d[\\d.eE+-]*)"`, 'g');

/** Marks written so far: `stringifyJson` only scans its text when some were. */
let marksWritten = 0;

export class JsonInteger {
  constructor(readonly value: bigint) {}

  toJSON(): string {
    marksWritten++;
    return MARK + this.value.toString();
  }
}

/**
 * A JSON number written back exactly as a client sent it: `text` is a literal JSON.parse accepted
 * (one of a request, never built from elsewhere), which a double may not hold (a request id).
 */
export class JsonNumberText {
  constructor(readonly text: string) {}

  toJSON(): string {
    marksWritten++;
    return MARK + this.text;
  }
}

export function jsonInteger(value: bigint | number): JsonInteger {
  return new JsonInteger(BigInt(value));
}

/** JSON.stringify that writes JsonIntegers as bare numbers. */
export function stringifyJson(value: unknown, replacer?: JsonReplacer): string {
  const before = marksWritten;
  const text = jsonText(value, replacer);
  return marksWritten === before ? text : text.replace(QUOTED_MARK, '$1');
}
