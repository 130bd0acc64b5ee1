/**
 * Block type and size of rows indexed before they were recorded (migration 0012): the indexer
 * reads each such block's container again by id (`index.getContainerByID`) and fills them in,
 * a few hundred rows at a time, in the background. A store indexed since has nothing to fill.
 * Such rows come from a Flurry node, whose container ids are the block ids (no proposervm).
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../../shared/logger.js';
import type { NodeClient } from '../../internal/node-client.js';
import type { DataSchema } from '../../store/schema.js';
import { proposerColumns } from './decode.js';
import { createIndexReader } from './index-reader.js';
import { readContainerBlock } from './proposervm.js';

const ROWS_PER_ROUND = 200;

export async function fillBlockDetails(
  db: Kysely<DataSchema>,
  node: NodeClient,
  source: { name: string; chain: 'X' | 'P'; chainId: string },
  stopped: () => boolean,
  logger?: Logger,
): Promise<void> {
  const reader = createIndexReader(node, source.name);
  let filled = 0;
  while (!stopped()) {
    const rows = await db
      .selectFrom('blocks')
      .select(['height', 'block_id'])
      .where('chain_id', '=', source.chainId)
      .where('block_type', 'is', null)
      .limit(ROWS_PER_ROUND)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      if (stopped()) return;
      const c = await reader.byId(row.block_id);
      const read = readContainerBlock(source.chain, c.bytes);
      await db
        .updateTable('blocks')
        .set({
          block_type: read.block.typeName,
          size_bytes: read.bytes.length,
          ...proposerColumns(read.proposer),
        })
        .where('chain_id', '=', source.chainId)
        .where('height', '=', row.height)
        .execute();
      filled++;
    }
  }
  if (filled > 0) logger?.info({ source: source.name, blocks: filled }, 'block types and sizes filled in');
}
