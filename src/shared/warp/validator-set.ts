/**
 * The canonical Warp validator set: what signer bit i means. Validators without a BLS key count
 * toward the total weight but cannot sign; validators sharing a key merge into one entry; the
 * list is sorted by the 96-byte uncompressed public key (not the compressed form).
 */
import blst from '@chainsafe/blst';

export interface WarpValidatorInput {
  readonly nodeID: string;
  /** 48-byte compressed BLS public key, or undefined for a validator without one. */
  readonly publicKey?: Uint8Array;
  readonly weight: bigint;
}

export interface CanonicalValidator {
  /** 48-byte compressed key. */
  readonly publicKey: Uint8Array;
  /** 96-byte uncompressed key, the sort key. */
  readonly publicKeyUncompressed: Uint8Array;
  /** The parsed (validated) key, kept so verifiers do not parse it again. */
  readonly key: blst.PublicKey;
  readonly weight: bigint;
  readonly nodeIDs: readonly string[];
}

export interface CanonicalValidatorSet {
  readonly validators: readonly CanonicalValidator[];
  /** Sum of every validator's weight, keyless ones included. */
  readonly totalWeight: bigint;
}

/** Parsed (subgroup-checked) keys by compressed bytes: parsing costs about 0.2 ms a key. */
const parsedKeys = new Map<string, { key: blst.PublicKey; uncompressed: Uint8Array }>();
const PARSED_KEYS_LIMIT = 20_000;

function parseKey(compressed: Uint8Array): { key: blst.PublicKey; uncompressed: Uint8Array } {
  const id = Buffer.from(compressed).toString('hex');
  let entry = parsedKeys.get(id);
  if (!entry) {
    const key = blst.PublicKey.fromBytes(compressed, true);
    entry = { key, uncompressed: key.toBytes(false) };
    if (parsedKeys.size >= PARSED_KEYS_LIMIT) parsedKeys.delete(parsedKeys.keys().next().value!);
    parsedKeys.set(id, entry);
  }
  return entry;
}

export function canonicalValidatorSet(inputs: readonly WarpValidatorInput[]): CanonicalValidatorSet {
  let totalWeight = 0n;
  const byKey = new Map<
    string,
    {
      publicKey: Uint8Array;
      key: blst.PublicKey;
      uncompressed: Uint8Array;
      weight: bigint;
      nodeIDs: string[];
    }
  >();
  for (const v of inputs) {
    totalWeight += v.weight;
    if (!v.publicKey) continue;
    const { key: parsed, uncompressed } = parseKey(v.publicKey);
    const key = Buffer.from(uncompressed).toString('hex');
    const entry = byKey.get(key);
    if (entry) {
      entry.weight += v.weight;
      entry.nodeIDs.push(v.nodeID);
    } else {
      byKey.set(key, {
        publicKey: v.publicKey,
        key: parsed,
        uncompressed,
        weight: v.weight,
        nodeIDs: [v.nodeID],
      });
    }
  }
  const validators = [...byKey.values()]
    .sort((a, b) => Buffer.compare(Buffer.from(a.uncompressed), Buffer.from(b.uncompressed)))
    .map((e) => ({
      publicKey: e.publicKey,
      publicKeyUncompressed: e.uncompressed,
      key: e.key,
      weight: e.weight,
      nodeIDs: e.nodeIDs,
    }));
  return { validators, totalWeight };
}
