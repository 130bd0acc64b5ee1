/**
 * A store holds one chain. The network check (`checkStoreNetwork`) cannot tell two devnets
 * apart: a devnet started again with `--reset` (or a fresh data dir) has the same network id and
 * the same well-known chain ids, and with the same seed even the same genesis block. Resuming the
 * store's checkpoint on such a node would append the new chain's blocks to the old chain's rows
 * (block 4 whose parent is not block 3, spends of outputs the store never saw). Accepted blocks
 * are final, so a block read whose parent differs from the block the store holds at the height
 * below can only be another chain: the indexer refuses it rather than mix the two.
 */
import type { Kysely } from 'kysely';
import type { DataSchema } from '../../store/schema.js';
import type { IndexReader } from './index-reader.js';
import { readContainerBlock } from './proposervm.js';

export class StoreChainMismatchError extends Error {
  override readonly name = 'StoreChainMismatchError';
  constructor(chain: 'X' | 'P', height: number, stored: string, node: string) {
    super(
      `the data store was indexed from another ${chain}-chain than the node serves (block ${height} is ` +
        `${stored} in the store, ${node} on the node; was the devnet reset?); use another database, ` +
        `or empty this one`,
    );
  }
}

async function storedBlockId(
  db: Kysely<DataSchema>,
  chainId: string,
  height: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('blocks')
    .select('block_id')
    .where('chain_id', '=', chainId)
    .where('height', '=', height)
    .executeTakeFirst();
  return row?.block_id;
}

/**
 * Throws when the first block of a batch about to be written does not build on the block the
 * store holds below it. A store without that row (an index that began above it) is not judged.
 */
export async function checkParent(
  db: Kysely<DataSchema>,
  chain: 'X' | 'P',
  chainId: string,
  block: { height: number; parentId: string },
): Promise<void> {
  if (block.height === 0) return;
  const stored = await storedBlockId(db, chainId, block.height - 1);
  if (stored !== undefined && stored !== block.parentId)
    throw new StoreChainMismatchError(chain, block.height - 1, stored, `the parent ${block.parentId}`);
}

/**
 * At start: the node's container at the last position both have (the store's last indexed one,
 * or the node's newest when the node has fewer) must be the block the store holds at its height.
 * This refuses a reset devnet at once, before it has grown past the store's checkpoint.
 */
export async function checkStoredChain(
  db: Kysely<DataSchema>,
  reader: IndexReader,
  chain: 'X' | 'P',
  chainId: string,
  next: number,
): Promise<void> {
  if (next <= 0) return;
  const last = await reader.lastIndex();
  const position = Math.min(next - 1, last);
  if (position < 0) return;
  const [container] = await reader.range(position, 1);
  if (!container) return;
  const { block, blockId } = readContainerBlock(chain, container.bytes);
  const height = Number(block.height);
  // The genesis block is the same for every devnet of one seed: it proves nothing. (An index
  // holds it at position 0 only in a Flurry data dir written before genesis was left out.)
  if (height === 0) return;
  const stored = await storedBlockId(db, chainId, height);
  if (stored !== undefined && stored !== blockId)
    throw new StoreChainMismatchError(chain, height, stored, blockId);
}
