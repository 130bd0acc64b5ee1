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
import { toCb58 } from '../../../shared/encoding.js';

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
/** The secp256k1 group order N. */
const ORDER = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

/**
 * The public key that signed `hash` (33 bytes compressed, or 65 uncompressed), or an FxError for
 * a malformed signature, in the words of the reference's `secp256k1.RecoverPublicKeyFromHash`:
 * the length, a high s (`signature was mutated from its original format`), then decred's
 * `RecoverCompact` with the recovery code v + 27: past 34 (v > 7) or a failed recovery is
 * `invalid signature`, and v 4…7 flag a compressed key, which recovers with v & 3 and is then
 * refused as `wasn't expecting a compressed key`.
 */
export function recoverPublicKey(hash: Uint8Array, signature: Uint8Array, compressed: boolean): Uint8Array {
  if (signature.length !== 65) throw new FxError('invalid signature length');
  // The reference reads s as a scalar mod N (ModNScalar.SetByteSlice) for this check: an s at
  // or past N is no mutation but an overflow, which the recovery below refuses as invalid.
  const s = BigInt('0x' + Buffer.from(signature.subarray(32, 64)).toString('hex')) % ORDER;
  if (s > HALF_ORDER) throw new FxError('signature was mutated from its original format');
  const v = signature[64];
  // The code is a byte: v + 27 wraps past 255 to a code under 27, which is invalid too.
  if (v > 7) throw new FxError('invalid signature');
  let publicKey: Uint8Array;
  try {
    publicKey = secp.ecdsaRecover(signature.subarray(0, 64), v & 3, hash, compressed);
  } catch {
    throw new FxError('invalid signature');
  }
  if (v > 3) throw new FxError("wasn't expecting a compressed key");
  return publicKey;
}

/**
 * Signers recovered lately, by hash and signature; the oldest leaves first. The P-chain verifies a tx
 * when it is issued and again when its block is built, so without them every signature of a tx
 * is recovered twice; the reference's fx keeps such a cache too (`secp256k1.RecoverCache`). A
 * signature that fails to recover is not kept: it throws again, as dearly, each time.
 */
const recoveredSigners = new Map<string, Uint8Array>();
const RECOVERED_SIGNERS_KEPT = 2048;

/** The short address that signed `hash` (`recoverPublicKey`'s refusals). */
export function recoverSigner(hash: Uint8Array, signature: Uint8Array): Uint8Array {
  const key = Buffer.from(hash).toString('hex') + Buffer.from(signature).toString('hex');
  const known = recoveredSigners.get(key);
  if (known) return known;
  const signer = ripemd160(sha256(recoverPublicKey(hash, signature, true)));
  if (recoveredSigners.size >= RECOVERED_SIGNERS_KEPT)
    recoveredSigners.delete(recoveredSigners.keys().next().value!);
  recoveredSigners.set(key, signer);
  return signer;
}

/**
 * Checks that `signatures` (in `sigIndices` order) authorise spending an output owned by
 * `owners` at time `now` (Unix seconds). Throws FxError naming the first broken rule in the
 * words, and the order, of the reference's `secp256k1fx.Fx.VerifyCredentials` (and
 * `Input.Verify` for the indices), so clients matching on them (`output is time locked`,
 * `input has less signers than expected`, `wrong signature`) read the same here.
 */
export function verifySpend(
  owners: Owners,
  sigIndices: readonly number[],
  signatures: readonly Uint8Array[],
  txHash: Uint8Array,
  now: bigint,
): void {
  for (let i = 1; i < sigIndices.length; i++) {
    if (sigIndices[i] <= sigIndices[i - 1]) throw new FxError('address indices not sorted and unique');
  }
  if (owners.locktime > now) throw new FxError('output is time locked');
  if (sigIndices.length > owners.threshold) throw new FxError('input has more signers than expected');
  if (sigIndices.length < owners.threshold) throw new FxError('input has less signers than expected');
  if (signatures.length !== sigIndices.length) {
    throw new FxError('input expected a different number of signers than provided in the credential');
  }
  for (let i = 0; i < sigIndices.length; i++) {
    const index = sigIndices[i];
    if (index >= owners.addresses.length)
      throw new FxError('input referenced a nonexistent address in the output');
    const signer = recoverSigner(txHash, signatures[i]);
    const expected = owners.addresses[index];
    if (!Buffer.from(signer).equals(Buffer.from(expected))) {
      // ids.ShortID prints as cb58, as the reference's %s does.
      throw new FxError(
        `wrong signature: expected signature from ${toCb58(expected)} but got from ${toCb58(signer)}`,
      );
    }
  }
}

/**
 * Owners of an output that carry no spend right yet (threshold 0 outputs are unspendable burns),
 * refused in the words of the reference's `OutputOwners.Verify`.
 */
export function checkOwnersWellFormed(owners: Owners): void {
  if (owners.threshold > owners.addresses.length) {
    throw new FxError('output is unspendable');
  }
  if (owners.threshold === 0 && owners.addresses.length > 0)
    throw new FxError('output representation should be optimized');
  for (let i = 1; i < owners.addresses.length; i++) {
    if (Buffer.compare(Buffer.from(owners.addresses[i - 1]), Buffer.from(owners.addresses[i])) >= 0) {
      throw new FxError('addresses not sorted and unique');
    }
  }
}
