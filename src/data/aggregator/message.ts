/**
 * What the aggregation endpoint accepts as `message`: the unsigned Warp message bytes, or the
 * ABI-encoded data of a `SendWarpMessage` log (offset, length, bytes) as the reference
 * aggregator also accepts; and the signed message it returns.
 */
import { InvalidParameterError } from '../internal/errors.js';

export interface UnsignedWarpMessage {
  readonly bytes: Uint8Array;
  readonly networkID: number;
  readonly sourceChainID: Uint8Array;
  readonly payload: Uint8Array;
}

export function decodeHex(text: string, field: string): Uint8Array {
  const body = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) {
    throw new InvalidParameterError(`${field} must be hex`);
  }
  return Uint8Array.from(Buffer.from(body, 'hex'));
}

function tryParseUnsigned(bytes: Uint8Array): UnsignedWarpMessage | undefined {
  if (bytes.length < 42) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint16(0) !== 0) return undefined;
  if (42 + view.getUint32(38) !== bytes.length) return undefined;
  return {
    bytes,
    networkID: view.getUint32(2),
    sourceChainID: bytes.slice(6, 38),
    payload: bytes.slice(42),
  };
}

/** ABI `bytes`: a 32-byte offset (0x20), a 32-byte length, then the data padded to 32 bytes. */
function tryUnwrapAbiBytes(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 64 || bytes.length % 32 !== 0) return undefined;
  const word = (at: number) => BigInt('0x' + Buffer.from(bytes.subarray(at, at + 32)).toString('hex'));
  const offset = word(0);
  if (offset !== 32n) return undefined;
  const length = Number(word(32));
  if (64 + length > bytes.length) return undefined;
  return bytes.slice(64, 64 + length);
}

export function parseWarpMessage(bytes: Uint8Array): UnsignedWarpMessage {
  const abi = tryUnwrapAbiBytes(bytes);
  const parsed = (abi && tryParseUnsigned(abi)) ?? tryParseUnsigned(bytes);
  if (!parsed)
    throw new InvalidParameterError('message is not an unsigned warp message (nor the ABI data of one)');
  return parsed;
}

/** unsigned ‖ typeID 0 (BitSetSignature) ‖ u32 len ‖ signers ‖ signature(96). */
export function encodeSignedMessage(
  unsigned: Uint8Array,
  signers: Uint8Array,
  signature: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(unsigned.length + 4 + 4 + signers.length + signature.length);
  const view = new DataView(out.buffer);
  out.set(unsigned, 0);
  let at = unsigned.length;
  view.setUint32(at, 0);
  at += 4;
  view.setUint32(at, signers.length);
  at += 4;
  out.set(signers, at);
  at += signers.length;
  out.set(signature, at);
  return out;
}
