/**
 * Views of the world state: the live state the block producer mutates, and read-only copies at
 * any accepted block's root for calls, proofs and traces (their trie writes go to a scratch
 * overlay and are dropped).
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, CODEHASH_PREFIX, MerkleStateManager } from '@ethereumjs/statemanager';
import {
  Account,
  bytesToUnprefixedHex,
  concatBytes,
  createAccountFromRLP,
  hexToBytes,
  ValueEncoding,
} from '@ethereumjs/util';
import type { Address } from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import type { Common } from '@ethereumjs/common';
import type { TrieDb } from './trie-db.js';
import { keccak256 } from '../keccak.js';
// Asks once whether the engine's loggers colour their output, not once per trie made here.
import '../engine-debug.js';

/**
 * A state trie (account or, as the state manager copies it, storage) on `db`. Its keys are
 * hashed; each address and slot key hashed is noted as the hash's preimage (kept by the live
 * state's db only).
 */
export function trieAt(db: TrieDb, root: Uint8Array | undefined): MerklePatriciaTrie {
  return new MerklePatriciaTrie({
    db,
    valueEncoding: ValueEncoding.Bytes,
    useKeyHashing: true,
    useKeyHashingFunction: (key: Uint8Array) => {
      const hash = keccak256(key);
      if (key.length === 20 || key.length === 32) db.notePreimage(hash, key);
      return hash;
    },
    cacheSize: 0,
    root,
  });
}

export function stateManagerAt(
  common: Common,
  db: TrieDb,
  root: Uint8Array | undefined,
  caches = true,
): MerkleStateManager {
  return new MerkleStateManager({
    common,
    trie: trieAt(db, root),
    caches: caches ? new Caches() : undefined,
  });
}

/** The live state of the block producer (see `BlockStateManager`). */
export function blockStateAt(common: Common, db: TrieDb, root: Uint8Array | undefined): BlockStateManager {
  return new BlockStateManager({ common, trie: trieAt(db, root), caches: new Caches() });
}

/** The engine caches' internals this module relies on (ordered-map caches, the default). */
interface OrderedMapCache<V> {
  _orderedMapCache: { getElementByKey(key: string): V | undefined; setElement(key: string, value: V): void };
}

/**
 * The state the block producer runs a block's transactions on. The engine writes a state's
 * cached changes into the trie when each transaction commits, rehashing every touched path
 * once per transaction (the sender's and the fee recipient's paths as many times as the block
 * has transactions); here they reach the trie once per block, when the producer asks for the
 * state root. Reads the engine records as changes (an account, slot or code loaded into the
 * cache) are kept as clean cache entries instead, so only real changes are written back.
 *
 * Between transactions nothing differs for the engine: its caches hold every change, reads go
 * to the caches first, and the per-transaction bookkeeping (original storage values for gas
 * refunds, checkpoints and reverts) is kept. Caches must be the ordered-map kind (the default),
 * which never evicts an unwritten change.
 */
export class BlockStateManager extends MerkleStateManager {
  /**
   * Empties the caches once they hold more than `maxAccounts` accounts (they never evict). Call
   * only right after `getStateRoot`, when every change is in the trie.
   */
  trimCaches(maxAccounts: number): void {
    if ((this._caches?.account?.size() ?? 0) > maxAccounts) this._caches?.clear();
  }

  /** How many accounts the caches hold. */
  cachedAccounts(): number {
    return this._caches?.account?.size() ?? 0;
  }

  override async commit(): Promise<void> {
    await this._trie.commit();
    this._caches?.commit();
    this._checkpointCount--;
    if (this._checkpointCount === 0) this.originalStorageCache.clear();
  }

  override async revert(): Promise<void> {
    await this._trie.revert();
    this._caches?.revert();
    this._storageTries = {};
    this._checkpointCount--;
    if (this._checkpointCount === 0) this.originalStorageCache.clear();
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const cache = this._caches?.account as unknown as OrderedMapCache<{ accountRLP?: Uint8Array }>;
    const hex = bytesToUnprefixedHex(address.bytes);
    const elem = cache._orderedMapCache.getElementByKey(hex);
    if (elem !== undefined) return elem.accountRLP !== undefined ? accountOf(elem.accountRLP) : undefined;
    const rlp = await this._trie.get(address.bytes);
    cache._orderedMapCache.setElement(hex, { accountRLP: rlp ?? undefined });
    return rlp !== null ? accountOf(rlp) : undefined;
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    await super.putAccount(address, account);
    if (account === undefined) return;
    // The account just written is what its new encoding decodes to: the engine reads back the
    // accounts it writes (sender, recipient, fee recipient) within the same transaction.
    const cache = this._caches?.account as unknown as OrderedMapCache<{ accountRLP?: Uint8Array }>;
    const rlp = cache._orderedMapCache.getElementByKey(bytesToUnprefixedHex(address.bytes))?.accountRLP;
    if (rlp !== undefined) decoded.set(rlp, copyAccount(account));
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) return super.getStorage(address, key);
    const cache = this._caches?.storage as unknown as OrderedMapCache<Map<string, Uint8Array>>;
    const addressHex = bytesToUnprefixedHex(address.bytes);
    const keyHex = bytesToUnprefixedHex(key);
    let slots = cache._orderedMapCache.getElementByKey(addressHex);
    const cached = slots?.get(keyHex);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = await this.getAccount(address);
    if (!account) return new Uint8Array();
    const value = await this._getStorageTrie(address, account).get(key);
    // Loading the account may not have created the slot map; look it up again.
    slots = cache._orderedMapCache.getElementByKey(addressHex);
    if (!slots) {
      slots = new Map();
      cache._orderedMapCache.setElement(addressHex, slots);
    }
    slots.set(keyHex, value ?? EMPTY_SLOT);
    return RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = this._caches?.code as unknown as OrderedMapCache<{ code?: Uint8Array }>;
    const hex = bytesToUnprefixedHex(address.bytes);
    const elem = cache._orderedMapCache.getElementByKey(hex);
    if (elem !== undefined) return elem.code ?? new Uint8Array(0);
    const account = await this.getAccount(address);
    let code: Uint8Array = new Uint8Array(0);
    if (account?.isContract()) {
      const key = this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, account.codeHash) : account.codeHash;
      code = (await this._trie.database().get(key)) ?? code;
    }
    cache._orderedMapCache.setElement(hex, { code });
    return code;
  }
}

/**
 * The account a cached RLP encodes, decoded once per encoding (or known from the write that made
 * it): the engine reads the same accounts (sender, recipient, fee recipient) many times per
 * transaction, and each read decoded the RLP again (4-5% of an `eth_call` of a token's
 * `balanceOf`). The cache makes a new RLP on every write, so an encoding always means one account.
 */
const decoded = new WeakMap<Uint8Array, Account>();

/**
 * A fresh Account for `rlp`, as createAccountFromRLP makes it: callers change the account they
 * read (runTx bumps the sender's nonce and balance) before writing it back, so each read gets its
 * own object. The byte fields are shared, as the decoder shares them with the RLP.
 */
function accountOf(rlp: Uint8Array): Account {
  let account = decoded.get(rlp);
  if (account === undefined) {
    account = createAccountFromRLP(rlp);
    decoded.set(rlp, account);
  }
  return copyAccount(account);
}

/** What decoding the account's RLP gives: its four fields (a Merkle account has no code size). */
function copyAccount(account: Account): Account {
  return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
}

/** RLP of the empty string: how the engine's storage cache marks a slot known to be empty. */
const EMPTY_SLOT = hexToBytes('0x80');
