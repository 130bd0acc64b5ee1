/**
 * The X-chain's binary codec, through avalanchejs's AVM codec manager. Parsing is strict: the
 * bytes must use codec version 0 and must be exactly what the codec would write for the decoded
 * object (no trailing bytes, no non-canonical encodings), as the reference's codec requires.
 */
import { avaxSerial, avmSerial, Utxo } from '@avalabs/avalanchejs';
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

/** A signed X-chain tx from its bytes; throws CodecError for anything the codec would refuse. */
export function parseSignedTx(bytes: Uint8Array): avaxSerial.SignedTx {
  checkVersion(bytes);
  let tx: avaxSerial.SignedTx;
  let rest: Uint8Array;
  try {
    [tx, rest] = avaxSerial.SignedTx.fromBytes(bytes.subarray(2), avmCodec);
  } catch (err) {
    throw new CodecError(describe(err));
  }
  if (rest.length !== 0) throw new CodecError(`${rest.length} unexpected trailing bytes`);
  let again: Uint8Array;
  try {
    again = tx.toBytes();
  } catch (err) {
    throw new CodecError(describe(err));
  }
  if (Buffer.compare(Buffer.from(again), Buffer.from(bytes)) !== 0)
    throw new CodecError('non-canonical encoding');
  return tx;
}

/** The bytes signatures commit to: the unsigned tx packed with its codec version and type id. */
export function unsignedBytesOf(tx: avaxSerial.SignedTx): Uint8Array {
  return withVersion(avmCodec.PackPrefix(tx.unsignedTx));
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
