/**
 * Reading request params the way the reference node's Go decoder does: object keys match
 * case-insensitively, unknown keys are ignored, and 64-bit integers arrive as numbers or strings.
 */
import { fromCb58 } from '../../shared/encoding.js';
import { jsonText } from './json-text.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Case-insensitive view over a JSON object. */
export class Params {
  private readonly byLowerKey = new Map<string, unknown>();

  constructor(readonly raw: Record<string, unknown> = {}) {
    for (const [key, value] of Object.entries(raw)) {
      const lower = key.toLowerCase();
      // Go's decoder prefers an exact match, then the first case-insensitive one; JSON objects
      // rarely carry both spellings, so the first wins here.
      if (!this.byLowerKey.has(lower)) this.byLowerKey.set(lower, value);
    }
  }

  /** Normalises every params shape clients send: missing, null, {}, [], [obj]. */
  static from(params: unknown): Params {
    if (params === undefined || params === null) return new Params();
    if (Array.isArray(params)) {
      if (params.length === 0) return new Params();
      if (params.length === 1 && isObject(params[0])) return new Params(params[0]);
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
    return this.byLowerKey.get(name.toLowerCase());
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

  /** A uint64 sent as a JSON number or a decimal string. */
  uint64(name: string, fallback?: bigint): bigint {
    const v = this.get(name);
    if (v === undefined || v === null) {
      if (fallback !== undefined) return fallback;
      return 0n;
    }
    return parseUint64(v, name);
  }

  optionalUint64(name: string): bigint | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return undefined;
    return parseUint64(v, name);
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
    return new Params(v);
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
  const text = jsonText(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const MAX_UINT64 = (1n << 64n) - 1n;

/** A uint64 as a JSON number or a decimal string; `name` labels the error. */
export function parseUint64(v: unknown, name = 'value'): bigint {
  let n: bigint;
  // `-0` is not a uint64 to Go's strconv.ParseUint (JSON.parse keeps its sign, so it can be told).
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && !Object.is(v, -0)) {
    n = BigInt(v);
  } else if (typeof v === 'string' && /^[0-9]+$/.test(v)) {
    n = BigInt(v);
  } else {
    throw expected(name, 'an unsigned 64-bit integer (a JSON number or a decimal string)', v);
  }
  // Go's strconv.ParseUint fails on it while decoding, so it is a params error like any other.
  if (n > MAX_UINT64) throw new ParamsShapeError(`${name}: ${n} overflows uint64`);
  return n;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
