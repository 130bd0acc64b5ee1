/** Subnets in creation order with their blockchains. */
import type { Kysely, Selectable } from 'kysely';
import type { BlockchainTable, DataSchema, SubnetTable } from '../schema.js';
import type { SortOrder } from './utxos.js';
import { cutPage } from '../keyset-page.js';

export type SubnetRow = Selectable<SubnetTable>;
export type BlockchainRow = Selectable<BlockchainTable>;

/** One subnet with its blockchains; undefined when it was never created. */
export async function getSubnet(
  db: Kysely<DataSchema>,
  subnetId: string,
): Promise<{ subnet: SubnetRow; blockchains: BlockchainRow[] } | undefined> {
  const subnet = await db
    .selectFrom('subnets')
    .selectAll()
    .where('subnet_id', '=', subnetId)
    .executeTakeFirst();
  if (!subnet) return undefined;
  const blockchains = await db
    .selectFrom('blockchains')
    .selectAll()
    .where('subnet_id', '=', subnetId)
    .orderBy('seq')
    .execute();
  return { subnet, blockchains };
}

export async function listSubnets(
  db: Kysely<DataSchema>,
  q: { sortOrder: SortOrder; afterSeq?: number; limit: number },
): Promise<{ rows: { subnet: SubnetRow; blockchains: BlockchainRow[] }[]; next?: number }> {
  let sel = db.selectFrom('subnets').selectAll();
  if (q.afterSeq !== undefined) sel = sel.where('seq', q.sortOrder === 'asc' ? '>' : '<', q.afterSeq);
  const subnets = await sel
    .orderBy('seq', q.sortOrder)
    .limit(q.limit + 1)
    .execute();
  const page = subnets.slice(0, q.limit);
  const chains = page.length
    ? await db
        .selectFrom('blockchains')
        .selectAll()
        .where(
          'subnet_id',
          'in',
          page.map((s) => s.subnet_id),
        )
        .orderBy('seq')
        .execute()
    : [];
  return {
    rows: page.map((subnet) => ({
      subnet,
      blockchains: chains.filter((c) => c.subnet_id === subnet.subnet_id),
    })),
    next: subnets.length > q.limit ? Number(page[page.length - 1].seq) : undefined,
  };
}

/** One blockchain created by a CreateChainTx; undefined when it was never created. */
export async function getBlockchain(
  db: Kysely<DataSchema>,
  blockchainId: string,
): Promise<BlockchainRow | undefined> {
  return db
    .selectFrom('blockchains')
    .selectAll()
    .where('blockchain_id', '=', blockchainId)
    .executeTakeFirst();
}

/** Blockchains of every subnet in creation order (keyset on `seq`, one CreateChainTx each). */
export async function listBlockchains(
  db: Kysely<DataSchema>,
  q: { sortOrder: SortOrder; afterSeq?: number; limit: number },
): Promise<{ rows: BlockchainRow[]; next?: number }> {
  let sel = db.selectFrom('blockchains').selectAll();
  if (q.afterSeq !== undefined) sel = sel.where('seq', q.sortOrder === 'asc' ? '>' : '<', q.afterSeq);
  const rows = await sel
    .orderBy('seq', q.sortOrder)
    .orderBy('blockchain_id', q.sortOrder)
    .limit(q.limit + 1)
    .execute();
  return cutPage(rows, q.limit, (last) => Number(last.seq));
}
