/**
 * Reading request params the way the reference node's Go decoder does: object keys match
 * case-insensitively, unknown keys are ignored, and 64-bit integers arrive as numbers or strings.
 */
import { fromCb58 } from '../../shared/encoding.js';
import { numberLiteral } from './json-literals.js';
import { jsonText } from './json-text.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Case-insensitive view over a JSON object. */
export class Params {
  /** Each member by its lower-cased key, with the key as the client spelled it. */
  private readonly byLowerKey = new Map<string, { key: string; value: unknown }>();

  /**
   * @param call the params of the call this object came in (itself, or the array around it, or
   *   the params holding a nested object): where a number's literal is looked up
   */
  constructor(
    readonly raw: Record<string, unknown> = {},
    private readonly call: object = raw,
  ) {
    for (const [key, value] of Object.entries(raw)) {
      const lower = key.toLowerCase();
      // Go's decoder prefers an exact match, then the first case-insensitive one; JSON objects
      // rarely carry both spellings, so the first wins here.
      if (!this.byLowerKey.has(lower)) this.byLowerKey.set(lower, { key, value });
    }
  }

  /** Normalises every params shape clients send: missing, null, {}, [], [obj]. */
  static from(params: unknown): Params {
    if (params === undefined || params === null) return new Params();
    if (Array.isArray(params)) {
      if (params.length === 0) return new Params();
      if (params.length === 1 && isObject(params[0])) return new Params(params[0], params);
      throw new ParamsShapeError(
        `params must be an object or an array holding one object, got ${describe(params)}`,
      );
    }
    if (isObject(params)) return new Params(params);
    throw new ParamsShapeError(`params must be an object, got ${describe(params)}`);
  }

  has(name: string): boolean {
    const v = this.byLowerKey.get(name.toLowerCase());
    return v !== undefined && v !== null;
  }

  get(name: string): unknown {
    return this.byLowerKey.get(name.toLowerCase())?.value;
  }

  string(name: string): string {
    const v = this.get(name);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw expected(name, 'a string', v);
    return v;
  }

  optionalString(name: string): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw expected(name, 'a string', v);
    return v;
  }

  strings(name: string): string[] {
    const v = this.get(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
      throw expected(name, 'an array of strings', v);
    return v as string[];
  }

  /** A utils/json Uint64: a JSON number or a decimal string; absent or null is `fallback`. */
  uint64(name: string, fallback = 0n): bigint {
    return this.optionalUnsigned(name, 64) ?? fallback;
  }

  optionalUint64(name: string): bigint | undefined {
    return this.optionalUnsigned(name, 64);
  }

  /** A utils/json Uint32 (a page `limit`); absent or null is `fallback`. */
  uint32(name: string, fallback = 0): number {
    const n = this.optionalUnsigned(name, 32);
    return n === undefined ? fallback : Number(n);
  }

  /** A utils/json Uint16 (sampleValidators' `size`); absent or null is 0. */
  uint16(name: string): number {
    return Number(this.optionalUnsigned(name, 16) ?? 0n);
  }

  private optionalUnsigned(name: string, bits: UnsignedBits): bigint | undefined {
    const member = this.byLowerKey.get(name.toLowerCase());
    if (member === undefined || member.value === null || member.value === undefined) return undefined;
    const { key, value } = member;
    // The literal is found under the key as the client spelled it.
    const literal = typeof value === 'number' ? numberLiteral(this.raw, key, this.call) : undefined;
    return parseUnsigned(value, name, bits, literal);
  }

  /**
   * A 32-byte cb58 ID (a tx, block, container or asset ID), or undefined when absent. A malformed
   * one, the empty string included, fails to unmarshal, as the reference's typed `ids.ID` does.
   */
  optionalId(name: string): string | undefined {
    const text = this.optionalString(name);
    if (text === undefined) return undefined;
    if (text === '') throw emptyIdError(name);
    let length: number;
    try {
      length = fromCb58(text).length;
    } catch {
      throw new ParamsShapeError(`${name}: "${text}" is not a cb58 string with a valid checksum`);
    }
    if (length !== 32)
      throw new ParamsShapeError(
        `${name}: "${text}" is not a 32-byte cb58 ID (it decodes to ${length} bytes)`,
      );
    return text;
  }

  boolean(name: string, fallback = false): boolean {
    const v = this.get(name);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw expected(name, 'a boolean', v);
    return v;
  }

  object(name: string): Params | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw expected(name, 'an object', v);
    return new Params(v, this.call);
  }
}

/**
 * Raised when params do not decode into the method's argument type. The message starts with the
 * reference node's words (clients match on them) and, unlike the reference, names what was wrong.
 */
export class ParamsShapeError extends Error {
  override readonly name = 'ParamsShapeError';
  constructor(detail?: string) {
    super(
      "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls" +
        (detail ? ` (${detail})` : ''),
    );
  }
}

/**
 * `""` where an `ids.ID` is due. Go's decoder hands it to cb58, whose base58 decoder refuses a
 * zero-length string, so the reference answers an unmarshal error; it is not the empty id (only
 * a missing or null member is).
 */
export function emptyIdError(name: string): ParamsShapeError {
  return new ParamsShapeError(`${name}: base58 decoding error: zero length string`);
}

function expected(name: string, what: string, got: unknown): ParamsShapeError {
  return new ParamsShapeError(`${name}: expected ${what}, got ${describe(got)}`);
}

/** A short rendering of a JSON value for error messages (long values are cut). */
function describe(v: unknown): string {
  return cut(jsonText(v) ?? String(v));
}

/** Long text shortened for an error message. */
function cut(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

type UnsignedBits = 64 | 32 | 16;

/**
 * A utils/json UintN, which hands what the client wrote (a string without its quotes) to
 * strconv.ParseUint: decimal digits only, so `1e3`, `1.0`, `-0`, `+1` and `""` are refused
 * whatever their value, and every uint64 is exact. A JSON number is judged by `literal`, the
 * text the client sent; without one (a value built in code) by its JavaScript value. The detail
 * is strconv's own error (the reference drops it for its fixed unmarshal message); a value of
 * another JSON type is named as such.
 */
export function parseUnsigned(v: unknown, name: string, bits: UnsignedBits, literal?: string): bigint {
  if (typeof v !== 'string' && typeof v !== 'number')
    throw expected(name, `an unsigned ${bits}-bit integer (a JSON number or a decimal string)`, v);
  const text = typeof v === 'string' ? v : (literal ?? numberText(v));
  const digits = /^[0-9]*/.exec(text)![0];
  // strconv stops at the first digit past the limit, before it would meet a stray character;
  // leading zeros count for nothing, and more than 20 digits are past any uint64.
  const significant = digits.replace(/^0+/, '');
  if (significant.length > 20 || (significant !== '' && BigInt(significant) >= 1n << BigInt(bits)))
    throw parseUintError(name, text, 'value out of range');
  if (digits === '' || digits.length !== text.length) throw parseUintError(name, text, 'invalid syntax');
  return BigInt(digits);
}

/** A JavaScript number as a Go client would have written it: integers with every digit, -0 signed. */
function numberText(v: number): string {
  if (Object.is(v, -0)) return '-0';
  return Number.isInteger(v) ? BigInt(v).toString() : String(v);
}

function parseUintError(name: string, text: string, reason: string): ParamsShapeError {
  return new ParamsShapeError(`${name}: strconv.ParseUint: parsing ${JSON.stringify(cut(text))}: ${reason}`);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
