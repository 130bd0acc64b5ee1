/**
 * The secp256k1 feature extension's spend rule, shared by every UTXO chain: an input may spend
 * an output owned by (addresses, threshold, locktime) when the locktime has passed and its
 * credential holds one signature per signature index, each recovering to the indexed address.
 * Signatures are 65 bytes r‖s‖v over sha256(unsigned tx bytes); recovery uses the native
 * secp256k1 binding (about 75 µs per signature here, ~10x the pure-JS one).
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import secp from 'secp256k1';

/** The fx's well-known id, as JSON answers show it (`fxID`). */
export const SECP256K1_FX_ID = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ';

export class FxError extends Error {
  override readonly name = 'FxError';
}

export interface Owners {
  readonly addresses: readonly Uint8Array[];
  readonly threshold: number;
  readonly locktime: bigint;
}

/** secp256k1 group order / 2: signatures with a higher s are malleable and refused. */
const HALF_ORDER = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');

/** The short address that signed `hash`, or an FxError for a malformed signature. */
export function recoverSigner(hash: Uint8Array, signature: Uint8Array): Uint8Array {
  if (signature.length !== 65) throw new FxError(`invalid signature length ${signature.length}, expected 65`);
  const s = BigInt('0x' + Buffer.from(signature.subarray(32, 64)).toString('hex'));
  if (s > HALF_ORDER) throw new FxError('signature s value is not in the lower half of the order');
  const recid = signature[64];
  if (recid > 3) throw new FxError(`invalid signature recovery id ${recid}`);
  let publicKey: Uint8Array;
  try {
    publicKey = secp.ecdsaRecover(signature.subarray(0, 64), recid, hash, true);
  } catch {
    throw new FxError('invalid signature: public key recovery failed');
  }
  return ripemd160(sha256(publicKey));
}

/**
 * Checks that `signatures` (in `sigIndices` order) authorise spending an output owned by
 * `owners` at time `now` (Unix seconds). Throws FxError naming the first broken rule.
 */
export function verifySpend(
  owners: Owners,
  sigIndices: readonly number[],
  signatures: readonly Uint8Array[],
  txHash: Uint8Array,
  now: bigint,
): void {
  if (owners.locktime > now) throw new FxError(`output is locked until ${owners.locktime}, now is ${now}`);
  if (sigIndices.length !== owners.threshold) {
    throw new FxError(
      `input has ${sigIndices.length} signature indices but the output needs ${owners.threshold}`,
    );
  }
  if (signatures.length !== sigIndices.length) {
    throw new FxError(
      `credential has ${signatures.length} signatures but the input has ${sigIndices.length} signature indices`,
    );
  }
  for (let i = 0; i < sigIndices.length; i++) {
    if (i > 0 && sigIndices[i] <= sigIndices[i - 1])
      throw new FxError('signature indices are not sorted and unique');
    const index = sigIndices[i];
    if (index >= owners.addresses.length) throw new FxError(`signature index ${index} is out of range`);
    const signer = recoverSigner(txHash, signatures[i]);
    if (!Buffer.from(signer).equals(Buffer.from(owners.addresses[index]))) {
      throw new FxError(`signature ${i} is not from the output's address at index ${index}`);
    }
  }
}

/** Owners of an output that carry no spend right yet (threshold 0 outputs are unspendable burns). */
export function checkOwnersWellFormed(owners: Owners): void {
  if (owners.threshold > owners.addresses.length) {
    throw new FxError(
      `output threshold ${owners.threshold} exceeds its ${owners.addresses.length} addresses`,
    );
  }
  if (owners.threshold === 0 && owners.addresses.length > 0)
    throw new FxError('output has addresses but threshold 0');
  for (let i = 1; i < owners.addresses.length; i++) {
    if (Buffer.compare(Buffer.from(owners.addresses[i - 1]), Buffer.from(owners.addresses[i])) >= 0) {
      throw new FxError('output addresses are not sorted and unique');
    }
  }
}
