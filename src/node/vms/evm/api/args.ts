/**
 * Positional-argument parsing with geth's -32602 messages (`invalid argument N: …`,
 * `missing value for required argument N`, `too many arguments, want at most N`).
 */
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import { numberLiteral } from '../../../rpc/json-literals.js';
import { jsonText } from '../../../rpc/json-text.js';

export function bad(index: number, message: string): never {
  throw new RpcError(RpcCode.invalidParams, `invalid argument ${index}: ${message}`);
}

/** The word Go's encoding/json uses for a JSON value in its `cannot unmarshal <kind> into …` errors. */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v; // 'number' | 'string'
}

/** The Go integer types arguments and trace configs decode JSON numbers into. */
export type GoInteger = 'int' | 'uint64';

const GO_INTEGER_RANGE: Record<GoInteger, readonly [bigint, bigint]> = {
  int: [-(1n << 63n), (1n << 63n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
};

/**
 * The literal of the JSON number at `container[key]`, as the client wrote it (`within`: the
 * params holding `container`). A value built in code has none: its JavaScript text stands in.
 */
export function jsonNumberText(container: object, key: string | number, within?: object): string {
  return numberLiteral(container, key, within) ?? String((container as Record<string, unknown>)[key]);
}

/**
 * A JSON number's literal as encoding/json stores it in a Go integer: strconv.ParseInt (or
 * ParseUint, which takes no sign, not even `-0`) of the digits as sent, so no fraction or
 * exponent; undefined when Go refuses it (it then names `number <literal>`).
 */
export function goIntegerOf(literal: string, type: GoInteger): bigint | undefined {
  if (!(type === 'int' ? /^-?[0-9]+$/ : /^[0-9]+$/).test(literal)) return undefined;
  const value = BigInt(literal);
  const [min, max] = GO_INTEGER_RANGE[type];
  return value < min || value > max ? undefined : value;
}

/** A Go integer argument as encoding/json reads it (null leaves the zero value). */
export function goInteger(params: unknown[], i: number, type: GoInteger): bigint {
  const v = params[i];
  if (v === null || v === undefined) return 0n;
  const into = `into Go value of type ${type}`;
  if (typeof v !== 'number') bad(i, `json: cannot unmarshal ${jsonKind(v)} ${into}`);
  const literal = jsonNumberText(params, i);
  const value = goIntegerOf(literal, type);
  if (value === undefined) bad(i, `json: cannot unmarshal number ${literal} ${into}`);
  return value;
}

/**
 * A Go []float64 argument (eth_feeHistory's reward percentiles) as encoding/json reads it: null
 * is the nil slice and a null element 0; a literal past float64 (`1e400`, which JSON.parse makes
 * Infinity) fails as ParseFloat's overflow does, quoted as sent; of several bad elements, Go
 * names the first.
 */
export function float64s(params: unknown[], i: number): number[] {
  const v = params[i];
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) bad(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type []float64`);
  const into = 'into Go value of type float64';
  return v.map((item: unknown, at) => {
    if (item === null) return 0;
    if (typeof item !== 'number') bad(i, `json: cannot unmarshal ${jsonKind(item)} ${into}`);
    if (!Number.isFinite(item))
      bad(i, `json: cannot unmarshal number ${jsonNumberText(v, at, params)} ${into}`);
    return item;
  });
}

/**
 * geth's own count check (parsePositionalArguments): too many arguments, or fewer than
 * `required`. A JSON null counts as given: geth decodes it into the argument's Go type, where it
 * is the zero value of a plain value or struct, nil for a pointer, and whatever the type's
 * UnmarshalJSON makes of `null` (for hashes, addresses, bytes and quantities, `cannot unmarshal
 * non-string`), so it never is a missing value. Each decoder below reads null that way.
 */
export function arity(params: unknown[], max: number, required = 0): void {
  if (params.length > max)
    throw new RpcError(RpcCode.invalidParams, `too many arguments, want at most ${max}`);
  if (params.length < required)
    throw new RpcError(RpcCode.invalidParams, `missing value for required argument ${params.length}`);
}

const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
const HEX_QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;

export function data(params: unknown[], i: number, length?: number): Uint8Array {
  const v = params[i];
  if (typeof v !== 'string') bad(i, 'json: cannot unmarshal non-string into Go value of type hexutil.Bytes');
  if (!v.startsWith('0x'))
    bad(i, 'json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes');
  if (!HEX_DATA.test(v))
    bad(i, 'json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes');
  const out = Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
  if (length !== undefined && out.length !== length)
    bad(i, `hex string has length ${out.length * 2}, want ${length * 2}`);
  return out;
}

export function dataValue(v: unknown, i: number, field: string, length?: number): Uint8Array {
  if (typeof v !== 'string' || !HEX_DATA.test(v)) bad(i, `invalid hex data for ${field}`);
  const out = Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
  if (length !== undefined && out.length !== length) bad(i, `${field} must be ${length} bytes`);
  return out;
}

/**
 * A hex quantity as geth decodes it: `bits` 256 for a hexutil.Big (values, prices, balances),
 * 64 for a hexutil.Uint64 (gas, nonces, times); a wider number is refused as geth refuses it
 * (`hex number > 256 bits`) rather than carried into the engine; `unbounded` for a caller that
 * words its own refusal (block numbers).
 */
export function quantityValue(
  v: unknown,
  i: number,
  field = 'quantity',
  bits: 64 | 256 | 'unbounded' = 256,
): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v !== 'string')
    bad(i, `json: cannot unmarshal non-string into Go value of type hexutil.Big (${field})`);
  if (!v.startsWith('0x'))
    bad(
      i,
      `json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Big (${field})`,
    );
  if (v.length > 2 && v[2] === '0' && v.length > 3)
    bad(i, `json: cannot unmarshal hex number with leading zero digits (${field})`);
  if (!HEX_QUANTITY.test(v))
    bad(i, `json: cannot unmarshal invalid hex string into Go value of type hexutil.Big (${field})`);
  const value = BigInt(v);
  if (bits !== 'unbounded' && value >> BigInt(bits) !== 0n) {
    const type = bits === 64 ? 'hexutil.Uint64' : 'hexutil.Big';
    bad(i, `json: cannot unmarshal hex number > ${bits} bits into Go value of type ${type} (${field})`);
  }
  return value;
}

/**
 * A math.HexOrDecimal64 (eth_feeHistory's blockCount) as its UnmarshalJSON reads the raw JSON: a
 * string's text or a number's digits, decimal or (after 0x or 0X) hex, leading zeros allowed, the
 * empty string zero. Any other value (null, a bool, a negative or fractional number) is refused
 * with its JSON text, as Go quotes it.
 */
export function hexOrDecimal64(params: unknown[], i: number): bigint {
  const v = params[i];
  // A number is read from its literal, as Go reads the raw JSON.
  const text = typeof v === 'string' ? v : typeof v === 'number' ? jsonNumberText(params, i) : jsonText(v);
  let value: bigint | undefined;
  if (text === '') value = 0n;
  else if (/^0[xX][0-9a-fA-F]+$/.test(text)) value = BigInt('0x' + text.slice(2));
  else if (/^[0-9]+$/.test(text)) value = BigInt(text);
  // JSON.stringify quotes as Go's %q does for printable text.
  if (value === undefined || value >> 64n !== 0n)
    bad(i, `invalid hex or decimal integer ${JSON.stringify(text)}`);
  return value;
}

export function quantity(params: unknown[], i: number): bigint {
  return quantityValue(params[i], i);
}

/**
 * A fixed-size hex value (common.Address, common.Hash) as hexutil.UnmarshalFixedJSON reads it:
 * not a string (a JSON null too) is `non-string`; then the prefix, an odd length, the length
 * (its words unwrapped), the digits.
 */
function fixedHex(v: unknown, i: number, bytes: number, goType: string): Uint8Array {
  const into = `into Go value of type ${goType}`;
  if (typeof v !== 'string') bad(i, `json: cannot unmarshal non-string ${into}`);
  let digits = v;
  if (v !== '') {
    if (!/^0[xX]/.test(v)) bad(i, `json: cannot unmarshal hex string without 0x prefix ${into}`);
    digits = v.slice(2);
    if (digits.length % 2) bad(i, `json: cannot unmarshal hex string of odd length ${into}`);
  }
  if (digits.length !== bytes * 2)
    bad(i, `hex string has length ${digits.length}, want ${bytes * 2} for ${goType}`);
  if (!/^[0-9a-fA-F]*$/.test(digits)) bad(i, `json: cannot unmarshal invalid hex string ${into}`);
  return Uint8Array.from(Buffer.from(digits, 'hex'));
}

/** A common.Address argument. */
export function address(params: unknown[], i: number): Uint8Array {
  return fixedHex(params[i], i, 20, 'common.Address');
}

/** A common.Hash argument (a block or transaction hash). */
export function hash(params: unknown[], i: number): Uint8Array {
  return fixedHex(params[i], i, 32, 'common.Hash');
}

/**
 * A hexutil.Uint argument (a transaction or uncle index): a 0x-prefixed hex string, no JSON
 * number, at most 64 bits.
 */
export function uintIndex(params: unknown[], i: number): bigint {
  const v = params[i];
  const into = 'into Go value of type hexutil.Uint';
  if (typeof v !== 'string') bad(i, `json: cannot unmarshal non-string ${into}`);
  const refuse = (what: string): never => bad(i, `json: cannot unmarshal ${what} ${into}`);
  if (v === '') refuse('empty hex string');
  if (!/^0[xX]/.test(v)) refuse('hex string without 0x prefix');
  const digits = v.slice(2);
  if (digits === '') refuse('hex string "0x"');
  if (digits.length > 1 && digits[0] === '0') refuse('hex number with leading zero digits');
  if (digits.length > 16) refuse('hex number > 64 bits');
  if (!/^[0-9a-fA-F]+$/.test(digits)) refuse('invalid hex string');
  return BigInt('0x' + digits);
}

export function addressValue(v: unknown, i: number, field: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) bad(i, `invalid address for ${field}`);
  return Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
}

export function bool(params: unknown[], i: number, fallback = false): boolean {
  const v = params[i];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') bad(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type bool`);
  return v;
}

/**
 * A block number written as a string, read as coreth's BlockNumber reads it: with
 * hexutil.DecodeUint64, whose errors come through bare (not as encoding/json's `cannot
 * unmarshal … into Go value of type …`, which a hexutil.Big field would give).
 */
function blockNumberText(v: string, i: number): bigint {
  if (v === '') bad(i, 'empty hex string');
  if (!v.startsWith('0x') && !v.startsWith('0X')) bad(i, 'hex string without 0x prefix');
  const digits = v.slice(2);
  if (digits === '') bad(i, 'hex string "0x"');
  if (digits.length > 1 && digits[0] === '0') bad(i, 'hex number with leading zero digits');
  if (!/^[0-9a-fA-F]+$/.test(digits)) bad(i, 'invalid hex string');
  const number = BigInt('0x' + digits);
  if (number >= 1n << 64n) bad(i, 'hex number > 64 bits');
  return number;
}

export type BlockRef =
  { kind: 'tag'; tag: string } | { kind: 'number'; number: bigint } | { kind: 'hash'; hash: Uint8Array };

/** What an rpc.BlockNumber can name: a tag or a number, never a hash. */
export type BlockNumberRef = Exclude<BlockRef, { kind: 'hash' }>;

const BLOCK_TAGS = ['latest', 'pending', 'safe', 'finalized', 'earliest', 'accepted'];

/**
 * A block parameter read as coreth's rpc.BlockNumber (eth_getBlockByNumber, eth_feeHistory,
 * debug_traceBlockByNumber …): a tag or a number, never a hash. Its UnmarshalJSON hands any other
 * JSON value, unquoted, to hexutil.DecodeUint64, so a number, bool, array or object is a hex
 * string without 0x prefix, and a block hash a number too wide.
 */
export function blockNumberValue(v: unknown, i: number): BlockNumberRef {
  if (typeof v !== 'string') bad(i, 'hex string without 0x prefix');
  if (BLOCK_TAGS.includes(v)) return { kind: 'tag', tag: v };
  const number = blockNumberText(v, i);
  // A uint64 that also fits an int64 (negative numbers are its tags).
  if (number >= 1n << 63n) bad(i, 'block number larger than int64');
  return { kind: 'number', number };
}

/**
 * A required rpc.BlockNumber argument. A JSON null is no default: encoding/json hands it to the
 * type's UnmarshalJSON, which reads `null` as hex text without a 0x prefix.
 */
export function blockNumberRef(params: unknown[], i: number): BlockNumberRef {
  return blockNumberValue(params[i], i);
}

/**
 * A required block parameter read as coreth's rpc.BlockNumberOrHash (eth_getBalance, eth_getCode,
 * eth_callDetailed, debug_traceCall …; see optionalBlockRef for the pointer ones). Its UnmarshalJSON first tries the EIP-1898 object, then a Go
 * string, so any other JSON value fails as a string would (`json: cannot unmarshal number into Go
 * value of type string`), and so does an object with a field that does not decode; a 66-character
 * string is a hash; a number past int64 is `blocknumber too high` (not rpc.BlockNumber's words).
 */
export function blockRef(params: unknown[], i: number): BlockRef {
  return blockRefOrNeither(params, i) ?? neitherBlockNorHash();
}

/** coreth's refusal of a BlockNumberOrHash that names neither (a JSON null, or `{}`). */
export function neitherBlockNorHash(): never {
  throw new RpcError(RpcCode.server, 'invalid arguments; neither block nor hash specified');
}

/**
 * A required rpc.BlockNumberOrHash, undefined when it names neither a block nor a hash, for the
 * methods that answer that case otherwise than with coreth's usual refusal. A JSON null is such
 * a value, not a missing one: encoding/json gives it to UnmarshalJSON, which decodes it as an
 * empty object.
 */
export function blockRefOrNeither(params: unknown[], i: number): BlockRef | undefined {
  const v = params[i];
  if (v === undefined) throw new RpcError(RpcCode.invalidParams, `missing value for required argument ${i}`);
  if (v === null) return undefined;
  if (typeof v === 'string') return blockRefText(v, i);
  if (typeof v === 'object' && !Array.isArray(v)) return blockRefObject(v as Record<string, unknown>, i);
  bad(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
}

/**
 * An optional *rpc.BlockNumberOrHash (eth_call, eth_estimateGas, eth_createAccessList,
 * eth_feeConfig): absent or a JSON null (which encoding/json stores as a nil pointer) is `latest`.
 */
export function optionalBlockRef(params: unknown[], i: number): BlockRef {
  return params[i] === undefined || params[i] === null ? { kind: 'tag', tag: 'latest' } : blockRef(params, i);
}

function blockRefText(v: string, i: number): BlockRef {
  if (BLOCK_TAGS.includes(v)) return { kind: 'tag', tag: v };
  if (v.length === 66) {
    // common.Hash's UnmarshalText: hexutil's bare errors, either case of the prefix.
    if (!/^0[xX]/.test(v)) bad(i, 'hex string without 0x prefix');
    if (!/^[0-9a-fA-F]{64}$/.test(v.slice(2))) bad(i, 'invalid hex string');
    return { kind: 'hash', hash: Uint8Array.from(Buffer.from(v.slice(2), 'hex')) };
  }
  const number = blockNumberText(v, i);
  if (number >= 1n << 63n) bad(i, 'blocknumber too high');
  return { kind: 'number', number };
}

/** encoding/json matches a struct field's name exactly or, failing that, ignoring case. */
function goField(o: Record<string, unknown>, name: string): unknown {
  if (name in o) return o[name];
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

/**
 * The EIP-1898 object (every accepted block is canonical, so requireCanonical never refuses one).
 * A field that does not decode sends coreth on to its string attempt, which fails on an object;
 * one with neither field is undefined.
 */
function blockRefObject(o: Record<string, unknown>, i: number): BlockRef | undefined {
  function notDecoded(): never {
    bad(i, 'json: cannot unmarshal object into Go value of type string');
  }
  const blockNumber = goField(o, 'blockNumber');
  const blockHash = goField(o, 'blockHash');
  const requireCanonical = goField(o, 'requireCanonical');
  if (requireCanonical != null && typeof requireCanonical !== 'boolean') notDecoded();
  let number: BlockNumberRef | undefined;
  if (blockNumber != null) {
    try {
      number = blockNumberValue(blockNumber, i);
    } catch {
      notDecoded();
    }
  }
  let hash: Uint8Array | undefined;
  if (blockHash != null) {
    if (typeof blockHash !== 'string' || !/^0[xX][0-9a-fA-F]{64}$/.test(blockHash)) notDecoded();
    hash = Uint8Array.from(Buffer.from(blockHash.slice(2), 'hex'));
  }
  if (number && hash) bad(i, 'cannot specify both BlockHash and BlockNumber, choose one or the other');
  if (hash) return { kind: 'hash', hash };
  return number;
}
