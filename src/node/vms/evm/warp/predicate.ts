/**
 * Warp messages as they travel in a transaction: a signed message packed into the storage keys
 * of an access-list entry for the Warp precompile (the reference predicate encoding: the bytes,
 * a 0xff delimiter, zero padding to a multiple of 32), the signed-message layout (unsigned
 * message, BitSetSignature type 0, signers bitset, 96-byte signature) and the AddressedCall and
 * Hash payloads.
 */
import { parseUnsignedMessage, type UnsignedMessage } from '../../../warp/unsigned-message.js';

export class PredicateError extends Error {}

const DELIMITER = 0xff;

export function packPredicate(bytes: Uint8Array): Uint8Array[] {
  const total = Math.ceil((bytes.length + 1) / 32) * 32;
  const out = new Uint8Array(total);
  out.set(bytes);
  out[bytes.length] = DELIMITER;
  const keys: Uint8Array[] = [];
  for (let i = 0; i < total; i += 32) keys.push(out.slice(i, i + 32));
  return keys;
}

export function unpackPredicate(keys: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(keys.length * 32);
  keys.forEach((k, i) => {
    if (k.length !== 32) throw new PredicateError('predicate storage key is not 32 bytes');
    joined.set(k, i * 32);
  });
  let end = joined.length;
  while (end > 0 && joined[end - 1] === 0) end--;
  if (end === 0) throw new PredicateError('predicate is empty');
  if (joined[end - 1] !== DELIMITER) throw new PredicateError('predicate is missing its delimiter');
  if (joined.length - end >= 32) throw new PredicateError('predicate has excess padding');
  return joined.slice(0, end - 1);
}

export interface SignedWarpMessage {
  readonly unsigned: UnsignedMessage;
  readonly signers: Uint8Array;
  readonly signature: Uint8Array;
}

export function parseSignedMessage(bytes: Uint8Array): SignedWarpMessage {
  if (bytes.length < 42) throw new PredicateError('signed warp message too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unsignedLength = 42 + view.getUint32(38);
  if (bytes.length < unsignedLength + 8 + 96) throw new PredicateError('signed warp message too short');
  let unsigned: UnsignedMessage;
  try {
    unsigned = parseUnsignedMessage(bytes.slice(0, unsignedLength));
  } catch (err) {
    throw new PredicateError((err as Error).message);
  }
  const typeID = view.getUint32(unsignedLength);
  if (typeID !== 0) throw new PredicateError(`unknown signature type ${typeID}`);
  const signersLength = view.getUint32(unsignedLength + 4);
  const start = unsignedLength + 8;
  if (bytes.length !== start + signersLength + 96)
    throw new PredicateError('signed warp message length does not match its signature');
  return {
    unsigned,
    signers: bytes.slice(start, start + signersLength),
    signature: bytes.slice(start + signersLength),
  };
}

export function encodeSignedMessage(
  unsigned: Uint8Array,
  signers: Uint8Array,
  signature: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(unsigned.length + 8 + signers.length + 96);
  const view = new DataView(out.buffer);
  out.set(unsigned);
  view.setUint32(unsigned.length, 0);
  view.setUint32(unsigned.length + 4, signers.length);
  out.set(signers, unsigned.length + 8);
  out.set(signature, unsigned.length + 8 + signers.length);
  return out;
}

export interface AddressedCall {
  readonly sourceAddress: Uint8Array;
  readonly payload: Uint8Array;
}

export function encodeAddressedCall(sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(14 + sourceAddress.length + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(2, 1);
  view.setUint32(6, sourceAddress.length);
  out.set(sourceAddress, 10);
  view.setUint32(10 + sourceAddress.length, payload.length);
  out.set(payload, 14 + sourceAddress.length);
  return out;
}

/** The AddressedCall in a payload, or undefined for another payload type. */
export function parseAddressedCall(payload: Uint8Array): AddressedCall | undefined {
  if (payload.length < 14) return undefined;
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (view.getUint16(0) !== 0 || view.getUint32(2) !== 1) return undefined;
  const addrLength = view.getUint32(6);
  if (10 + addrLength + 4 > payload.length) return undefined;
  const dataLength = view.getUint32(10 + addrLength);
  if (14 + addrLength + dataLength !== payload.length) return undefined;
  return {
    sourceAddress: payload.slice(10, 10 + addrLength),
    payload: payload.slice(14 + addrLength),
  };
}
