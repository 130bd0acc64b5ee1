/**
 * The X-chain's binary codec, through avalanchejs's AVM codec manager. Parsing is strict: the
 * bytes must use codec version 0 and must be exactly what the codec would write for the decoded
 * object (no trailing bytes, no non-canonical encodings), as the reference's codec requires.
 */
import { avmSerial, Utxo } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { CODEC_VERSION } from './constants.js';

export const avmManager = avmSerial.getAVMManager();
/** The codec of version 0, the only one the AVM has. */
export const avmCodec = avmManager.getDefaultCodec();

export class CodecError extends Error {
  override readonly name = 'CodecError';
}

const VERSION_PREFIX = new Uint8Array([0, CODEC_VERSION]);

export function withVersion(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + body.length);
  out.set(VERSION_PREFIX, 0);
  out.set(body, 2);
  return out;
}

function checkVersion(bytes: Uint8Array): void {
  if (bytes.length < 2) throw new CodecError("couldn't unpack codec version: not enough bytes");
  const version = (bytes[0] << 8) | bytes[1];
  if (version !== CODEC_VERSION) throw new CodecError(`unknown codec version: ${version}`);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A credential as the codec writes it: its fx's type id and 65-byte signatures. */
export interface RawCredential {
  readonly typeId: number;
  readonly signatures: readonly Uint8Array[];
}

export interface ParsedSignedTx {
  /** The unsigned tx as an avalanchejs object. */
  readonly unsignedTx: { _type: string } & Record<string, any>;
  /** Codec version + type id + fields of the unsigned tx: what signatures commit to. */
  readonly unsignedBytes: Uint8Array;
  readonly credentials: readonly RawCredential[];
}

const SIGNATURE_BYTES = 65;
const CREDENTIAL_TYPE_IDS = new Set([9, 14]);

/**
 * A signed X-chain tx from its bytes; throws CodecError for anything the codec would refuse.
 * Credentials are read here rather than by avalanchejs, whose parser turns an nft credential
 * (type 14) into a secp256k1 one (type 9).
 */
export function parseSignedTx(bytes: Uint8Array): ParsedSignedTx {
  checkVersion(bytes);
  const body = bytes.subarray(2);
  let unsignedTx: ParsedSignedTx['unsignedTx'];
  let rest: Uint8Array;
  try {
    [unsignedTx, rest] = avmCodec.UnpackPrefix(body) as unknown as [ParsedSignedTx['unsignedTx'], Uint8Array];
  } catch (err) {
    throw new CodecError(describe(err));
  }
  const unsignedLength = body.length - rest.length;
  let again: Uint8Array;
  try {
    again = avmCodec.PackPrefix(unsignedTx as any);
  } catch (err) {
    throw new CodecError(describe(err));
  }
  if (Buffer.compare(Buffer.from(again), Buffer.from(body.subarray(0, unsignedLength))) !== 0)
    throw new CodecError('non-canonical encoding');
  return {
    unsignedTx,
    unsignedBytes: bytes.subarray(0, 2 + unsignedLength),
    credentials: readCredentials(rest),
  };
}

export function readCredentials(bytes: Uint8Array): RawCredential[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  const need = (n: number) => {
    if (at + n > view.length) throw new CodecError('not enough bytes for the credentials');
  };
  need(4);
  const count = view.readUInt32BE(at);
  at += 4;
  const out: RawCredential[] = [];
  for (let i = 0; i < count; i++) {
    need(8);
    const typeId = view.readUInt32BE(at);
    if (!CREDENTIAL_TYPE_IDS.has(typeId)) throw new CodecError(`unknown credential type ID ${typeId}`);
    const n = view.readUInt32BE(at + 4);
    at += 8;
    need(n * SIGNATURE_BYTES);
    const signatures: Uint8Array[] = [];
    for (let j = 0; j < n; j++, at += SIGNATURE_BYTES) signatures.push(bytes.slice(at, at + SIGNATURE_BYTES));
    out.push({ typeId, signatures });
  }
  if (at !== view.length) throw new CodecError(`${view.length - at} unexpected trailing bytes`);
  return out;
}

/** A UTXO packed as the reference stores and serves it (codec version included). */
export function packUtxo(utxo: Utxo): Uint8Array {
  return withVersion(utxo.toBytes(avmCodec));
}

export function parseUtxo(bytes: Uint8Array): Utxo {
  checkVersion(bytes);
  try {
    const [utxo] = Utxo.fromBytes(bytes.subarray(2), avmCodec);
    return utxo;
  } catch (err) {
    throw new CodecError(`malformed UTXO: ${describe(err)}`);
  }
}

export function idOf(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}

/**
 * The AVM codec's registered classes by type id. avalanchejs does not export the nft fx classes
 * from its package root, but its AVM codec registers them; this reads them from there.
 */
export function avmClass(typeId: number): any {
  const cls = (avmCodec as unknown as { typeIdToType: unknown[] }).typeIdToType[typeId];
  if (!cls) throw new Error(`type id ${typeId} is not registered in the AVM codec`);
  return cls;
}
