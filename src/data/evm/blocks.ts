/**
 * EVM blocks as the real service shows them (EvmBlock): the newest first with a keyset cursor on
 * the block number, and one block by number or hash; the newest blocks and transactions across
 * chains.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DataSchema } from '../store/schema.js';
import type { EvmBlockTable } from '../store/schema-evm.js';
import { InvalidParameterError, NotFoundError } from '../internal/errors.js';
import { nativeTxItem } from './items.js';
import { cutPage } from '../store/keyset-page.js';

/** EvmBlock of the real service from a stored row. */
export function evmBlockItem(r: Selectable<EvmBlockTable>) {
  return {
    chainId: String(r.chain),
    blockNumber: String(r.number),
    blockTimestamp: Number(r.timestamp),
    blockHash: r.hash,
    txCount: Number(r.tx_count),
    baseFee: r.base_fee,
    gasUsed: String(r.gas_used),
    gasLimit: r.gas_limit,
    gasCost: r.gas_cost,
    parentHash: r.parent_hash,
    feesSpent: r.fees_spent,
    cumulativeTransactions: String(r.cumulative_txs),
  };
}

/** `{blockId}`: a decimal block number or a 32-byte block hash. */
export function parseBlockId(value: string): { number: number } | { hash: string } {
  if (/^\d{1,15}$/.test(value)) return { number: Number(value) };
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { hash: value.toLowerCase() };
  throw new InvalidParameterError(
    `invalid blockId "${value}": expected a block number or 0x and 64 hex digits`,
  );
}

export async function latestBlocks(
  db: Kysely<DataSchema>,
  args: { chain: number; after?: number; limit: number },
): Promise<{ items: ReturnType<typeof evmBlockItem>[]; next?: number }> {
  let q = db.selectFrom('evm_blocks').selectAll().where('chain', '=', args.chain);
  if (args.after !== undefined) q = q.where('number', '<', args.after);
  const rows = await q
    .orderBy('number', 'desc')
    .limit(args.limit + 1)
    .execute();
  const page = rows.slice(0, args.limit);
  return {
    items: page.map(evmBlockItem),
    next: rows.length > args.limit ? Number(page[page.length - 1].number) : undefined,
  };
}

/**
 * The newest blocks of the indexed chains but `exclude`, keyset on (timestamp, chain, number),
 * newest first: one range of the `evm_blocks_by_time` index. (The filter names the chains left
 * out: with `chain in (…)` SQLite reads the primary key and sorts.)
 */
export async function latestBlocksAcrossChains(
  db: Kysely<DataSchema>,
  args: { exclude?: number[]; after?: [number, number, number]; limit: number },
): Promise<{ items: ReturnType<typeof evmBlockItem>[]; next?: [number, number, number] }> {
  let q = db.selectFrom('evm_blocks').selectAll();
  if (args.exclude?.length) q = q.where('chain', 'not in', args.exclude);
  const after = args.after;
  if (after)
    q = q.where((eb) =>
      eb(eb.refTuple('timestamp', 'chain', 'number'), '<', eb.tuple(after[0], after[1], after[2])),
    );
  const rows = await q
    .orderBy('timestamp', 'desc')
    .orderBy('chain', 'desc')
    .orderBy('number', 'desc')
    .limit(args.limit + 1)
    .execute();
  const page = cutPage(rows, args.limit, (last): [number, number, number] => [
    Number(last.timestamp),
    Number(last.chain),
    Number(last.number),
  ]);
  return { items: page.rows.map(evmBlockItem), next: page.next };
}

async function findBlock(db: Kysely<DataSchema>, chain: number, blockId: string) {
  const id = parseBlockId(blockId);
  let q = db.selectFrom('evm_blocks').selectAll().where('chain', '=', chain);
  q = 'hash' in id ? q.where('hash', '=', id.hash) : q.where('number', '=', id.number);
  const row = await q.executeTakeFirst();
  if (!row) throw new NotFoundError(`block ${blockId} is not indexed on chain ${chain}`);
  return row;
}

