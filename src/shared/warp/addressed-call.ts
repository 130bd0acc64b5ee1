/**
 * The AddressedCall a Warp message carries — what an L1's validator manager sends the P-chain
 * (RegisterL1ValidatorMessage, L1ValidatorWeightMessage) — read from the message's unsigned
 * part, which is also the prefix of a signed message. Shared by the aggregator (which asks the
 * P-chain's signatures) and the data indexer (which follows L1 validators).
 */
import { ByteReader } from '../byte-reader.js';

export interface AddressedCall {
  sourceChainId: Uint8Array;
  sourceAddress: Uint8Array;
  payload: Uint8Array;
}

/** Codec ids of the ACP-77 messages an AddressedCall's payload holds. */
export const ACP77_TYPE = { registerL1Validator: 1, l1ValidatorWeight: 3 } as const;

/**
 * The AddressedCall of a Warp message (signed or not). `fail` builds the caller's own error for
 * malformed bytes; `notAddressedCall` the one for a payload of another kind.
 */
export function readAddressedCall(
  warp: Uint8Array,
  fail: (what: string) => Error,
  notAddressedCall: () => Error = () => fail('no AddressedCall payload'),
): AddressedCall {
  const r = new ByteReader(warp, fail);
  r.take(2); // codec version
  r.take(4); // network id
  const sourceChainId = r.take(32);
  const call = new ByteReader(r.sized(), fail);
  call.take(2);
  if (call.u32() !== 1) throw notAddressedCall();
  const sourceAddress = call.sized();
  return { sourceChainId, sourceAddress, payload: call.sized() };
}

/** The codec type id of an AddressedCall payload (its bytes 2–6), undefined if too short. */
export function payloadType(payload: Uint8Array): number | undefined {
  return payload.length >= 6 ? Buffer.from(payload).readUInt32BE(2) : undefined;
}
