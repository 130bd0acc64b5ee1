/**
 * Reading request params the way the reference node's Go decoder does: object keys match
 * case-insensitively, unknown keys are ignored, and 64-bit integers arrive as numbers or strings.
 */
import { fail } from './errors.js';

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
      throw new ParamsShapeError();
    }
    if (isObject(params)) return new Params(params);
    throw new ParamsShapeError();
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
    if (typeof v !== 'string') throw new ParamsShapeError();
    return v;
  }

  optionalString(name: string): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new ParamsShapeError();
    return v;
  }

  strings(name: string): string[] {
    const v = this.get(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new ParamsShapeError();
    return v as string[];
  }

  /** A uint64 sent as a JSON number or a decimal string. */
  uint64(name: string, fallback?: bigint): bigint {
    const v = this.get(name);
    if (v === undefined || v === null) {
      if (fallback !== undefined) return fallback;
      return 0n;
    }
    return parseUint64(v);
  }

  optionalUint64(name: string): bigint | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return undefined;
    return parseUint64(v);
  }

  boolean(name: string, fallback = false): boolean {
    const v = this.get(name);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw new ParamsShapeError();
    return v;
  }

  object(name: string): Params | undefined {
    const v = this.get(name);
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw new ParamsShapeError();
    return new Params(v);
  }
}

/** Raised when params do not decode into the method's argument type. */
export class ParamsShapeError extends Error {
  override readonly name = 'ParamsShapeError';
  constructor() {
    super(
      "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
    );
  }
}

const MAX_UINT64 = (1n << 64n) - 1n;

export function parseUint64(v: unknown): bigint {
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) throw new ParamsShapeError();
    n = BigInt(v);
  } else if (typeof v === 'string' && /^[0-9]+$/.test(v)) {
    n = BigInt(v);
  } else {
    throw new ParamsShapeError();
  }
  if (n > MAX_UINT64) fail(`value ${n} overflows uint64`);
  return n;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
