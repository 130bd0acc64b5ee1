/**
 * Avalanche Warp messages as the P-chain reads them: the signed message layout, the ACP-77
 * payloads L1 validator managers send (RegisterL1Validator, L1ValidatorWeight), and the BLS
 * multi-signature check against a P-chain validator set, by the shared Warp rules (src/shared/warp).
 */
import { sha256 } from '@noble/hashes/sha2.js';
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
import { CodecReader } from '../../components/codec-reader.js';
import { nodeIdString } from '../api/format.js';
import type { ValidatorWeight } from '../state/validator-sets.js';

export class WarpError extends Error {
  override readonly name = 'WarpError';
}

/** A linear-codec reader whose refusals are WarpErrors in the reference codec's words. */
const reader = (bytes: Uint8Array, maxSize?: number) =>
  new CodecReader(bytes, (message) => new WarpError(message), maxSize);

export interface WarpMessage {
  readonly unsignedBytes: Uint8Array;
  readonly networkId: number;
  readonly sourceChainId: Uint8Array;
  readonly payload: Uint8Array;
  readonly signers: Uint8Array;
  readonly signature: Uint8Array;
}

/** `warp.ParseMessage`: UnsignedMessage, then the Signature interface (only BitSetSignature, id 0). */
export function parseWarpMessage(bytes: Uint8Array): WarpMessage {
  const r = reader(bytes);
  const networkId = r.u32();
  const sourceChainId = r.fixed(32);
  const payload = r.bytes();
  const unsignedEnd = r.at;
  r.typeId(1);
  const signers = r.bytes();
  const signature = r.fixed(96);
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

/** payload.MaxMessageSize, the warp payload codec's limit. */
const MAX_WARP_PAYLOAD = 24 * 1024;

/**
 * `payload.ParseAddressedCall`: the payload codec reads whichever of its types (Hash 0,
 * AddressedCall 1) the bytes name, to their end, and only then is a Hash the wrong type.
 */
export function parseAddressedCall(bytes: Uint8Array): AddressedCall {
  const r = reader(bytes, MAX_WARP_PAYLOAD);
  if (r.typeId(2) === 0) {
    r.fixed(32);
    r.end();
    throw new WarpError('wrong payload type: *payload.Hash');
  }
  const sourceAddress = r.bytes();
  const payload = r.bytes();
  r.end();
  return { sourceAddress, payload };
}

export interface PChainOwnerValue {
  readonly threshold: number;
  readonly addresses: Uint8Array[];
}

function readOwner(r: CodecReader): PChainOwnerValue {
  const threshold = r.u32();
  const n = r.sliceLength();
  const addresses: Uint8Array[] = [];
  for (let i = 0; i < n; i++) addresses.push(r.fixed(20));
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

export interface L1ValidatorWeightMessage {
  readonly validationId: Uint8Array;
  readonly nonce: bigint;
  readonly weight: bigint;
}

/** The ACP-77 payloads' Go types, by their codec type id (warp/message/codec.go). */
const ACP77_TYPES = [
  '*message.SubnetToL1Conversion',
  '*message.RegisterL1Validator',
  '*message.L1ValidatorRegistration',
  '*message.L1ValidatorWeight',
];

/**
 * `message.Parse`: reads whichever ACP-77 payload the bytes name, to their end; the caller's
 * `Parse<Type>` then refuses another type as `wrong payload type: <Go type>`.
 */
function parseAcp77(
  payload: Uint8Array,
  want: number,
): RegisterL1ValidatorMessage | L1ValidatorWeightMessage {
  const r = reader(payload);
  const type = r.typeId(ACP77_TYPES.length);
  let parsed: RegisterL1ValidatorMessage | L1ValidatorWeightMessage | undefined;
  switch (type) {
    case 0: // SubnetToL1Conversion: the conversion id
      r.fixed(32);
      break;
    case 1: {
      const subnetId = r.fixed(32);
      const nodeId = r.bytes();
      const blsPublicKey = r.fixed(48);
      const expiry = r.u64();
      const remainingBalanceOwner = readOwner(r);
      const disableOwner = readOwner(r);
      const weight = r.u64();
      parsed = {
        validationId: sha256(payload),
        subnetId,
        nodeId,
        blsPublicKey,
        expiry,
        remainingBalanceOwner,
        disableOwner,
        weight,
      };
      break;
    }
    case 2: // L1ValidatorRegistration: the validation id, registered
      r.fixed(32);
      r.bool();
      break;
    default: {
      const validationId = r.fixed(32);
      const nonce = r.u64();
      const weight = r.u64();
      parsed = { validationId, nonce, weight };
    }
  }
  r.end();
  if (type !== want || !parsed) throw new WarpError(`wrong payload type: ${ACP77_TYPES[type]}`);
  return parsed;
}

export function parseRegisterL1Validator(payload: Uint8Array): RegisterL1ValidatorMessage {
  return parseAcp77(payload, 1) as RegisterL1ValidatorMessage;
}

export function parseL1ValidatorWeight(payload: Uint8Array): L1ValidatorWeightMessage {
  return parseAcp77(payload, 3) as L1ValidatorWeightMessage;
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
