/**
 * coreth's `debug_` methods that read whole states (eth/api_debug.go): `dumpBlock` and
 * `accountRange` (geth's state dump), `getModifiedAccountsByNumber`/`ByHash` (the accounts whose
 * leaf differs between two blocks' state tries), `preimage`, `getAccessibleState`. The node
 * keeps the preimages of its state tries' keys, as coreth with `preimages-enabled`, so dumps and
 * diffs name addresses and slots.
 */
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import {
  bytesToHex,
  bytesToUnprefixedHex,
  concatBytes,
  createAccountFromRLP,
  equalsBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
  toChecksumAddress,
} from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { changedLeaves, leavesFrom, rootRef, unpackNibbles } from '../state/trie-walk.js';
import {
  arity,
  blockNumberRef,
  blockRefOrNeither,
  bool,
  data,
  goInteger,
  hash,
  type BlockRef,
} from './args.js';

const server = (message: string) => new RpcError(RpcCode.server, message);

/** coreth's AccountRangeMaxResults: the most accounts one dump answers with. */
const ACCOUNT_RANGE_MAX = 256;

interface DumpConfig {
  skipCode: boolean;
  skipStorage: boolean;
  onlyWithAddresses: boolean;
  start: Uint8Array;
  max: number;
}

/** geth's DumpAccount, its keys in geth's order. */
type DumpAccount = Record<string, unknown>;

/** geth's StateDB.RawDump: the accounts of the trie from `start`, in hashed-key order. */
async function rawDump(chain: EvmChain, n: bigint, conf: DumpConfig) {
  const trie = chain.stateTrieAt(n);
  const accounts: Record<string, DumpAccount> = {};
  let next: string | undefined;
  let count = 0;
  for await (const leaf of leavesFrom(trie, rootRef(trie), unpackNibbles(conf.start))) {
    if (count >= conf.max) {
      // encoding/json writes the []byte `next` in base64.
      next = Buffer.from(leaf.key).toString('base64');
      break;
    }
    const address = chain.preimage(leaf.key);
    if (!address && conf.onlyWithAddresses) continue;
    const account = createAccountFromRLP(leaf.value);
    const entry: DumpAccount = {
      balance: account.balance.toString(),
      nonce: Number(account.nonce),
      root: bytesToHex(account.storageRoot),
      codeHash: bytesToHex(account.codeHash),
    };
    if (!conf.skipCode && !equalsBytes(account.codeHash, KECCAK256_NULL)) {
      const code = await trie.database().get(concatBytes(CODEHASH_PREFIX, account.codeHash));
      if (code?.length) entry.code = bytesToHex(code);
    }
    if (!conf.skipStorage && !equalsBytes(account.storageRoot, KECCAK256_RLP)) {
      entry.storage = await storageOf(chain, trie, account.storageRoot);
    }
    if (address) entry.address = bytesToHex(address);
    entry.key = bytesToHex(leaf.key);
    accounts[address ? toChecksumAddress(bytesToHex(address)) : `pre(${bytesToHex(leaf.key)})`] = entry;
    count++;
  }
  const header = chain.headerAt(n)!.header;
  return {
    root: bytesToUnprefixedHex(header.stateRoot),
    accounts,
    ...(next !== undefined ? { next } : {}),
  };
}

/** A dumped account's slots: each slot key (zero when unknown, as geth) → its value's bytes, bare hex. */
async function storageOf(chain: EvmChain, trie: MerklePatriciaTrie, root: Uint8Array) {
  const storage: Record<string, string> = {};
  const storageTrie = trie.shallowCopy(false);
  storageTrie.root(root);
  for await (const leaf of leavesFrom(storageTrie, root)) {
    const key = chain.preimage(leaf.key) ?? new Uint8Array(32);
    storage[bytesToHex(key)] = bytesToUnprefixedHex(RLP.decode(leaf.value) as Uint8Array);
  }
  return storage;
}

/** coreth's block lookup for dumps: a tag is the last accepted block, a number must exist. */
function dumpBlockNumber(chain: EvmChain, ref: BlockRef): bigint {
  if (ref.kind === 'tag') return ref.tag === 'earliest' ? 0n : chain.latest.number;
  if (ref.kind === 'number') {
    if (ref.number > chain.latest.number) throw server(`block #${ref.number} not found`);
    return ref.number;
  }
  const n = chain.store.numberOfHash(ref.hash);
  if (n === undefined) throw server(`block ${bytesToHex(ref.hash)} not found`);
  return n;
}

