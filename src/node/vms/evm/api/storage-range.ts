/**
 * geth's `debug_storageRangeAt` (what Remix's and Truffle's debuggers read a contract's storage
 * with): a page of a contract's storage as it stood before transaction `txIndex` of a block, in
 * the storage trie's order of hashed slot keys, with the key to ask for next. Each entry's `key`
 * is the slot key behind the hash, from the preimages the node keeps (as a coreth node with
 * `preimages-enabled`); null for a slot written before the node kept them.
 */
import { RLP } from '@ethereumjs/rlp';
import {
  Address,
  bytesToHex,
  equalsBytes,
  hexToBytes,
  KECCAK256_RLP,
  setLengthLeft,
  setLengthRight,
} from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { address, arity, blockRefOrNeither, data, goInteger, neitherBlockNorHash } from './args.js';
import { blockReplay } from './block-replay.js';
import { resolveBlockNumber } from './eth/block-ref.js';

export function storageRangeAt(chain: EvmChain): EvmHandler {
  return async (params) => {
    // Every argument is a Go value: all five are required, a null is decoded, never missing.
    arity(params, 5, 5);
    const block = blockRefOrNeither(params, 0);
    const txIndex = goInteger(params, 1, 'int');
    const contract = new Address(address(params, 2));
    // The trie iterator seeks to the first key at or after the given bytes (a prefix).
    const start = setLengthRight(data(params, 3).slice(0, 32), 32);
    const maxResult = goInteger(params, 4, 'int');
    const ref = block ?? neitherBlockNorHash();
    const n = resolveBlockNumber(chain, ref);
    if (n === undefined) {
      const named =
        ref.kind === 'hash' ? bytesToHex(ref.hash) : ref.kind === 'number' ? String(ref.number) : ref.tag;
      throw new RpcError(RpcCode.server, `block ${named} not found`);
    }
    // coreth's stateAtTransaction.
    if (n === 0n) throw new RpcError(RpcCode.server, 'no transaction in genesis');
    const replay = blockReplay(chain, n)!;
    if (txIndex < 0n || txIndex >= replay.txs.length) {
      const hash = chain.headerAt(n)!.hash;
      throw new RpcError(
        RpcCode.server,
        `transaction index ${txIndex} out of range for block ${bytesToHex(hash)}`,
      );
    }
    const { vm, state } = await replay.fresh();
    await replay.runPrefix(vm, Number(txIndex));
    const account = await state.getAccount(contract);
    if (!account || equalsBytes(account.storageRoot, KECCAK256_RLP)) return { storage: null, nextKey: null };
    const page = await state.dumpStorageRange(
      contract,
      BigInt(bytesToHex(start)),
      Math.max(Number(maxResult), 0),
    );
    const storage: Record<string, { key: string | null; value: string }> = {};
    for (const [key, { value }] of Object.entries(page.storage)) {
      const slot = chain.preimage(hexToBytes(key as `0x${string}`));
      storage[key] = {
        key: slot ? bytesToHex(slot) : null,
        value: bytesToHex(setLengthLeft(RLP.decode(hexToBytes(value as `0x${string}`)) as Uint8Array, 32)),
      };
    }
    return { storage, nextKey: page.nextKey };
  };
}
