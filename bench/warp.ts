/**
 * Warp predicate verification on a receiving chain (what runs before each transaction that
 * carries a signed message): unpack the access-list keys, parse the signed message, check the
 * bitset and quorum over the canonical set, aggregate the signers' keys and BLS-verify — against
 * the floor of one BLS verification of the same aggregate, measured in the same run.
 */
import blst from '@chainsafe/blst';
import { blsPublicKey, blsSecretKeyFromIkm, blsSign } from '../src/shared/crypto/bls.js';
import {
  aggregateSignatures,
  canonicalValidatorSet,
  verifyBitSetSignature,
} from '../src/shared/warp/index.js';
import { encodeUnsignedMessage } from '../src/node/warp/unsigned-message.js';
import {
  encodeAddressedCall,
  encodeSignedMessage,
  packPredicate,
  parseSignedMessage,
  unpackPredicate,
} from '../src/node/vms/evm/warp/predicate.js';
import type { BenchResult } from './index.js';

function timeMs(iterations: number, fn: () => void): number {
  fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / iterations;
}

export async function warpBench(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const n of [5, 100]) {
    const keys = Array.from({ length: n }, (_, i) =>
      blsSecretKeyFromIkm(new TextEncoder().encode(`warp-bench-${n}-${i}`.padEnd(32, '.'))),
    );
    const set = canonicalValidatorSet(
      keys.map((k, i) => ({ nodeID: String(i), publicKey: blsPublicKey(k), weight: 100n })),
    );
    const unsigned = encodeUnsignedMessage(
      5,
      new Uint8Array(32).fill(1),
      encodeAddressedCall(new Uint8Array(20).fill(2), new Uint8Array(300)),
    );
    const byKey = new Map(keys.map((k) => [Buffer.from(blsPublicKey(k)).toString('hex'), k]));
    const parts = new Map<number, Uint8Array>();
    set.validators.forEach((v, i) =>
      parts.set(i, blsSign(byKey.get(Buffer.from(v.publicKey).toString('hex'))!, unsigned)),
    );
    const sig = aggregateSignatures(parts);
    const predicate = packPredicate(encodeSignedMessage(unsigned, sig.signers, sig.signature));
    const iterations = n === 5 ? 200 : 50;
    const full = timeMs(iterations, () => {
      const m = parseSignedMessage(unpackPredicate(predicate));
      verifyBitSetSignature(m.unsigned.bytes, { signers: m.signers, signature: m.signature }, set);
    });
    const aggregateKey = blst.aggregatePublicKeys(
      set.validators.map((v) => blst.PublicKey.fromBytes(v.publicKey)),
      false,
    );
    const signature = blst.Signature.fromBytes(sig.signature, true);
    const floor = timeMs(iterations, () => {
      blst.verify(unsigned, aggregateKey, signature);
    });
    results.push({
      name: `warp predicate verification, ${n} signers`,
      value: full,
      unit: 'ms',
      peers: [{ name: 'BLS verify floor', value: floor }],
      note: 'unpack + parse + quorum + key aggregation + verify',
    });
  }
  return results;
}
