import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import blst from '@chainsafe/blst';
import { blsPublicKey, blsSecretKeyFromIkm, blsSign } from '../../../../shared/crypto/bls.js';
import { canonicalSet, parseWarpMessage, verifyWarpSignature, WarpError } from './warp-message.js';

const keys = [1, 2, 3].map((i) => blsSecretKeyFromIkm(new Uint8Array(32).fill(i)));
const validators = keys.map((sk, i) => ({
  nodeId: new Uint8Array(20).fill(i + 1),
  weight: BigInt(10 * (i + 1)),
  publicKey: blsPublicKey(sk),
}));

function message(networkId: number, signers: number[], bitset: Uint8Array): Uint8Array {
  const payload = Buffer.from('hello warp');
  const unsigned = Buffer.alloc(2 + 4 + 32 + 4 + payload.length);
  unsigned.writeUInt32BE(networkId, 2);
  unsigned.writeUInt32BE(payload.length, 38);
  payload.copy(unsigned, 42);
  const order = canonicalSet(validators).validators.map((c) => Buffer.from(c.publicKey).toString('hex'));
  const sigs = signers.map((index) => {
    const sk = keys[validators.findIndex((v) => Buffer.from(v.publicKey).toString('hex') === order[index])];
    return blsSign(sk, unsigned);
  });
  const aggregate = blst.aggregateSerializedSignatures(sigs).toBytes(true);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bitset.length);
  return Buffer.concat([unsigned, Buffer.alloc(4), len, Buffer.from(bitset), Buffer.from(aggregate)]);
}

describe('warp signature verification', () => {
  it('orders validators by uncompressed key and counts every validator in the total', () => {
    const set = canonicalSet([
      ...validators,
      { nodeId: new Uint8Array(20), weight: 5n, publicKey: undefined },
    ]);
    assert.equal(set.validators.length, 3);
    assert.equal(set.totalWeight, 65n);
    const raw = set.validators.map((v) => Buffer.from(v.publicKeyUncompressed));
    for (let i = 1; i < raw.length; i++) assert.ok(Buffer.compare(raw[i - 1], raw[i]) < 0);
  });

  it('accepts a quorum and refuses the rest in the reference BitSetSignature.Verify words', () => {
    verifyWarpSignature(parseWarpMessage(message(12345, [0, 1, 2], new Uint8Array([7]))), 12345, validators);
    const order = canonicalSet(validators).validators;
    const heavy = [0, 1, 2].filter((i) => order[i].weight !== 10n);
    const bits = heavy.reduce((b, i) => b | (1 << i), 0);
    verifyWarpSignature(parseWarpMessage(message(12345, heavy, new Uint8Array([bits]))), 12345, validators); // 50 of 60
    assert.throws(
      () =>
        verifyWarpSignature(parseWarpMessage(message(12345, [0], new Uint8Array([1]))), 12345, validators),
      (e: unknown) =>
        e instanceof WarpError && /^signature weight is insufficient: 67\*60 > 100\*20$/.test(e.message),
    );
    assert.throws(
      () =>
        verifyWarpSignature(
          parseWarpMessage(message(12345, [0, 1, 2], new Uint8Array([0, 7]))),
          12345,
          validators,
        ),
      /^WarpError: bitset is invalid$/,
    );
    assert.throws(
      () =>
        verifyWarpSignature(
          parseWarpMessage(message(12345, [0, 1, 2], new Uint8Array([15]))),
          12345,
          validators,
        ),
      /^WarpError: unknown validator: NumIndices \(3\) >= NumFilteredValidators \(3\)$/,
    );
    assert.throws(
      () =>
        verifyWarpSignature(parseWarpMessage(message(5, [0, 1, 2], new Uint8Array([7]))), 12345, validators),
      /^WarpError: wrong networkID$/,
    );
    // Signed by 0 and 1 but claiming 0, 1 and 2: the aggregate does not verify.
    assert.throws(
      () =>
        verifyWarpSignature(parseWarpMessage(message(12345, [0, 1], new Uint8Array([7]))), 12345, validators),
      /^WarpError: signature is invalid$/,
    );
  });
});
