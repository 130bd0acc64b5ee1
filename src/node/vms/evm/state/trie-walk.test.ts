/**
 * The trie walks behind the state dump and the modified-account lists, checked against plain
 * sorting and comparing of every leaf, on tries whose shapes differ (keys added, removed and
 * changed, sharing prefixes so branches, extensions and leaves replace one another).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex } from '@ethereumjs/util';
import { changedLeaves, leavesFrom, rootRef, unpackNibbles } from './trie-walk.js';

/** A deterministic pseudo-random source (xorshift), so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** 32-byte keys, often sharing a first byte or two so the trie grows extensions. */
function keyOf(next: () => number): Uint8Array {
  const key = Uint8Array.from({ length: 32 }, () => Math.floor(next() * 256));
  if (next() < 0.5) key[0] = 0xab;
  if (next() < 0.3) key[1] = 0xcd;
  return key;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('trie walks', () => {
  it('lists the leaves from a start key, and the leaves one trie changed from another', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = random(seed * 7919);
      const older = new MerklePatriciaTrie();
      const before = new Map<string, string>();
      for (let i = 0; i < 40; i++) {
        const key = keyOf(next);
        const value = Uint8Array.from({ length: 1 + Math.floor(next() * 40) }, () => i + 1);
        await older.put(key, value);
        before.set(bytesToHex(key), bytesToHex(value));
      }
      const newer = older.shallowCopy(false);
      const after = new Map(before);
      const keys = [...before.keys()];
      for (let i = 0; i < 10; i++) {
        const roll = next();
        if (roll < 0.3) {
          const key = keys[Math.floor(next() * keys.length)];
          await newer.del(Uint8Array.from(Buffer.from(key.slice(2), 'hex')));
          after.delete(key);
        } else {
          const key = roll < 0.6 ? Uint8Array.from(Buffer.from(keys[i].slice(2), 'hex')) : keyOf(next);
          const value = Uint8Array.from([0xee, i, seed]);
          await newer.put(key, value);
          after.set(bytesToHex(key), bytesToHex(value));
        }
      }
      const sorted = [...after.keys()].sort();
      const all = await collect(leavesFrom(newer, rootRef(newer)));
      assert.deepEqual(
        all.map((l) => bytesToHex(l.key)),
        sorted,
      );
      // From a start key: one that exists, one between keys, and a short prefix.
      for (const start of [sorted[5], sorted[7].slice(0, -2) + '00', '0xab']) {
        const from = await collect(
          leavesFrom(newer, rootRef(newer), unpackNibbles(Buffer.from(start.slice(2), 'hex'))),
        );
        assert.deepEqual(
          from.map((l) => bytesToHex(l.key)),
          sorted.filter((k) => k >= start || k.startsWith(start)),
          `seed ${seed}, start ${start}`,
        );
      }
      const changed = await collect(changedLeaves(newer, rootRef(older), rootRef(newer)));
      assert.deepEqual(
        changed.map((l) => bytesToHex(l.key)),
        sorted.filter((k) => before.get(k) !== after.get(k)),
        `seed ${seed}`,
      );
      // Against itself nothing changed; against the empty trie, everything is new.
      assert.deepEqual(await collect(changedLeaves(newer, rootRef(newer), rootRef(newer))), []);
      assert.equal((await collect(changedLeaves(newer, undefined, rootRef(newer)))).length, sorted.length);
    }
  });
});
