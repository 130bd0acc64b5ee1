/**
 * The root of an "ordered" Merkle-Patricia trie, the one a header's transactionsRoot and
 * receiptsRoot commit to: item i stored under the key RLP(i). The general trie
 * (@ethereumjs/mpt) builds it through an async node store, one put at a time, rewriting the
 * path of every insert; at a block's few transactions that cost more than running them. Here
 * the whole set is known up front, so the trie is laid out once, bottom-up, and each node is
 * encoded and hashed exactly once. The result is byte-for-byte the general trie's root (the
 * tests compare the two).
 */
import { RLP, type Input } from '@ethereumjs/rlp';
import { keccak256 } from '../keccak.js';

/** keccak256(RLP("")): the root of a trie with nothing in it. */
export const EMPTY_TRIE_ROOT = keccak256(RLP.encode(new Uint8Array()));

interface Item {
  nibbles: Uint8Array;
  value: Uint8Array;
}

function toNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i] >> 4;
    out[2 * i + 1] = key[i] & 0x0f;
  }
  return out;
}

/** The hex-prefix encoding of a path (Yellow Paper, appendix C): flag nibble, then the path. */
function hexPrefix(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  const flag = (leaf ? 2 : 0) + odd;
  let p = 0;
  if (odd) {
    out[0] = (flag << 4) | path[0];
    p = 1;
  } else {
    out[0] = flag << 4;
  }
  for (let i = 1; i < out.length; i++, p += 2) out[i] = (path[p] << 4) | path[p + 1];
  return out;
}

/** How a parent holds a child: the child's structure itself when its encoding is short, else its hash. */
function reference(node: Input[]): Input {
  const encoded = RLP.encode(node);
  return encoded.length < 32 ? node : keccak256(encoded);
}

/** The node over `items`, whose keys all agree on their first `depth` nibbles. */
function build(items: Item[], depth: number): Input[] {
  if (items.length === 1) {
    const { nibbles, value } = items[0];
    return [hexPrefix(nibbles.subarray(depth), true), value];
  }
  // The longest path every key shares beyond `depth` (an extension node when non-empty).
  let shared = 0;
  const first = items[0].nibbles;
  for (;;) {
    const at = depth + shared;
    if (at >= first.length) break;
    const nibble = first[at];
    if (!items.every((it) => it.nibbles.length > at && it.nibbles[at] === nibble)) break;
    shared++;
  }
  if (shared > 0) {
    const child = build(items, depth + shared);
    return [hexPrefix(first.subarray(depth, depth + shared), false), reference(child)];
  }
  const groups: Item[][] = Array.from({ length: 16 }, () => []);
  let value: Uint8Array = new Uint8Array();
  for (const it of items) {
    if (it.nibbles.length === depth) value = it.value;
    else groups[it.nibbles[depth]].push(it);
  }
  const branch: Input[] = groups.map((g) => (g.length ? reference(build(g, depth + 1)) : new Uint8Array()));
  branch.push(value);
  return branch;
}

/** The root of the trie holding `values[i]` under RLP(i). */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return EMPTY_TRIE_ROOT;
  const items = values.map((value, i) => ({ nibbles: toNibbles(RLP.encode(i)), value }));
  return keccak256(RLP.encode(build(items, 0)));
}