/** coreth's getModifiedAccounts: the addresses whose account leaf is new or changed at `end`. */
async function modifiedAccounts(chain: EvmChain, start: bigint, end: bigint): Promise<string[] | null> {
  if (start >= end) throw server(`start block height (${start}) must be less than end block height (${end})`);
  const older = chain.stateTrieAt(start);
  const newer = chain.stateTrieAt(end);
  const dirty: string[] = [];
  for await (const leaf of changedLeaves(newer, rootRef(older), rootRef(newer))) {
    const address = chain.preimage(leaf.key);
    if (!address) throw server(`no preimage found for hash ${bytesToUnprefixedHex(leaf.key)}`);
    dirty.push(bytesToHex(address));
  }
  // A nil slice: JSON null when nothing changed.
  return dirty.length ? dirty : null;
}

export function createDebugStateApi(chain: EvmChain): Record<string, EvmHandler> {
  const numberOfHash = (hash: Uint8Array) => chain.store.numberOfHash(hash);
  return {
    debug_dumpBlock: async (params) => {
      arity(params, 1, 1); // a null block number is hex text to rpc.BlockNumber
      const ref = blockNumberRef(params, 0);
      return rawDump(chain, dumpBlockNumber(chain, ref), {
        skipCode: false,
        skipStorage: false,
        onlyWithAddresses: true,
        start: new Uint8Array(),
        max: ACCOUNT_RANGE_MAX,
      });
    },
    debug_accountRange: async (params) => {
      // Every argument is a Go value, none a pointer: all six are required.
      arity(params, 6, 6);
      const ref = blockRefOrNeither(params, 0);
      // hexutil.Bytes reads a JSON null with its UnmarshalJSON, which refuses it (non-string).
      const start = data(params, 1);
      const maxResults = goInteger(params, 2, 'int');
      const [nocode, nostorage, incompletes] = [bool(params, 3), bool(params, 4), bool(params, 5)];
      // A null (or `{}`) block names neither: coreth's AccountRange words it itself.
      if (!ref) throw server('either block number or block hash must be specified');
      return rawDump(chain, dumpBlockNumber(chain, ref), {
        skipCode: nocode,
        skipStorage: nostorage,
        onlyWithAddresses: !incompletes,
        start,
        max: maxResults > ACCOUNT_RANGE_MAX || maxResults <= 0 ? ACCOUNT_RANGE_MAX : Number(maxResults),
      });
    },
    debug_getModifiedAccountsByNumber: async (params) => {
      arity(params, 2, 1);
      const startNum = goInteger(params, 0, 'uint64');
      const head = chain.latest.number;
      if (startNum > head) throw server(`start block ${startNum.toString(16)} not found`);
      if (params[1] === undefined || params[1] === null) {
        if (startNum === 0n) throw server('block 0 has no parent');
        return modifiedAccounts(chain, startNum - 1n, startNum);
      }
      const endNum = goInteger(params, 1, 'uint64');
      if (endNum > head) throw server(`end block ${endNum} not found`);
      return modifiedAccounts(chain, startNum, endNum);
    },
    debug_getModifiedAccountsByHash: async (params) => {
      arity(params, 2, 1);
      const startHash = hash(params, 0);
      const start = numberOfHash(startHash);
      if (start === undefined) throw server(`start block ${bytesToUnprefixedHex(startHash)} not found`);
      if (params[1] === undefined || params[1] === null) {
        if (start === 0n) throw server('block 0 has no parent');
        return modifiedAccounts(chain, start - 1n, start);
      }
      const endHash = hash(params, 1);
      const end = numberOfHash(endHash);
      if (end === undefined) throw server(`end block ${bytesToUnprefixedHex(endHash)} not found`);
      return modifiedAccounts(chain, start, end);
    },
    /** The preimage of a hash the state tries were keyed by (an address or a slot key). */
    debug_preimage: (params) => {
      arity(params, 1, 1);
      const found = chain.preimage(hash(params, 0));
      if (!found) throw server('unknown preimage');
      return bytesToHex(found);
    },
    /**
     * The first block between `from` and `to` whose state is on disk: every accepted block's
     * state is kept (the node is archival), so it is `from` once it exists.
     */
    debug_getAccessibleState: (params) => {
      arity(params, 2, 2);
      const number = (i: number) => {
        const ref = blockNumberRef(params, i);
        if (ref.kind === 'number') return ref.number;
        // `earliest` is block 0; every other tag is a negative number, read as the current block.
        return ref.tag === 'earliest' ? 0n : chain.latest.number;
      };
      const [from, to] = [number(0), number(1)];
      if (from === to) throw server('from and to needs to be different');
      if (from > chain.latest.number) throw server(`missing header ${from}`);
      return Number(from);
    },
  };
}
