import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import blst from '@chainsafe/blst';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { blsPublicKey, blsSecretKeyFromIkm, blsSign } from '../../shared/crypto/bls.js';
import {
  aggregateSignatures,
  canonicalValidatorSet,
  requiredWeight,
  verifyBitSetSignature,
  type CanonicalValidatorSet,
} from '../../shared/warp/index.js';
import { collectSignatures } from './collector.js';

/** A point on the signature curve (G2) outside its prime-order subgroup, compressed. */
function offSubgroupPoint(): Uint8Array {
  const { Fp, Fp2 } = bls12_381.fields;
  const b = Fp2.create({ c0: 4n, c1: 4n }); // y² = x³ + 4(1 + i)
  for (let k = 1n; ; k++) {
    const x = Fp2.create({ c0: k, c1: 1n });
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), b);
    try {
      if (!Fp2.eql(Fp2.sqr(Fp2.sqrt(rhs)), rhs)) continue;
    } catch {
      continue; // no square root: x is not on the curve
    }
    const out = new Uint8Array(96);
    out.set(Fp.toBytes(x.c1), 0);
    out.set(Fp.toBytes(x.c0), 48);
    out[0] |= 0x80; // compressed
    return out;
  }
}

type Answer = (message: Uint8Array) => Uint8Array;

/** A validator's signature endpoint over HTTP, answering with `answer(message)`. */
async function validatorServer(answer: () => Answer): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { params } = JSON.parse(body) as { params: { message: string } };
      const message = Uint8Array.from(Buffer.from(params.message.slice(2), 'hex'));
      const signature = Buffer.from(answer()(message)).toString('hex');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { signature } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('signature collector', () => {
  const keys = Array.from({ length: 4 }, (_, i) => blsSecretKeyFromIkm(new Uint8Array(32).fill(i + 11)));
  const nodeIDs = keys.map((_, i) => `NodeID-test${i}`);
  const answers: Answer[] = keys.map((k) => (m) => blsSign(k, m));
  const servers: http.Server[] = [];
  const addresses = new Map<string, string>();
  let set: CanonicalValidatorSet;

  before(async () => {
    for (const [i, nodeID] of nodeIDs.entries()) {
      const { url, server } = await validatorServer(() => answers[i]);
      servers.push(server);
      addresses.set(nodeID, url);
    }
    set = canonicalValidatorSet(
      keys.map((k, i) => ({ nodeID: nodeIDs[i], publicKey: blsPublicKey(k), weight: 1n })),
    );
  });
  after(() => {
    for (const s of servers) s.close();
  });

  const collect = (
    message: Uint8Array,
    target = requiredWeight(set.totalWeight),
    cache = new Map<string, blst.Signature>(),
  ) =>
    collectSignatures({
      set,
      addresses,
      message,
      justification: new Uint8Array(0),
      target,
      timeoutMs: 10_000,
      cache,
      remember: (key, signature) => cache.set(key, signature),
      forget: (key) => cache.delete(key),
    });
  /** The signers (node IDs) of a collection, after checking that their aggregate verifies. */
  const signersOf = (message: Uint8Array, collected: Awaited<ReturnType<typeof collect>>): string[] => {
    const sig = aggregateSignatures(new Map(collected.map((a) => [a.index, a.signature])));
    verifyBitSetSignature(message, sig, set);
    return collected.map((a) => set.validators[a.index].nodeIDs[0]).sort();
  };

  it('gathers a quorum of honest signatures whose aggregate verifies', async () => {
    const message = new TextEncoder().encode('collector: honest');
    const collected = await collect(message);
    assert.ok(signersOf(message, collected).length >= 3);
  });

  it('drops an answer outside the signature subgroup, alone or added to a valid signature', async () => {
    const torsion = offSubgroupPoint();
    assert.throws(() => blst.Signature.fromBytes(torsion, true), 'the crafted point is off the subgroup');
    blst.Signature.fromBytes(torsion, false); // yet on the curve: it passes decompression
    for (const liar of [
      () => torsion,
      (m: Uint8Array) =>
        blst
          .aggregateSignatures(
            [blst.Signature.fromBytes(blsSign(keys[0], m), true), blst.Signature.fromBytes(torsion)],
            false,
          )
          .toBytes(true),
    ]) {
      answers[0] = liar;
      const message = new TextEncoder().encode(`collector: liar ${liar.length}`);
      // Every validator's weight is asked for, so the liar's answer is always examined.
      const collected = await collect(message, set.totalWeight);
      assert.deepEqual(signersOf(message, collected), nodeIDs.slice(1).sort());
    }
    answers[0] = (m) => blsSign(keys[0], m);
  });

  it('never trusts a cached signature that was only proven within an aggregate', async () => {
    // Two answers whose errors cancel: their sum, and so the first aggregate, verifies.
    const G2 = bls12_381.G2.Point;
    const error = G2.BASE.multiply(0xf1a5n);
    const honest = (i: number, m: Uint8Array) => G2.fromBytes(blsSign(keys[i], m));
    answers[0] = (m) => honest(0, m).add(error).toBytes(true);
    answers[1] = (m) => honest(1, m).subtract(error).toBytes(true);
    const message = new TextEncoder().encode('collector: cancelling errors');
    const cache = new Map<string, blst.Signature>();
    try {
      const first = await collect(message, set.totalWeight, cache);
      assert.equal(signersOf(message, first).length, 4);
      // Validator 1's entry ages out and it now answers honestly: validator 0's cached answer,
      // wrong on its own, must not reach the result.
      const keyOf = (i: number) =>
        [...cache.keys()].find((k) => k.endsWith(Buffer.from(set.validators[i].publicKey).toString('hex')))!;
      const v0 = set.validators.findIndex((v) => v.nodeIDs[0] === nodeIDs[0]);
      const v1 = set.validators.findIndex((v) => v.nodeIDs[0] === nodeIDs[1]);
      const stale = keyOf(v0);
      cache.delete(keyOf(v1));
      answers[1] = (m) => blsSign(keys[1], m);
      const second = await collect(message, set.totalWeight, cache);
      assert.deepEqual(signersOf(message, second), nodeIDs.slice(1).sort());
      assert.equal(cache.has(stale), false, 'the bad cached signature is forgotten');
    } finally {
      answers[0] = (m) => blsSign(keys[0], m);
      answers[1] = (m) => blsSign(keys[1], m);
    }
  });
});
