import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { EMPTY_TRIE_ROOT, orderedTrieRoot } from './ordered-trie.js';

/** The general trie's root for the same items, one put at a time (what blocks used before). */
async function reference(values: Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie();
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]);
  return bytesToHex(trie.root());
}

/** Deterministic bytes of length `n` (a simple LCG), so failures reproduce. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('orderedTrieRoot', () => {
  it('is the empty trie root for no items', async () => {
    assert.equal(bytesToHex(orderedTrieRoot([])), await reference([]));
    assert.equal(
      bytesToHex(EMPTY_TRIE_ROOT),
      '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    );
  });

  it('matches the general trie for every count up to 300, across RLP(i) key lengths', async () => {
    for (const size of [1, 2, 3, 15, 16, 17, 127, 128, 129, 130, 255, 256, 257, 300]) {
      // Large values (hashed children) and tiny ones (children embedded in their parent).
      for (const len of [1, 3, 40, 120]) {
        const values = Array.from({ length: size }, (_, i) => bytes(len + (i % 7), size * 1000 + len + i));
        assert.equal(
          bytesToHex(orderedTrieRoot(values)),
          await reference(values),
          `${size} items of ~${len} bytes`,
        );
      }
    }
  });

  it('matches the general trie for a mix of value lengths', async () => {
    for (let seed = 0; seed < 40; seed++) {
      const size = 1 + ((seed * 37) % 200);
      const values = Array.from({ length: size }, (_, i) =>
        bytes(1 + ((seed + i * 13) % 90), seed * 7919 + i),
      );
      assert.equal(bytesToHex(orderedTrieRoot(values)), await reference(values), `seed ${seed}`);
    }
  });
});
