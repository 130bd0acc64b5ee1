/**
 * Reading a state manager's current state without waiting, for a JavaScript tracer's `db`
 * object: the tracer's code is synchronous and asks in the middle of a step, where the engine's
 * own reads are promises. What the engine's caches hold (everything the transaction touched or
 * changed) answers first, as in the engine's own reads; anything else is looked up in the trie
 * nodes, which the node's trie db serves synchronously from its pending writes and SQLite.
 */
import {
  BranchMPTNode,
  decodeMPTNode,
  decodeRawMPTNode,
  LeafMPTNode,
  type MerklePatriciaTrie,
  type NodeReferenceOrRawMPTNode,
} from '@ethereumjs/mpt';
import { CODEHASH_PREFIX, type MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import {
  bytesToUnprefixedHex,
  concatBytes,
  createAccountFromRLP,
  equalsBytes,
  KECCAK256_RLP,
  type Account,
  type Address,
} from '@ethereumjs/util';
import { keccak256 } from '../keccak.js';
import { unpackNibbles } from './trie-walk.js';

/** The engine's state manager internals read here (@ethereumjs/statemanager, version pinned). */
interface StateInternals {
  _trie: MerklePatriciaTrie;
  _storageTries: Record<string, MerklePatriciaTrie>;
  _prefixCodeHashes: boolean;
  _caches?: {
    account?: { get(a: Address): { accountRLP?: Uint8Array } | undefined };
    storage?: { get(a: Address, key: Uint8Array): Uint8Array | undefined };
    code?: { get(a: Address): { code?: Uint8Array } | undefined };
  };
}

/** A trie's node store: the checkpoint layers over the node's trie db. */
interface CheckpointStore {
  checkpoints: { keyValueMap: Map<string, Uint8Array | undefined> }[];
  db: { getNow?(key: string): Uint8Array | undefined };
}

export class SyncStateReader {
  private readonly state: StateInternals;

  constructor(state: MerkleStateManager) {
    this.state = state as unknown as StateInternals;
  }

  account(address: Address): Account | undefined {
    const cached = this.state._caches?.account?.get(address);
    if (cached !== undefined)
      return cached.accountRLP !== undefined ? createAccountFromRLP(cached.accountRLP) : undefined;
    const rlp = trieGet(this.state._trie, this.state._trie.root(), keccak256(address.bytes));
    return rlp !== undefined ? createAccountFromRLP(rlp) : undefined;
  }

  /** The slot's value without leading zeros (empty when unset), as the engine's getStorage. */
  storage(address: Address, key: Uint8Array): Uint8Array {
    const cached = this.state._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = this.account(address);
    if (!account) return new Uint8Array();
    // The engine reads through the storage trie it keeps for the account, when it has one.
    const trie = this.state._storageTries[bytesToUnprefixedHex(keccak256(address.bytes))];
    const value = trieGet(this.state._trie, trie?.root() ?? account.storageRoot, keccak256(key));
    return RLP.decode(value ?? new Uint8Array()) as Uint8Array;
  }

  code(address: Address): Uint8Array {
    const cached = this.state._caches?.code?.get(address);
    if (cached !== undefined) return cached.code ?? new Uint8Array();
    const account = this.account(address);
    if (!account?.isContract()) return new Uint8Array();
    const key = this.state._prefixCodeHashes
      ? concatBytes(CODEHASH_PREFIX, account.codeHash)
      : account.codeHash;
    return nodeBytes(this.state._trie, key) ?? new Uint8Array();
  }
}

/** A stored value by its key (a node hash or a code hash), newest checkpoint first. */
function nodeBytes(trie: MerklePatriciaTrie, key: Uint8Array): Uint8Array | undefined {
  const store = trie.database() as unknown as CheckpointStore;
  const hex = bytesToUnprefixedHex(key);
  for (let i = store.checkpoints.length - 1; i >= 0; i--) {
    const layer = store.checkpoints[i].keyValueMap;
    if (layer.has(hex)) return layer.get(hex);
  }
  if (!store.db.getNow) throw new Error('state is not readable synchronously');
  return store.db.getNow(hex);
}

/** The value under the (already hashed) `key` in the trie with root `root`, read synchronously. */
function trieGet(trie: MerklePatriciaTrie, root: Uint8Array, key: Uint8Array): Uint8Array | undefined {
  if (equalsBytes(root, KECCAK256_RLP)) return undefined;
  const path = unpackNibbles(key);
  let ref: NodeReferenceOrRawMPTNode = root;
  let at = 0;
  for (;;) {
    let node;
    if (ref instanceof Uint8Array) {
      const bytes = nodeBytes(trie, ref);
      if (bytes === undefined) throw new Error(`missing trie node ${bytesToUnprefixedHex(ref)}`);
      node = decodeMPTNode(bytes);
    } else node = decodeRawMPTNode(ref as Uint8Array[]);
    if (node instanceof BranchMPTNode) {
      if (at === path.length) return node.value() ?? undefined;
      const child = node.getBranch(path[at++]);
      if (child === null) return undefined;
      ref = child;
      continue;
    }
    const nibbles = node.key();
    for (let i = 0; i < nibbles.length; i++) if (path[at + i] !== nibbles[i]) return undefined;
    at += nibbles.length;
    if (node instanceof LeafMPTNode) return at === path.length ? node.value() : undefined;
    ref = node.value() as NodeReferenceOrRawMPTNode;
  }
}