export async function getBlock(db: Kysely<DataSchema>, chain: number, blockId: string) {
  return evmBlockItem(await findBlock(db, chain, blockId));
}

/**
 * Native transactions in block order, one per transaction (its sender's row of the party table),
 * with a keyset cursor on (block, position): a block's in ascending order, or a chain's newest
 * first, optionally only the succeeded (`status` 1) or failed (0) ones.
 */
async function txsInBlockOrder(
  db: Kysely<DataSchema>,
  args: {
    chain: number;
    block?: number;
    status?: number;
    order: 'asc' | 'desc';
    after?: [number, number];
    limit: number;
  },
) {
  let q = db
    .selectFrom('evm_native_txs')
    .selectAll()
    .where('chain', '=', args.chain)
    .whereRef('address', '=', 'from_addr');
  if (args.block !== undefined) q = q.where('block_number', '=', args.block);
  if (args.status !== undefined) q = q.where('status', '=', args.status);
  const after = args.after;
  if (after)
    q = q.where((eb) =>
      eb(
        eb.refTuple('block_number', 'tx_index'),
        args.order === 'asc' ? '>' : '<',
        eb.tuple(after[0], after[1]),
      ),
    );
  const rows = await q
    .orderBy('block_number', args.order)
    .orderBy('tx_index', args.order)
    .limit(args.limit + 1)
    .execute();
  const page = rows.slice(0, args.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(nativeTxItem),
    next:
      rows.length > args.limit
        ? ([Number(last.block_number), Number(last.tx_index)] as [number, number])
        : undefined,
  };
}

/**
 * The newest transactions of the indexed chains but `exclude`, keyset on (block time, chain,
 * block, position): one range of the `evm_native_txs_by_time` index.
 */
export async function latestTransactionsAcrossChains(
  db: Kysely<DataSchema>,
  args: {
    exclude?: number[];
    status?: 'success' | 'failed';
    after?: [number, number, number, number];
    limit: number;
  },
) {
  let q = db.selectFrom('evm_native_txs').selectAll().whereRef('address', '=', 'from_addr');
  if (args.exclude?.length) q = q.where('chain', 'not in', args.exclude);
  if (args.status !== undefined) q = q.where('status', '=', args.status === 'success' ? 1 : 0);
  const after = args.after;
  if (after)
    q = q.where((eb) =>
      eb(
        eb.refTuple('block_ts', 'chain', 'block_number', 'tx_index'),
        '<',
        eb.tuple(after[0], after[1], after[2], after[3]),
      ),
    );
  const rows = await q
    .orderBy('block_ts', 'desc')
    .orderBy('chain', 'desc')
    .orderBy('block_number', 'desc')
    .orderBy('tx_index', 'desc')
    .limit(args.limit + 1)
    .execute();
  const page = cutPage(rows, args.limit, (last): [number, number, number, number] => [
    Number(last.block_ts),
    Number(last.chain),
    Number(last.block_number),
    Number(last.tx_index),
  ]);
  return { items: page.rows.map(nativeTxItem), next: page.next };
}

/** The transactions of one block (by number or hash), in block order. */
export async function blockTransactions(
  db: Kysely<DataSchema>,
  args: { chain: number; blockId: string; after?: [number, number]; limit: number },
) {
  const block = await findBlock(db, args.chain, args.blockId);
  return txsInBlockOrder(db, { ...args, block: Number(block.number), order: 'asc' });
}

/** The chain's newest transactions, all or only the succeeded or failed ones. */
export async function latestTransactions(
  db: Kysely<DataSchema>,
  args: { chain: number; status?: 'success' | 'failed'; after?: [number, number]; limit: number },
) {
  const status = args.status === undefined ? undefined : args.status === 'success' ? 1 : 0;
  return txsInBlockOrder(db, { ...args, status, order: 'desc' });
}
