import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import secp from 'secp256k1';
import { FxError, recoverPublicKey, recoverSigner } from './secp256k1fx.js';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const key = sha256(new TextEncoder().encode('secp256k1fx test key'));
const hash = sha256(new TextEncoder().encode('a message'));

/** A 65-byte r‖s‖v signature of `hash` (libsecp256k1 signs with a low s). */
function sign(): Uint8Array {
  const { signature, recid } = secp.ecdsaSign(hash, key);
  return Uint8Array.from([...signature, recid]);
}

function withS(sig: Uint8Array, s: bigint): Uint8Array {
  const out = Uint8Array.from(sig);
  out.set(Buffer.from(s.toString(16).padStart(64, '0'), 'hex'), 32);
  return out;
}

const refusal = (sig: Uint8Array) => {
  try {
    recoverPublicKey(hash, sig, true);
  } catch (err) {
    assert.ok(err instanceof FxError);
    return err.message;
  }
  return undefined;
};

describe('recoverPublicKey', () => {
  it('recovers a valid signature, with either recovery id', () => {
    const sig = sign();
    assert.ok(sig[64] === 0 || sig[64] === 1);
    assert.deepEqual(recoverPublicKey(hash, sig, true), secp.publicKeyCreate(key, true));
  });

  it('refuses a high s as mutated', () => {
    const sig = sign();
    const s = BigInt('0x' + Buffer.from(sig.subarray(32, 64)).toString('hex'));
    assert.equal(refusal(withS(sig, N - s)), 'signature was mutated from its original format');
  });

  it('an s at or past the group order is an invalid signature, as the reference reads s mod N', () => {
    // verifySECP256K1RSignatureFormat reduces s mod N (ModNScalar.SetByteSlice) before its
    // half-order check; decred's RecoverCompact then refuses the overflowing s.
    const sig = sign();
    assert.equal(refusal(withS(sig, N)), 'invalid signature');
    assert.equal(refusal(withS(sig, N + 1n)), 'invalid signature');
    assert.equal(refusal(withS(sig, 2n ** 256n - 1n)), 'invalid signature');
  });
});

describe('recoverSigner', () => {
  const address = (publicKey: Uint8Array) => ripemd160(sha256(publicKey));

  it('names the same signer when a signature is recovered again, and tells signatures apart', () => {
    const sig = sign();
    const signer = address(secp.publicKeyCreate(key, true));
    assert.deepEqual(recoverSigner(hash, sig), signer);
    assert.deepEqual(recoverSigner(hash, sig), signer);
    // The same signature over another hash recovers another key, not the one recovered before.
    const other = sha256(new TextEncoder().encode('another message'));
    assert.notDeepEqual(recoverSigner(other, sig), signer);
  });

  it('refuses a bad signature every time, even after its valid form was recovered', () => {
    const sig = sign();
    recoverSigner(hash, sig);
    const mutated = withS(sig, N - BigInt('0x' + Buffer.from(sig.subarray(32, 64)).toString('hex')));
    for (let i = 0; i < 2; i++)
      assert.throws(() => recoverSigner(hash, mutated), {
        name: 'FxError',
        message: 'signature was mutated from its original format',
      });
  });
});
