/**
 * An EVM chain's rows in the store are one chain's. A devnet started again (`--reset`, a fresh
 * data dir) keeps its chain id and blockchain id, and with the same seed its genesis, so resuming
 * the checkpoint on it would append the new chain's blocks to the old one's. Accepted blocks are
 * final: a block whose parent is not the block the store holds below it is another chain, and the
 * indexer stops rather than mix the two (as `../primary/continuity.ts` does for X and P).
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../../store/schema.js';
import type { EvmRpcClient } from './rpc-client.js';

export class EvmChainMismatchError extends Error {
  override readonly name = 'EvmChainMismatchError';
  constructor(chain: number, number: number, stored: string, node: string) {
    super(
      `the data store was indexed from another EVM chain ${chain} than the node serves (block ${number} is ` +
        `${stored} in the store, ${node} on the node; was the devnet reset?); use another database, ` +
        `or empty this one`,
    );
  }
}

async function storedHash(
  db: Kysely<DataSchema>,
  chain: number,
  number: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('evm_blocks')
    .select('hash')
    .where('chain', '=', chain)
    .where('number', '=', number)
    .executeTakeFirst();
  return row?.hash;
}

/** Throws when the first block of a range about to be written does not build on the stored one. */
export async function checkEvmParent(
  db: Kysely<DataSchema>,
  chain: number,
  block: { number: number; parent_hash: string },
): Promise<void> {
  if (block.number === 0) return;
  const stored = await storedHash(db, chain, block.number - 1);
  if (stored !== undefined && stored.toLowerCase() !== block.parent_hash.toLowerCase())
    throw new EvmChainMismatchError(chain, block.number - 1, stored, `the parent ${block.parent_hash}`);
}

/**
 * At start: the node's block at the last height both have must be the stored one, so a reset
 * devnet is refused before it grows past the checkpoint. Block 0 (the same genesis) proves nothing.
 */
export async function checkEvmStoredChain(
  db: Kysely<DataSchema>,
  rpc: EvmRpcClient,
  chain: number,
  next: number,
): Promise<void> {
  if (next <= 1) return;
  const head = Number(BigInt(await rpc.call<string>('eth_blockNumber')));
  const number = Math.min(next - 1, head);
  if (number <= 0) return;
  const block = await rpc.call<{ hash: string } | null>('eth_getBlockByNumber', [
    '0x' + number.toString(16),
    false,
  ]);
  const stored = await storedHash(db, chain, number);
  if (block && stored !== undefined && stored.toLowerCase() !== block.hash.toLowerCase())
    throw new EvmChainMismatchError(chain, number, stored, block.hash);
}
