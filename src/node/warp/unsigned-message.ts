/**
 * The Warp unsigned message layout: codec version u16 (0), networkID u32, sourceChainID 32 bytes,
 * payload as u32 length + bytes. Signers sign these raw bytes.
 */
import { sha256 } from '@noble/hashes/sha2.js';

export interface UnsignedMessage {
  readonly networkID: number;
  readonly sourceChainID: Uint8Array;
  readonly payload: Uint8Array;
  readonly bytes: Uint8Array;
  /** sha256 of the bytes: the message id. */
  readonly id: Uint8Array;
}

export class WarpMessageError extends Error {
  override readonly name = 'WarpMessageError';
}

export function parseUnsignedMessage(bytes: Uint8Array): UnsignedMessage {
  if (bytes.length < 42) throw new WarpMessageError(`warp message too short: ${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(0);
  if (version !== 0) throw new WarpMessageError(`unknown codec version ${version}`);
  const networkID = view.getUint32(2);
  const sourceChainID = bytes.slice(6, 38);
  const length = view.getUint32(38);
  if (42 + length !== bytes.length)
    throw new WarpMessageError('warp message length does not match its payload');
  return { networkID, sourceChainID, payload: bytes.slice(42), bytes, id: sha256(bytes) };
}

export function encodeUnsignedMessage(
  networkID: number,
  sourceChainID: Uint8Array,
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(42 + payload.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0);
  view.setUint32(2, networkID);
  out.set(sourceChainID, 6);
  view.setUint32(38, payload.length);
  out.set(payload, 42);
  return out;
}
