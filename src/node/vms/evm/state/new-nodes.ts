/**
 * Which of a block's trie writes its new state actually needs. The engine's trie stores every
 * node it rehashes, so each update of an account also stores a root and upper branches that the
 * next update of the same block replaces: a block of ten account updates writes the root ten
 * times. Walking the new state from its root through the nodes written since the last block
 * (older nodes are already stored, and so is everything below them) keeps only the nodes the
 * state refers to — the account trie, the storage tries its accounts name and their code —
 * which is all a later block, a restart or a proof can reach.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToUnprefixedHex, KECCAK256_NULL } from '@ethereumjs/util';

type RlpItem = Uint8Array | RlpItem[];

/** Prefix of code entries in the trie DB (the engine's `CODEHASH_PREFIX`, "c"). */
const CODE_PREFIX_HEX = '63';
const EMPTY_CODE_HEX = bytesToUnprefixedHex(KECCAK256_NULL);

/**
 * The entries of `written` reachable from `root`, in the order found. Nodes are referred to by
 * their keccak hash (32 bytes) or embedded in their parent when their encoding is shorter.
 */
export function reachableWrites(
  root: Uint8Array,
  written: ReadonlyMap<string, Uint8Array>,
): Map<string, Uint8Array> {
  const keep = new Map<string, Uint8Array>();

  const visitRef = (ref: RlpItem, accounts: boolean): void => {
    if (Array.isArray(ref)) return visitNode(ref, accounts);
    if (ref.length !== 32) return;
    const key = bytesToUnprefixedHex(ref);
    if (keep.has(key)) return;
    const encoded = written.get(key);
    // Not written in this block: stored before, with everything below it.
    if (encoded === undefined) return;
    keep.set(key, encoded);
    visitNode(RLP.decode(encoded) as RlpItem[], accounts);
  };

  const visitNode = (node: RlpItem[], accounts: boolean): void => {
    if (node.length === 17) {
      for (let i = 0; i < 16; i++) visitRef(node[i], accounts);
      return;
    }
    if (node.length !== 2) return;
    const path = node[0] as Uint8Array;
    const isLeaf = path.length > 0 && path[0] >> 4 >= 2;
    if (!isLeaf) return visitRef(node[1], accounts);
    if (accounts) visitAccount(node[1] as Uint8Array);
  };

  const visitAccount = (value: Uint8Array): void => {
    const [, , storageRoot, codeHash] = RLP.decode(value) as Uint8Array[];
    visitRef(storageRoot, false);
    const codeKey = CODE_PREFIX_HEX + bytesToUnprefixedHex(codeHash);
    if (codeKey.slice(2) !== EMPTY_CODE_HEX) {
      const code = written.get(codeKey);
      if (code !== undefined) keep.set(codeKey, code);
    }
  };

  visitRef(root, true);
  return keep;
}
