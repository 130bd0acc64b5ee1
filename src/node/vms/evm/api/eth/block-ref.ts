/**
 * A block parameter resolved against the chain: which accepted block a reference names, and
 * the block whose state a read uses (refused in coreth's words when there is none).
 */
import { RpcCode, RpcError } from '../../../../rpc/errors.js';
import type { EvmChain } from '../../evm-chain.js';
import { blockRef, type BlockRef } from '../args.js';

export function resolveBlockNumber(chain: EvmChain, ref: BlockRef): bigint | undefined {
  const head = chain.latest.number;
  if (ref.kind === 'tag') return ref.tag === 'earliest' ? 0n : head;
  if (ref.kind === 'number') return ref.number <= head ? ref.number : undefined;
  return chain.store.numberOfHash(ref.hash);
}

/**
 * The block whose state a read uses, refused as coreth's StateAndHeaderByNumberOrHash refuses it
 * (without allow-unfinalized-queries): a number past the last accepted block is `cannot query
 * unfinalized data`, an unknown hash `header for hash not found`.
 */
export function stateBlockOf(chain: EvmChain, ref: BlockRef): bigint {
  const n = resolveBlockNumber(chain, ref);
  if (n !== undefined) return n;
  throw new RpcError(
    RpcCode.server,
    ref.kind === 'hash' ? 'header for hash not found' : 'cannot query unfinalized data',
  );
}

export function stateBlock(chain: EvmChain, params: unknown[], i: number): bigint {
  return stateBlockOf(chain, blockRef(params, i));
}
