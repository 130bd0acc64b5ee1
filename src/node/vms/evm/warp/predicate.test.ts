import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeUnsignedMessage } from '../../../warp/unsigned-message.js';
import {
  encodeAddressedCall,
  encodeSignedMessage,
  packPredicate,
  parseAddressedCall,
  parseSignedMessage,
  PredicateError,
  unpackPredicate,
} from './predicate.js';

describe('Warp predicates', () => {
  it('packs bytes with the 0xff delimiter into 32-byte keys and back', () => {
    for (const n of [0, 1, 31, 32, 33, 100]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
      const keys = packPredicate(bytes);
      assert.equal(keys.length, Math.ceil((n + 1) / 32));
      assert.deepEqual(unpackPredicate(keys), bytes);
    }
    assert.throws(() => unpackPredicate([new Uint8Array(32)]), PredicateError);
    assert.throws(() => unpackPredicate([Uint8Array.of(1, ...new Uint8Array(31))]), /delimiter/);
    assert.throws(() => unpackPredicate([new Uint8Array(31)]), /32 bytes/);
    const excess = [...packPredicate(Uint8Array.of(1)), new Uint8Array(32)];
    assert.throws(() => unpackPredicate(excess), PredicateError);
  });

  it('round-trips signed messages and AddressedCall payloads, refusing bad lengths', () => {
    const sender = new Uint8Array(20).fill(0xab);
    const payload = encodeAddressedCall(sender, new TextEncoder().encode('hi'));
    assert.deepEqual(parseAddressedCall(payload), {
      sourceAddress: sender,
      payload: new TextEncoder().encode('hi'),
    });
    assert.equal(parseAddressedCall(payload.subarray(0, payload.length - 1)), undefined);
    const unsigned = encodeUnsignedMessage(5, new Uint8Array(32).fill(3), payload);
    const signed = encodeSignedMessage(unsigned, Uint8Array.of(3), new Uint8Array(96).fill(9));
    const parsed = parseSignedMessage(signed);
    assert.deepEqual(parsed.unsigned.bytes, unsigned);
    assert.deepEqual(parsed.signers, Uint8Array.of(3));
    assert.equal(parsed.signature.length, 96);
    assert.throws(() => parseSignedMessage(signed.subarray(0, signed.length - 1)), PredicateError);
    const wrongType = Uint8Array.from(signed);
    wrongType[unsigned.length + 3] = 1;
    assert.throws(() => parseSignedMessage(wrongType), /signature type/);
  });
});
