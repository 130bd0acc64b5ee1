import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pvmSerial } from '@avalabs/avalanchejs';
import { uncheckedProofOfPossession } from './pvm-proof-of-possession.js';

const decode = (bytes: Uint8Array) =>
  (
    pvmSerial.ProofOfPossession as unknown as {
      fromBytes(b: Uint8Array): [pvmSerial.ProofOfPossession, Uint8Array];
    }
  ).fromBytes(bytes);

describe('proof of possession decoding', () => {
  it('reads the two fields and the rest without checking the pairing', () => {
    // Not a curve point at all: avalanchejs's own decoder throws on these bytes.
    const bytes = new Uint8Array(48 + 96 + 3).map((_, i) => i);
    const [pop, rest] = decode(bytes);
    assert.deepEqual(pop.publicKey, bytes.slice(0, 48));
    assert.deepEqual(pop.signature, bytes.slice(48, 144));
    assert.deepEqual(rest, bytes.slice(144));
    assert.ok(pop instanceof pvmSerial.ProofOfPossession);
    assert.deepEqual(pop.toBytes(), bytes.slice(0, 144));
  });

  it('refuses bytes too short for both fields', () => {
    assert.throws(() => decode(new Uint8Array(143)), /unexpected end of bytes/);
  });

  it('builds values that encode as the real class does', () => {
    const pop = uncheckedProofOfPossession(new Uint8Array(48).fill(1), new Uint8Array(96).fill(2));
    assert.equal(pop.toString(), `0x${'01'.repeat(48)}${'02'.repeat(96)}`);
  });
});
