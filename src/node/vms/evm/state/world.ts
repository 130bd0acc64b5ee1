/**
 * Views of the world state: the live state the block producer mutates, and read-only copies at
 * any accepted block's root for calls, proofs and traces (their trie writes go to a scratch
 * overlay and are dropped).
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { ValueEncoding } from '@ethereumjs/util';
import type { Common } from '@ethereumjs/common';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { TrieDb } from './trie-db.js';

export function stateManagerAt(
  common: Common,
  db: TrieDb,
  root: Uint8Array | undefined,
  caches = true,
): MerkleStateManager {
  const trie = new MerklePatriciaTrie({
    db,
    valueEncoding: ValueEncoding.Bytes,
    useKeyHashing: true,
    useKeyHashingFunction: keccak_256,
    cacheSize: 0,
    root,
  });
  return new MerkleStateManager({ common, trie, caches: caches ? new Caches() : undefined });
}
