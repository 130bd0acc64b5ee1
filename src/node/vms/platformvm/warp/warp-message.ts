/**
 * Avalanche Warp messages as the P-chain reads them: the signed message layout, the ACP-77
 * payloads L1 validator managers send (RegisterL1Validator, L1ValidatorWeight), and the BLS
 * multi-signature check against a validator set in canonical order (keyed validators merged by
 * key, sorted by uncompressed key bytes, signers as a minimal big-endian bitset, 67% quorum).
 */
import blst from '@chainsafe/blst';
import { sha256 } from '@noble/hashes/sha2.js';
import type { ValidatorWeight } from '../state/validator-sets.js';

export class WarpError extends Error {
  override readonly name = 'WarpError';
}

class Reader {
  private offset = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}
  private take(n: number): Uint8Array {
    if (this.offset + n > this.bytes.length) throw new WarpError(`${this.what}: unexpected end of bytes`);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  u16(): number {
    return Buffer.from(this.take(2)).readUInt16BE();
  }
  u32(): number {
    return Buffer.from(this.take(4)).readUInt32BE();
  }
  u64(): bigint {
    return Buffer.from(this.take(8)).readBigUInt64BE();
  }
  fixed(n: number): Uint8Array {
    return this.take(n);
  }
  bytesField(): Uint8Array {
    return this.take(this.u32());
  }
  get position(): number {
    return this.offset;
  }
  end(): void {
    if (this.offset !== this.bytes.length) throw new WarpError(`${this.what}: trailing bytes`);
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
  const sourceChainId = r.fixed(32);
  const payload = r.bytesField();
  const unsignedEnd = r.position;
  if (r.u32() !== 0) throw new WarpError('warp message: unknown signature type');
  const signers = r.bytesField();
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

export function parseAddressedCall(bytes: Uint8Array): AddressedCall {
  const r = new Reader(bytes, 'addressed call');
  if (r.u16() !== 0) throw new WarpError('addressed call: unknown codec version');
  if (r.u32() !== 1) throw new WarpError('warp payload is not an AddressedCall');
  const sourceAddress = r.bytesField();
  const payload = r.bytesField();
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

export function parseRegisterL1Validator(payload: Uint8Array): RegisterL1ValidatorMessage {
  const r = new Reader(payload, 'RegisterL1ValidatorMessage');
  if (r.u16() !== 0) throw new WarpError('RegisterL1ValidatorMessage: unknown codec version');
  if (r.u32() !== 1) throw new WarpError('warp payload is not a RegisterL1ValidatorMessage');
  const subnetId = r.fixed(32);
  const nodeId = r.bytesField();
  const blsPublicKey = r.fixed(48);
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
  const validationId = r.fixed(32);
  const nonce = r.u64();
  const weight = r.u64();
  r.end();
  return { validationId, nonce, weight };
}

export interface CanonicalValidator {
  readonly publicKey: blst.PublicKey;
  readonly uncompressed: Uint8Array;
  readonly weight: bigint;
}

/** Parsed (subgroup-checked) validator keys by compressed bytes: parsing costs ~0.2 ms each. */
const parsedKeys = new Map<string, { publicKey: blst.PublicKey; uncompressed: Uint8Array }>();
const PARSED_KEYS_LIMIT = 20_000;

function parsedKey(compressed: Uint8Array): { publicKey: blst.PublicKey; uncompressed: Uint8Array } {
  const key = Buffer.from(compressed).toString('hex');
  let entry = parsedKeys.get(key);
  if (!entry) {
    const publicKey = blst.PublicKey.fromBytes(compressed, true);
    entry = { publicKey, uncompressed: publicKey.toBytes(false) };
    if (parsedKeys.size >= PARSED_KEYS_LIMIT) parsedKeys.delete(parsedKeys.keys().next().value!);
    parsedKeys.set(key, entry);
  }
  return entry;
}

/** The signer list: keyed validators merged by key and sorted by uncompressed key; total over all. */
export function canonicalSet(validators: readonly ValidatorWeight[]): {
  validators: CanonicalValidator[];
  totalWeight: bigint;
} {
  let totalWeight = 0n;
  const byKey = new Map<string, { publicKey: blst.PublicKey; uncompressed: Uint8Array; weight: bigint }>();
  for (const v of validators) {
    totalWeight += v.weight;
    if (!v.publicKey) continue;
    const { publicKey, uncompressed } = parsedKey(v.publicKey);
    const key = Buffer.from(uncompressed).toString('hex');
    const prev = byKey.get(key);
    if (prev) prev.weight += v.weight;
    else byKey.set(key, { publicKey, uncompressed, weight: v.weight });
  }
  const list = [...byKey.values()].sort((a, b) =>
    Buffer.compare(Buffer.from(a.uncompressed), Buffer.from(b.uncompressed)),
  );
  return { validators: list, totalWeight };
}

const QUORUM_NUMERATOR = 67n;
const QUORUM_DENOMINATOR = 100n;

/** Throws unless `msg` carries an aggregate signature of at least 67% of `validators`' weight. */
export function verifyWarpSignature(
  msg: WarpMessage,
  networkId: number,
  validators: readonly ValidatorWeight[],
): void {
  if (msg.networkId !== networkId)
    throw new WarpError(`warp message is for network ${msg.networkId}, this is network ${networkId}`);
  if (msg.signers.length > 0 && msg.signers[0] === 0)
    throw new WarpError('warp signature: signers bitset is not minimal');
  const set = canonicalSet(validators);
  const bits = BigInt('0x' + (Buffer.from(msg.signers).toString('hex') || '0'));
  if (bits.toString(2).length > set.validators.length && bits !== 0n)
    throw new WarpError('warp signature: a signer index is past the end of the validator set');
  const signers: CanonicalValidator[] = [];
  let signedWeight = 0n;
  for (let i = 0; i < set.validators.length; i++) {
    if ((bits >> BigInt(i)) & 1n) {
      signers.push(set.validators[i]);
      signedWeight += set.validators[i].weight;
    }
  }
  if (QUORUM_NUMERATOR * set.totalWeight > QUORUM_DENOMINATOR * signedWeight) {
    throw new WarpError(
      `warp signature: insufficient weight: signers hold ${signedWeight} of ${set.totalWeight}, 67% is required`,
    );
  }
  if (!aggregateVerifies(msg, signers))
    throw new WarpError('warp signature: the aggregate BLS signature is invalid');
}

/** Malformed signatures (not a G2 point, not in the subgroup) count as invalid. */
function aggregateVerifies(msg: WarpMessage, signers: readonly CanonicalValidator[]): boolean {
  try {
    const signature = blst.Signature.fromBytes(msg.signature, true);
    const aggregate = blst.aggregatePublicKeys(signers.map((s) => s.publicKey));
    return blst.verify(msg.unsignedBytes, aggregate, signature);
  } catch {
    return false;
  }
}
