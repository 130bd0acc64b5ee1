/**
 * The intrinsic gas a Warp predicate adds to its transaction (the reference `PredicateGas`): a
 * flat signature-verification cost, a cost per byte of the packed predicate, and a cost per
 * signer. A predicate that does not unpack, or whose message or payload does not parse, makes the
 * whole transaction invalid — unlike a signature that fails to verify, which only marks the
 * predicate invalid for the contract to see.
 */
import { decodeSigners } from '../../../../shared/warp/index.js';
import { hashPayload } from '../../../warp/accepted-block-rule.js';
import { parseAddressedCall, parseSignedMessage, PredicateError, unpackPredicate } from './predicate.js';

export const GAS_COST_PER_SIGNATURE_VERIFICATION = 200_000n;
export const GAS_COST_PER_WARP_MESSAGE_BYTE = 100n;
export const GAS_COST_PER_WARP_SIGNER = 500n;

export function warpPredicateGas(keys: readonly Uint8Array[]): bigint {
  const packedLength = BigInt(keys.length * 32);
  const message = parseSignedMessage(unpackPredicate(keys));
  const payload = message.unsigned.payload;
  if (!hashPayload(payload) && !parseAddressedCall(payload))
    throw new PredicateError('cannot unpack warp message payload');
  return (
    GAS_COST_PER_SIGNATURE_VERIFICATION +
    GAS_COST_PER_WARP_MESSAGE_BYTE * packedLength +
    GAS_COST_PER_WARP_SIGNER * BigInt(countSigners(message.signers))
  );
}

/** Signers in the bitset; a bitset with leading zero bytes is malformed, as the reference's. */
function countSigners(bits: Uint8Array): number {
  try {
    return decodeSigners(bits).length;
  } catch {
    throw new PredicateError('cannot fetch num signers from warp message');
  }
}
