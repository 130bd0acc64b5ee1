/**
 * Building and checking Warp BitSetSignatures over a canonical validator set: aggregate the
 * signers' BLS signatures, and verify an aggregate against the marked validators' keys with the
 * quorum rule, in the reference verifier's order (network, bitset, weight, then BLS).
 */
import blst from '@chainsafe/blst';
import { decodeSigners, encodeSigners } from './bitset.js';
import { hasQuorum, WARP_DEFAULT_QUORUM_NUMERATOR } from './quorum.js';
import type { CanonicalValidatorSet } from './validator-set.js';

export class WarpVerifyError extends Error {
  override readonly name = 'WarpVerifyError';
}

export interface BitSetSignature {
  readonly signers: Uint8Array;
  /** 96-byte compressed aggregate signature. */
  readonly signature: Uint8Array;
}

/**
 * Aggregates individual signatures of canonical validators (index → signature). Bytes are parsed
 * with the subgroup check; signatures already parsed are taken as the caller checked them
 * (parsing is most of the cost).
 */
export function aggregateSignatures(
  parts: ReadonlyMap<number, Uint8Array | blst.Signature>,
): BitSetSignature {
  if (parts.size === 0) throw new WarpVerifyError('no signatures to aggregate');
  const signatures = [...parts.values()].map((s) =>
    s instanceof Uint8Array ? blst.Signature.fromBytes(s, true) : s,
  );
  const aggregate = blst.aggregateSignatures(signatures, false);
  return { signers: encodeSigners(parts.keys()), signature: aggregate.toBytes(true) };
}

/**
 * Verifies `sig` over the unsigned message bytes against the set; throws WarpVerifyError saying
 * which rule failed. Returns the signed weight.
 */
export function verifyBitSetSignature(
  unsignedMessage: Uint8Array,
  sig: BitSetSignature,
  set: CanonicalValidatorSet,
  quorumNumerator = WARP_DEFAULT_QUORUM_NUMERATOR,
): bigint {
  let indices: number[];
  try {
    indices = decodeSigners(sig.signers);
  } catch (err) {
    throw new WarpVerifyError((err as Error).message);
  }
  if (indices.length > 0 && indices[indices.length - 1] >= set.validators.length) {
    throw new WarpVerifyError(
      `signer index ${indices[indices.length - 1]} is past the ${set.validators.length} validators`,
    );
  }
  const signers = indices.map((i) => set.validators[i]);
  const signedWeight = signers.reduce((sum, v) => sum + v.weight, 0n);
  if (!hasQuorum(signedWeight, set.totalWeight, quorumNumerator)) {
    throw new WarpVerifyError(
      `insufficient weight: signed ${signedWeight} of ${set.totalWeight}, need ${quorumNumerator}%`,
    );
  }
  if (signers.length === 0) throw new WarpVerifyError('no signers');
  let ok: boolean;
  try {
    const aggregateKey = blst.aggregatePublicKeys(
      signers.map((v) => v.key),
      false,
    );
    ok = blst.verify(unsignedMessage, aggregateKey, blst.Signature.fromBytes(sig.signature, true));
  } catch {
    ok = false;
  }
  if (!ok) throw new WarpVerifyError('invalid aggregate BLS signature');
  return signedWeight;
}
