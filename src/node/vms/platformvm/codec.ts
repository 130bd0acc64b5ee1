/**
 * The P-chain's view of the avalanchejs PVM codec: parsing signed transactions strictly (the bytes
 * must re-encode identically, so a transaction has exactly one id), packing UTXOs and owners, and
 * reading the secp256k1fx pieces the verifier needs as plain values.
 */
import {
  avaxSerial,
  BigIntPr,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  pvmSerial,
  TransferOutput,
  Utxo,
  utils,
  type Common,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Owners } from '../components/secp256k1fx.js';
import { readSimpleTx } from './txs/simple-tx-reader.js';

// Decoding reads a proof of possession without checking it; the executor verifies it (see there).
export { uncheckedProofOfPossession } from '../../../shared/pvm-proof-of-possession.js';

export const pvmManager = utils.getManagerForVM('PVM');
export const pvmCodec = pvmManager.getDefaultCodec();

export type UnsignedPvmTx = Common.Transaction;

export interface ParsedTx {
  readonly id: Uint8Array;
  /** Signed bytes, codec version included. */
  readonly bytes: Uint8Array;
  readonly unsigned: UnsignedPvmTx;
  /** Unsigned bytes, codec version included (what signatures cover, hashed). */
  readonly unsignedBytes: Uint8Array;
  readonly credentials: readonly Uint8Array[][];
}

export class TxParseError extends Error {
  override readonly name = 'TxParseError';
}

/**
 * Parses a signed P-chain transaction; refuses trailing or non-canonical bytes. The common wallet
 * txs (secp256k1 Base/Import/Export) are read directly (txs/simple-tx-reader.ts); everything
 * else, malformed bytes included, goes through avalanchejs as below.
 */
export function parseSignedTx(bytes: Uint8Array): ParsedTx {
  return readSimpleTx(bytes) ?? parseSignedTxGeneric(bytes);
}

/**
 * Parses a signed P-chain transaction with avalanchejs's generic decoder. The canonical
 * check encodes the tx once, in the two parts `SignedTx.toBytes` joins (the unsigned tx, then the
 * credentials), so the unsigned part is also the unsigned bytes signatures cover: encoding the
 * whole tx and then the unsigned tx again cost a second walk of every input and output.
 */
export function parseSignedTxGeneric(bytes: Uint8Array): ParsedTx {
  let signed: avaxSerial.SignedTx;
  try {
    signed = pvmManager.unpack(bytes, avaxSerial.SignedTx);
  } catch (err) {
    throw new TxParseError(`couldn't parse tx: ${err instanceof Error ? err.message : String(err)}`);
  }
  const unsigned = signed.unsignedTx;
  let unsignedBody: Uint8Array;
  let credentialBytes: Uint8Array;
  try {
    // The codec SignedTx.toBytes picks: the tx's VM's (it throws `unknown VM` for a decoded
    // value that is no tx, as toBytes did).
    const codec = utils.getManagerForVM(unsigned.vm).getDefaultCodec();
    unsignedBody = codec.PackPrefix(unsigned);
    credentialBytes = codec.PackPrefixList(signed.credentials);
  } catch (err) {
    throw new TxParseError(`couldn't parse tx: ${err instanceof Error ? err.message : String(err)}`);
  }
  const unsignedLength = CODEC_VERSION_BYTES + unsignedBody.length;
  const given = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (
    bytes.length !== unsignedLength + credentialBytes.length ||
    given.readUInt16BE(0) !== DEFAULT_CODEC_VERSION ||
    !given.subarray(CODEC_VERSION_BYTES, unsignedLength).equals(unsignedBody) ||
    !given.subarray(unsignedLength).equals(credentialBytes)
  )
    throw new TxParseError("couldn't parse tx: bytes are not in canonical form or have trailing data");
  const credentials = signed.credentials.map((c) => {
    if (!(c instanceof Credential)) throw new TxParseError('credential is not a secp256k1fx credential');
    return signaturesOf(c);
  });
  return {
    id: sha256(bytes),
    bytes,
    unsigned,
    unsignedBytes: bytes.slice(0, unsignedLength),
    credentials,
  };
}

/** The codec version every signed tx starts with (2 bytes), the only one the PVM codec has. */
const CODEC_VERSION_BYTES = 2;
const DEFAULT_CODEC_VERSION = 0;

/** A credential's 65-byte signatures as bytes (avalanchejs hands them out as hex text). */
function signaturesOf(credential: Credential): Uint8Array[] {
  const signatures = (credential as unknown as { signatures: { toBytes(): Uint8Array }[] }).signatures;
  return signatures.map((s) => new Uint8Array(s.toBytes()));
}

/** Plain owners of an avalanchejs OutputOwners. */
export function ownersOf(owners: OutputOwners): Owners {
  return {
    addresses: owners.addrs.map((a) => a.toBytes()),
    threshold: owners.threshold.value(),
    locktime: owners.locktime.value(),
  };
}

export function outputOwners(owners: Owners): OutputOwners {
  return OutputOwners.fromNative(owners.addresses, owners.locktime, owners.threshold);
}

/** Packs an owners value (codec version + typeID 11 + fields) for storage. */
export function packOwners(owners: OutputOwners): Uint8Array {
  return pvmManager.packCodec(owners);
}

export function unpackOwners(bytes: Uint8Array): OutputOwners {
  const [codec, rest] = pvmManager.getCodecFromBuffer(bytes);
  const [value] = codec.UnpackPrefix<OutputOwners>(rest);
  return value;
}

/** A stored UTXO in its codec form. */
export function makeUtxo(txId: Uint8Array, outputIndex: number, assetId: Uint8Array, output: unknown): Utxo {
  return new Utxo(
    new avaxSerial.UTXOID(new Id(txId), new Int(outputIndex)),
    new Id(assetId),
    output as never,
  );
}

export function transferOutput(amount: bigint, owners: Owners): TransferOutput {
  return new TransferOutput(new BigIntPr(amount), outputOwners(owners));
}

/** Codec version ‖ fields: UTXOs and transferable outputs are structs, not interface values. */
export function packStruct(value: { toBytes(codec: typeof pvmCodec): Uint8Array }): Uint8Array {
  return new Uint8Array(Buffer.concat([Buffer.alloc(2), Buffer.from(value.toBytes(pvmCodec))]));
}

export function packUtxo(utxo: Utxo): Uint8Array {
  return packStruct(utxo);
}

export function unpackUtxo(bytes: Uint8Array): Utxo {
  return pvmManager.unpack(bytes, Utxo);
}

/** sigIndices of a subnet/disable authorisation (`secp256k1fx.Input`). */
export function authIndices(auth: unknown): number[] {
  if (!(auth instanceof Input)) throw new TxParseError('authorisation is not a secp256k1fx input');
  return auth.values();
}

export const StakeableLockOut = pvmSerial.StakeableLockOut;
export const StakeableLockIn = pvmSerial.StakeableLockIn;
