/** Primary-network blocks (X and P), newest first, and the transactions each holds. */
import type { Kysely, Selectable } from 'kysely';
import { cutPage } from '../keyset-page.js';
import type { BlockTable, DataSchema } from '../schema.js';

export type BlockRow = Selectable<BlockTable>;

/** Transaction order key within a chain: height × SEQ_PER_BLOCK + position (see decode.ts). */
const SEQ_PER_BLOCK = 1_000_000;

/**
 * One page of a chain's blocks, newest first, keyset on the height (the primary key), with the
 * optional time window in the same index range: block times never decrease with the height, so
 * the window is also a height range (index `blocks_by_time` finds its ends). With
 * `proposerNodeId`, only the blocks that node signed: one range of `blocks_by_proposer`.
 */
export async function listBlocks(
  db: Kysely<DataSchema>,
  q: {
    chainId: string;
    proposerNodeId?: string;
    startTimestamp?: number;
    endTimestamp?: number;
    beforeHeight?: number;
    limit: number;
  },
): Promise<{ rows: BlockRow[]; next?: number }> {
  let sel = db.selectFrom('blocks').selectAll().where('chain_id', '=', q.chainId);
  if (q.proposerNodeId !== undefined) sel = sel.where('proposer_node_id', '=', q.proposerNodeId);
  if (q.beforeHeight !== undefined) sel = sel.where('height', '<', q.beforeHeight);
  if (q.startTimestamp !== undefined) {
    const first = await db
      .selectFrom('blocks')
      .select('height')
      .where('chain_id', '=', q.chainId)
      .where('timestamp', '>=', q.startTimestamp)
      .orderBy('timestamp')
      .orderBy('height')
      .limit(1)
      .executeTakeFirst();
    if (!first) return { rows: [] };
    sel = sel.where('height', '>=', Number(first.height)).where('timestamp', '>=', q.startTimestamp);
  }
  if (q.endTimestamp !== undefined) {
    const last = await db
      .selectFrom('blocks')
      .select('height')
      .where('chain_id', '=', q.chainId)
      .where('timestamp', '<=', q.endTimestamp)
      .orderBy('timestamp', 'desc')
      .orderBy('height', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return { rows: [] };
    sel = sel.where('height', '<=', Number(last.height)).where('timestamp', '<=', q.endTimestamp);
  }
  const rows = await sel
    .orderBy('height', 'desc')
    .limit(q.limit + 1)
    .execute();
  return cutPage(rows, q.limit, (last) => Number(last.height));
}

/** A block of the chain by height or by id; undefined when not indexed. */
export async function getBlock(
  db: Kysely<DataSchema>,
  chainId: string,
  by: { height: number } | { blockId: string },
): Promise<BlockRow | undefined> {
  let sel = db.selectFrom('blocks').selectAll().where('chain_id', '=', chainId);
  sel = 'height' in by ? sel.where('height', '=', by.height) : sel.where('block_id', '=', by.blockId);
  return sel.executeTakeFirst();
}

/**
 * The transaction ids of each block in `rows`, in block order: one range of the chain's
 * transaction order index (`transactions_by_seq`) covering the page's heights.
 */
export async function transactionsOfBlocks(
  db: Kysely<DataSchema>,
  chainId: string,
  rows: BlockRow[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(rows.map((r) => [Number(r.height), []]));
  const withTxs = rows.filter((r) => Number(r.tx_count) > 0).map((r) => Number(r.height));
  if (withTxs.length === 0) return out;
  const txs = await db
    .selectFrom('transactions')
    .select(['tx_hash', 'seq'])
    .where('chain_id', '=', chainId)
    .where('seq', '>=', Math.min(...withTxs) * SEQ_PER_BLOCK)
    .where('seq', '<', (Math.max(...withTxs) + 1) * SEQ_PER_BLOCK)
    .orderBy('seq')
    .execute();
  for (const t of txs) out.get(Math.floor(Number(t.seq) / SEQ_PER_BLOCK))?.push(t.tx_hash);
  return out;
}
