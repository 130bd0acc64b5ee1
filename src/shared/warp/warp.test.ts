import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blsPublicKey, blsSecretKeyFromIkm, blsSign } from '../crypto/bls.js';
import {
  aggregateSignatures,
  canonicalValidatorSet,
  decodeSigners,
  encodeSigners,
  hasQuorum,
  requiredWeight,
  verifyBitSetSignature,
  WarpVerifyError,
} from './index.js';

const keys = Array.from({ length: 5 }, (_, i) => blsSecretKeyFromIkm(new Uint8Array(32).fill(i + 1)));

describe('signers bitset', () => {
  it('encodes as the minimal big-endian magnitude', () => {
    assert.deepEqual(encodeSigners([0, 1]), Uint8Array.from([0x03]));
    assert.deepEqual(encodeSigners([8]), Uint8Array.from([0x01, 0x00]));
    assert.deepEqual(encodeSigners([0, 9]), Uint8Array.from([0x02, 0x01]));
    assert.deepEqual(encodeSigners([]), new Uint8Array(0));
    assert.deepEqual(decodeSigners(Uint8Array.from([0x02, 0x01])), [0, 9]);
    assert.throws(() => decodeSigners(Uint8Array.from([0x00, 0x01])), /minimally/);
  });
});

describe('quorum', () => {
  it('uses cross-multiplication, so the ceiling target always verifies', () => {
    assert.equal(requiredWeight(10n), 7n);
    assert.equal(hasQuorum(6n, 10n), false);
    assert.equal(hasQuorum(7n, 10n), true);
    const huge = (1n << 64n) - 1n;
    assert.equal(hasQuorum(requiredWeight(huge), huge), true);
    assert.equal(hasQuorum(requiredWeight(huge) - 1n, huge), false);
  });
});

describe('canonical validator set and signatures', () => {
  const inputs = keys.map((sk, i) => ({ nodeID: `NodeID-${i}`, publicKey: blsPublicKey(sk), weight: 100n }));
  const set = canonicalValidatorSet([
    ...inputs,
    { nodeID: 'NodeID-keyless', weight: 50n },
    { nodeID: 'NodeID-dup', publicKey: inputs[0].publicKey, weight: 25n },
  ]);

  it('counts keyless weight, merges shared keys and sorts by uncompressed key', () => {
    assert.equal(set.totalWeight, 575n);
    assert.equal(set.validators.length, 5);
    const merged = set.validators.find((v) => v.nodeIDs.includes('NodeID-dup'))!;
    assert.equal(merged.weight, 125n);
    for (let i = 1; i < set.validators.length; i++) {
      assert.ok(
        Buffer.compare(
          Buffer.from(set.validators[i - 1].publicKeyUncompressed),
          Buffer.from(set.validators[i].publicKeyUncompressed),
        ) < 0,
      );
    }
  });

  it('aggregates and verifies with quorum, and names the failing rule', () => {
    const message = new TextEncoder().encode('unsigned warp message bytes');
    const signOf = (index: number) => {
      const v = set.validators[index];
      const sk = keys[inputs.findIndex((x) => Buffer.from(x.publicKey).equals(Buffer.from(v.publicKey)))];
      return blsSign(sk, message);
    };
    const four = aggregateSignatures(new Map([0, 1, 2, 3].map((i) => [i, signOf(i)])));
    assert.ok(verifyBitSetSignature(message, four, set) >= requiredWeight(set.totalWeight));
    const two = aggregateSignatures(new Map([0, 1].map((i) => [i, signOf(i)])));
    assert.throws(
      () => verifyBitSetSignature(message, two, set),
      (e: unknown) => e instanceof WarpVerifyError && /insufficient weight/.test(e.message),
    );
    const otherMessage = new TextEncoder().encode('something else');
    assert.throws(() => verifyBitSetSignature(otherMessage, four, set), /invalid aggregate/);
    assert.throws(
      () => verifyBitSetSignature(message, { ...four, signers: encodeSigners([0, 1, 2, 9]) }, set),
      /past the/,
    );
  });
});
