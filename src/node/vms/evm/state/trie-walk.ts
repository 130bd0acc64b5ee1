/**
 * Reading a trie's leaves in key order, as geth's trie iterators do: from a start key (the
 * state dump's `start`), and the leaves of one trie that another lacks or holds with a different
 * value (geth's difference iterator, what `debug_getModifiedAccounts*` is built on). Subtrees two
 * tries share are skipped by their hash, so comparing two states costs what changed between them.
 */
import {
  BranchMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  type MerklePatriciaTrie,
  type MPTNode,
  type NodeReferenceOrRawMPTNode,
} from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';

type Ref = NodeReferenceOrRawMPTNode;

export interface TrieLeaf {
  /** The leaf's full (hashed) key. */
  key: Uint8Array;
  value: Uint8Array;
}

/** The root as a node reference; undefined for the empty trie. */
export function rootRef(trie: MerklePatriciaTrie): Ref | undefined {
  const root = trie.root();
  return equalsBytes(root, KECCAK256_RLP) ? undefined : root;
}

function packNibbles(nibbles: number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i] << 4) | nibbles[2 * i + 1];
  return out;
}

export function unpackNibbles(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of bytes) out.push(b >> 4, b & 15);
  return out;
}

/** -1, 0 or 1 as `a` sorts before, level with or after the first `a.length` nibbles of `b`. */
function comparePrefix(a: number[], b: number[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * The leaves under `ref` (reached by the nibbles `path`) in key order, from the first whose key
 * is at or after `start` (nibbles; geth's NodeIterator seeks to it the same way).
 */
export async function* leavesFrom(
  trie: MerklePatriciaTrie,
  ref: Ref | undefined,
  start: number[] = [],
  path: number[] = [],
): AsyncGenerator<TrieLeaf> {
  if (ref === undefined) return;
  const node: MPTNode = await trie.lookupNode(ref);
  if (node instanceof LeafMPTNode) {
    const full = [...path, ...node.key()];
    if (comparePrefix(full, start) >= 0) yield { key: packNibbles(full), value: node.value() };
    return;
  }
  if (node instanceof ExtensionMPTNode) {
    const full = [...path, ...node.key()];
    const order = comparePrefix(full, start);
    if (order < 0) return;
    yield* leavesFrom(trie, node.value() as Ref, order === 0 ? start : [], full);
    return;
  }
  const branch = node as BranchMPTNode;
  // Still on the start key's path, only the children at or after its next nibble count.
  const bounded = comparePrefix(path, start) === 0 && start.length > path.length;
  for (let i = 0; i < 16; i++) {
    const child = branch.getBranch(i);
    if (child === null || (bounded && i < start[path.length])) continue;
    yield* leavesFrom(trie, child, bounded && i === start[path.length] ? start : [], [...path, i]);
  }
}

function sameRef(a: Ref | undefined, b: Ref | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return equalsBytes(a, b);
  if (a instanceof Uint8Array || b instanceof Uint8Array) return false;
  return equalsBytes(RLP.encode(a), RLP.encode(b));
}

/**
 * The leaves under `newer` that `older` lacks or holds with another value, in key order (geth's
 * NewDifferenceIterator(older, newer): leaves only `older` has are not reported). Both tries
 * read from the same node store, so a subtree with one hash in both is the same and skipped.
 */
export async function* changedLeaves(
  trie: MerklePatriciaTrie,
  older: Ref | undefined,
  newer: Ref | undefined,
  path: number[] = [],
): AsyncGenerator<TrieLeaf> {
  if (newer === undefined || sameRef(older, newer)) return;
  if (older !== undefined) {
    const [a, b] = [await trie.lookupNode(older), await trie.lookupNode(newer)];
    if (a instanceof BranchMPTNode && b instanceof BranchMPTNode) {
      for (let i = 0; i < 16; i++)
        yield* changedLeaves(trie, a.getBranch(i) ?? undefined, b.getBranch(i) ?? undefined, [...path, i]);
      return;
    }
    if (
      a instanceof ExtensionMPTNode &&
      b instanceof ExtensionMPTNode &&
      comparePrefix(a.key(), b.key()) === 0 &&
      a.key().length === b.key().length
    ) {
      yield* changedLeaves(trie, a.value() as Ref, b.value() as Ref, [...path, ...b.key()]);
      return;
    }
  }
  // The shapes differ here: compare the two subtrees' leaves (a small part of the trie).
  const before = new Map<string, string>();
  for await (const leaf of leavesFrom(trie, older, [], path))
    before.set(bytesToHex(leaf.key), bytesToHex(leaf.value));
  for await (const leaf of leavesFrom(trie, newer, [], path))
    if (before.get(bytesToHex(leaf.key)) !== bytesToHex(leaf.value)) yield leaf;
}
