/**
 * BLS12-381 as Avalanche uses it: minimal-pubkey-size (48-byte G1 public keys, 96-byte G2
 * signatures), the proof-of-possession scheme. Signing and verification of messages go through
 * `@chainsafe/blst` (native, ~20x faster); proofs of possession need their own domain tag, which
 * blst's binding does not expose, so they go through `@noble/curves`.
 */
import blst from '@chainsafe/blst';
import { bls12_381 } from '@noble/curves/bls12-381.js';

export const BLS_SIGNATURE_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
export const BLS_POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

/** Derives a secret key from at least 32 bytes of key material (IKM), per the BLS keygen. */
export function blsSecretKeyFromIkm(ikm: Uint8Array): Uint8Array {
  return blst.SecretKey.fromKeygen(ikm).toBytes();
}

/** The 48-byte compressed public key of a secret key. */
export function blsPublicKey(secretKey: Uint8Array): Uint8Array {
  return blst.SecretKey.fromBytes(secretKey).toPublicKey().toBytes(true);
}

const parsedSecretKeys = new WeakMap<Uint8Array, blst.SecretKey>();

/** Signs a message (96-byte compressed signature). The parsed key is kept per key array. */
export function blsSign(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
  let key = parsedSecretKeys.get(secretKey);
  if (!key) {
    key = blst.SecretKey.fromBytes(secretKey);
    parsedSecretKeys.set(secretKey, key);
  }
  return key.sign(message).toBytes(true);
}

/** Verifies a signature; malformed keys or signatures verify as false instead of throwing. */
export function blsVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const pk = blst.PublicKey.fromBytes(publicKey, true);
    const sig = blst.Signature.fromBytes(signature, true);
    return blst.verify(message, pk, sig);
  } catch {
    return false;
  }
}

/** The proof of possession: a signature over the public key itself under the PoP domain tag. */
export function blsProofOfPossession(secretKey: Uint8Array): Uint8Array {
  const publicKey = blsPublicKey(secretKey);
  const point = bls12_381.longSignatures.hash(publicKey, BLS_POP_DST);
  return bls12_381.longSignatures.sign(point, secretKey).toBytes(true);
}

export function blsVerifyProofOfPossession(publicKey: Uint8Array, proof: Uint8Array): boolean {
  try {
    const point = bls12_381.longSignatures.hash(publicKey, BLS_POP_DST);
    return bls12_381.longSignatures.verify(proof, point, publicKey);
  } catch {
    return false;
  }
}

/**
 * Why a proof of possession fails, in the words of the reference's `signer.ProofOfPossession.Verify`
 * (the key's decompression and subgroup check, then the signature's, then the pairing), or
 * undefined when it holds.
 */
export function blsProofOfPossessionFault(publicKey: Uint8Array, proof: Uint8Array): string | undefined {
  let pk: blst.PublicKey;
  try {
    pk = blst.PublicKey.fromBytes(publicKey);
  } catch {
    return "couldn't decompress public key";
  }
  try {
    pk.keyValidate();
  } catch {
    return 'invalid public key';
  }
  return (
    blsSignatureFault(proof) ??
    (blsVerifyProofOfPossession(publicKey, proof) ? undefined : 'invalid proof of possession')
  );
}

/**
 * Why 96 bytes are not a signature, in the words of the reference's `bls.SignatureFromBytes`:
 * the point's decompression, then its subgroup check (`SigValidate(false)`: the point at
 * infinity passes), or undefined when they are one.
 */
export function blsSignatureFault(signature: Uint8Array): string | undefined {
  let sig: blst.Signature;
  try {
    sig = blst.Signature.fromBytes(signature);
  } catch {
    return "couldn't decompress signature";
  }
  try {
    sig.sigValidate(false);
  } catch {
    return 'invalid signature';
  }
  return undefined;
}
