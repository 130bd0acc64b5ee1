/**
 * Avalanche Warp messages as the P-chain reads them: the signed message layout, the ACP-77
 * payloads L1 validator managers send (RegisterL1Validator, L1ValidatorWeight), and the BLS
 * multi-signature check against a P-chain validator set, by the shared Warp rules (src/shared/warp).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ByteReader } from '../../../../shared/byte-reader.js';
import {
  BitSetError,
  canonicalValidatorSet,
  decodeSigners,
  hasQuorum,
  verifyBitSetSignature,
  WARP_DEFAULT_QUORUM_NUMERATOR,
  WARP_QUORUM_DENOMINATOR,
  WarpVerifyError,
  type CanonicalValidatorSet,
} from '../../../../shared/warp/index.js';
import { blsSignatureFault } from '../../../../shared/crypto/bls.js';
import { nodeIdString } from '../api/format.js';
import type { ValidatorWeight } from '../state/validator-sets.js';

export class WarpError extends Error {
  override readonly name = 'WarpError';
}

/** The shared cursor; short or overlong input is a WarpError naming what was being read. */
class Reader extends ByteReader {
  constructor(
    bytes: Uint8Array,
    private readonly what: string,
  ) {
    super(bytes, () => new WarpError(`${what}: unexpected end of bytes`));
  }
  end(): void {
    if (!this.done()) throw new WarpError(`${this.what}: trailing bytes`);
  }
}

export interface WarpMessage {
  readonly unsignedBytes: Uint8Array;
  readonly networkId: number;
  readonly sourceChainId: Uint8Array;
  readonly payload: Uint8Array;
  readonly signers: Uint8Array;
  readonly signature: Uint8Array;
}

export function parseWarpMessage(bytes: Uint8Array): WarpMessage {
  const r = new Reader(bytes, 'warp message');
  if (r.u16() !== 0) throw new WarpError('warp message: unknown codec version');
  const networkId = r.u32();
  const sourceChainId = r.take(32);
  const payload = r.sized();
  const unsignedEnd = r.at;
  if (r.u32() !== 0) throw new WarpError('warp message: unknown signature type');
  const signers = r.sized();
  const signature = r.take(96);
  r.end();
  return {
    unsignedBytes: bytes.subarray(0, unsignedEnd),
    networkId,
    sourceChainId,
    payload,
    signers,
    signature,
  };
}

export interface AddressedCall {
  readonly sourceAddress: Uint8Array;
  readonly payload: Uint8Array;
}

export function parseAddressedCall(bytes: Uint8Array): AddressedCall {
  const r = new Reader(bytes, 'addressed call');
  if (r.u16() !== 0) throw new WarpError('addressed call: unknown codec version');
  if (r.u32() !== 1) throw new WarpError('warp payload is not an AddressedCall');
  const sourceAddress = r.sized();
  const payload = r.sized();
  r.end();
  return { sourceAddress, payload };
}

export interface PChainOwnerValue {
  readonly threshold: number;
  readonly addresses: Uint8Array[];
}

function readOwner(r: Reader): PChainOwnerValue {
  const threshold = r.u32();
  const n = r.u32();
  const addresses: Uint8Array[] = [];
  for (let i = 0; i < n; i++) addresses.push(r.take(20));
  return { threshold, addresses };
}

export interface RegisterL1ValidatorMessage {
  /** sha256 of the payload bytes. */
  readonly validationId: Uint8Array;
  readonly subnetId: Uint8Array;
  readonly nodeId: Uint8Array;
  readonly blsPublicKey: Uint8Array;
  readonly expiry: bigint;
  readonly remainingBalanceOwner: PChainOwnerValue;
  readonly disableOwner: PChainOwnerValue;
  readonly weight: bigint;
}

export function parseRegisterL1Validator(payload: Uint8Array): RegisterL1ValidatorMessage {
  const r = new Reader(payload, 'RegisterL1ValidatorMessage');
  if (r.u16() !== 0) throw new WarpError('RegisterL1ValidatorMessage: unknown codec version');
  if (r.u32() !== 1) throw new WarpError('warp payload is not a RegisterL1ValidatorMessage');
  const subnetId = r.take(32);
  const nodeId = r.sized();
  const blsPublicKey = r.take(48);
  const expiry = r.u64();
  const remainingBalanceOwner = readOwner(r);
  const disableOwner = readOwner(r);
  const weight = r.u64();
  r.end();
  return {
    validationId: sha256(payload),
    subnetId,
    nodeId,
    blsPublicKey,
    expiry,
    remainingBalanceOwner,
    disableOwner,
    weight,
  };
}

export interface L1ValidatorWeightMessage {
  readonly validationId: Uint8Array;
  readonly nonce: bigint;
  readonly weight: bigint;
}

export function parseL1ValidatorWeight(payload: Uint8Array): L1ValidatorWeightMessage {
  const r = new Reader(payload, 'L1ValidatorWeightMessage');
  if (r.u16() !== 0) throw new WarpError('L1ValidatorWeightMessage: unknown codec version');
  if (r.u32() !== 3) throw new WarpError('warp payload is not an L1ValidatorWeightMessage');
  const validationId = r.take(32);
  const nonce = r.u64();
  const weight = r.u64();
  r.end();
  return { validationId, nonce, weight };
}

/** The canonical signer set of a P-chain validator set (the shared Warp rules). */
export function canonicalSet(validators: readonly ValidatorWeight[]): CanonicalValidatorSet {
  return canonicalValidatorSet(
    validators.map((v) => ({ nodeID: nodeIdString(v.nodeId), publicKey: v.publicKey, weight: v.weight })),
  );
}

/**
 * Throws unless `msg` carries an aggregate signature of at least 67% of `validators`' weight, in
 * the words and order of the reference's `BitSetSignature.Verify`: the network, the bitset, the
 * signers' indices, their weight, then the signature.
 */
export function verifyWarpSignature(
  msg: WarpMessage,
  networkId: number,
  validators: readonly ValidatorWeight[],
): void {
  if (msg.networkId !== networkId) throw new WarpError('wrong networkID');
  let indices: number[];
  try {
    indices = decodeSigners(msg.signers);
  } catch (err) {
    if (err instanceof BitSetError) throw new WarpError('bitset is invalid');
    throw err;
  }
  const set = canonicalSet(validators);
  const last = indices.length > 0 ? indices[indices.length - 1] : -1;
  if (last >= set.validators.length)
    throw new WarpError(
      `unknown validator: NumIndices (${last}) >= NumFilteredValidators (${set.validators.length})`,
    );
  const signed = indices.reduce((sum, i) => sum + set.validators[i].weight, 0n);
  if (!hasQuorum(signed, set.totalWeight))
    throw new WarpError(
      `signature weight is insufficient: ${WARP_DEFAULT_QUORUM_NUMERATOR}*${set.totalWeight} > ${WARP_QUORUM_DENOMINATOR}*${signed}`,
    );
  // The aggregate is parsed after the weight is counted (bls.SignatureFromBytes), its fault
  // under `failed to parse signature: `; one that parses but does not verify is `signature is
  // invalid`.
  const unparsed = blsSignatureFault(msg.signature);
  if (unparsed) throw new WarpError(`failed to parse signature: ${unparsed}`);
  try {
    verifyBitSetSignature(msg.unsignedBytes, msg, set);
  } catch (err) {
    if (err instanceof WarpVerifyError) throw new WarpError('signature is invalid');
    throw err;
  }
}
