/**
 * The indexer's unit of work: every row one batch of containers produces, plus the checkpoint it
 * advances. `writeBatch` applies it in ONE transaction, so a crash at any point leaves the store
 * either before or after the whole batch: resuming from the checkpoint loses and duplicates
 * nothing.
 */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type {
  AssetTable,
  AssetTransactionTable,
  BlockTable,
  BlockchainTable,
  DataSchema,
  L1FeeStateTable,
  L1ValidatorBalanceTable,
  L1ValidatorFeeTable,
  L1ValidatorTxDetailTable,
  RewardTable,
  StakerTable,
  SubnetTable,
  TransactionTable,
  UtxoSpendTable,
  UtxoTable,
} from './schema.js';
import { StoreError } from '../internal/errors.js';
import { renderUtxoDocument } from './utxo-document.js';
import { writeTransactionAddresses } from './transaction-addresses.js';
import { addToTotal, TOTAL } from './supply-totals.js';
import { lockUtxoWrites } from './cross-chain-lock.js';

export interface SubnetUpdate {
  subnet_id: string;
  owner?: { addresses: string[]; threshold: number; locktime: number };
  conversion?: { tx: string; managerChainId: string; managerAddress: string };
}

export interface StakerEnd {
  staking_tx: string;
  /** The RewardValidatorTx (or removal tx) that ended the staking period. */
  end_tx: string;
  end_ts: number;
  removed: boolean;
}

/** The L1 validator fee replay's changes (`indexer/primary/l1-fees.ts`), absolute values. */
export interface L1FeeRows {
  state: Insertable<L1FeeStateTable>;
  balances: Insertable<L1ValidatorBalanceTable>[];
  fees: Insertable<L1ValidatorFeeTable>[];
  details: Insertable<L1ValidatorTxDetailTable>[];
  /** What the batch's validators paid in all (nAVAX): added to the running total. */
  paid: bigint;
}

export interface BatchRows {
  blocks: Insertable<BlockTable>[];
  transactions: Insertable<TransactionTable>[];
  assetTransactions: Insertable<AssetTransactionTable>[];
  assets: Insertable<AssetTable>[];
  utxos: Insertable<UtxoTable>[];
  spends: Insertable<UtxoSpendTable>[];
  subnets: Insertable<SubnetTable>[];
  subnetUpdates: SubnetUpdate[];
  blockchains: Insertable<BlockchainTable>[];
  stakers: Insertable<StakerTable>[];
  stakerEnds: StakerEnd[];
  rewards: Insertable<RewardTable>[];
  l1Fees?: L1FeeRows;
  /** AVAX (nAVAX) the batch's transactions burned, added to the chain's running total. */
  burned?: bigint;
}

export function emptyBatch(): BatchRows {
  return {
    blocks: [],
    transactions: [],
    assetTransactions: [],
    assets: [],
    utxos: [],
    spends: [],
    subnets: [],
    subnetUpdates: [],
    blockchains: [],
    stakers: [],
    stakerEnds: [],
    rewards: [],
  };
}

/** Rows per INSERT statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 400;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function insertAll<K extends keyof DataSchema>(
  trx: Transaction<DataSchema>,
  table: K,
  rows: Insertable<DataSchema[K]>[],
  size = CHUNK,
): Promise<void> {
  for (const part of chunks(rows, size))
    await trx
      .insertInto(table)
      .values(part as any)
      .execute();
}

/** Where a source has been read up to (0 when never). */
export async function readCheckpoint(db: Kysely<DataSchema>, source: string): Promise<number> {
  const row = await db
    .selectFrom('checkpoints')
    .select('next_index')
    .where('source', '=', source)
    .executeTakeFirst();
  return row ? Number(row.next_index) : 0;
}

export class CheckpointConflictError extends StoreError {
  constructor(source: string, expected: number, found: number) {
    super(`checkpoint of ${source} moved: expected ${expected}, found ${found} (another indexer?)`, false);
  }
}

/**
 * Applies one batch and moves the checkpoint of `source` from `fromIndex` to `toIndex`, all in
 * one transaction. Fails without writing anything if the checkpoint is not at `fromIndex`.
 */
export async function writeBatch(
  db: Kysely<DataSchema>,
  source: string,
  fromIndex: number,
  toIndex: number,
  rows: BatchRows,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Before any read, so every statement sees what another chain's indexer committed.
    await lockUtxoWrites(trx);
    const current = await readCheckpoint(trx, source);
    if (current !== fromIndex) throw new CheckpointConflictError(source, fromIndex, current);

    await insertAll(trx, 'blocks', rows.blocks);
    await insertAll(trx, 'transactions', rows.transactions);
    if (rows.burned) await addToTotal(trx, TOTAL.burned(rows.transactions[0]!.chain_id), rows.burned);
    await insertAll(trx, 'asset_transactions', rows.assetTransactions);
    for (const part of chunks(rows.assets))
      await trx
        .insertInto('assets')
        .values(part)
        .onConflict((oc) => oc.column('asset_id').doNothing())
        .execute();

    await writeUtxoRows(trx, rows.utxos, rows.spends);

    await insertAll(trx, 'subnets', rows.subnets);
    for (const u of rows.subnetUpdates) {
      if (u.owner)
        await trx
          .updateTable('subnets')
          .set({
            owner_addresses: JSON.stringify(u.owner.addresses),
            threshold: u.owner.threshold,
            locktime: u.owner.locktime,
          })
          .where('subnet_id', '=', u.subnet_id)
          .execute();
      if (u.conversion)
        await trx
          .updateTable('subnets')
          .set({
            is_l1: 1,
            conversion_tx: u.conversion.tx,
            manager_chain_id: u.conversion.managerChainId,
            manager_address: u.conversion.managerAddress,
          })
          .where('subnet_id', '=', u.subnet_id)
          .execute();
    }
    await insertAll(trx, 'blockchains', rows.blockchains);
    if (rows.l1Fees) {
      await writeL1Fees(trx, rows.l1Fees);
      await addToTotal(trx, TOTAL.l1ValidatorFees, rows.l1Fees.paid);
    }
    await insertAll(trx, 'stakers', rows.stakers);
    for (const end of rows.stakerEnds) {
      await trx
        .updateTable('stakers')
        .set(end.removed ? { removed_tx: end.end_tx, removed_ts: end.end_ts } : { reward_tx: end.end_tx })
        .where('tx_hash', '=', end.staking_tx)
        .execute();
      // The staked outputs become ordinary spendable outputs when the staking period ends.
      await trx
        .updateTable('utxos')
        .set({ staked: 0 })
        .where('tx_hash', '=', end.staking_tx)
        .where('utxo_type', '=', 'STAKE')
        .execute();
    }
    await insertAll(trx, 'rewards', rows.rewards);
    await addToTotal(
      trx,
      TOTAL.rewards,
      rows.rewards.reduce((sum, r) => sum + BigInt(r.amount), 0n),
    );
    await insertAll(
      trx,
      'reward_addresses',
      rows.rewards.flatMap((r) =>
        (JSON.parse(r.addresses) as string[]).map((address) => ({ address, seq: r.seq, utxo_id: r.utxo_id })),
      ),
    );
    await writeTransactionAddresses(trx, {
      transactions: rows.transactions,
      utxos: rows.utxos,
      rewards: rows.rewards,
      touched: [...rows.utxos.map((u) => u.utxo_id), ...rows.spends.map((s) => s.utxo_id)],
    });

    const now = Date.now();
    await trx
      .insertInto('checkpoints')
      .values({ source, next_index: toIndex, updated_at_ms: now })
      .onConflict((oc) => oc.column('source').doUpdateSet({ next_index: toIndex, updated_at_ms: now }))
      .execute();
  });
}

/**
 * Outputs with their address rows, then spends; then settles every spend whose output is known
 * (a spend read before its output, e.g. an import indexed before the export on the other chain,
 * waits in utxo_spends until the output arrives). Shared by the primary and C-chain indexers,
 * whose transactions hold `lockUtxoWrites` from their start so two of them never settle at once.
 */
export async function writeUtxoRows(
  trx: Transaction<DataSchema>,
  outputs: Insertable<UtxoTable>[],
  spends: Insertable<UtxoSpendTable>[],
): Promise<void> {
  const utxos = outputs.map((u) => ({ ...u, doc: renderUtxoDocument(u) }));
  await insertAll(trx, 'utxos', utxos, 200);
  const addressRows = utxos.flatMap((u) =>
    (JSON.parse(u.addresses) as string[]).map((address) => ({
      chain_id: u.consumed_on,
      address,
      utxo_id: u.utxo_id,
      spent: 0,
      ts: u.block_ts,
      amount: u.amount,
    })),
  );
  for (const part of chunks(addressRows))
    await trx
      .insertInto('utxo_addresses')
      .values(part)
      .onConflict((oc) => oc.columns(['chain_id', 'address', 'utxo_id']).doNothing())
      .execute();
  for (const part of chunks(spends))
    await trx
      .insertInto('utxo_spends')
      .values(part)
      .onConflict((oc) => oc.column('utxo_id').doNothing())
      .execute();
  const touched = [...new Set([...utxos.map((u) => u.utxo_id), ...spends.map((s) => s.utxo_id)])];
  for (const ids of chunks(touched)) await settleSpends(trx, ids);
}

/** Marks every output among `ids` that has a recorded spend as spent: two statements per chunk. */
async function settleSpends(trx: Transaction<DataSchema>, ids: string[]): Promise<void> {
  const spendOf = (eb: any, column: 'consuming_tx' | 'consuming_height' | 'consuming_ts' | 'credentials') =>
    eb.selectFrom('utxo_spends as s').select(`s.${column}`).whereRef('s.utxo_id', '=', 'utxos.utxo_id');
  const spent = (eb: any) =>
    eb.exists(
      eb.selectFrom('utxo_spends as s').select('s.utxo_id').whereRef('s.utxo_id', '=', 'utxos.utxo_id'),
    );
  const { numUpdatedRows } = await trx
    .updateTable('utxos')
    .set((eb) => ({
      consuming_tx: spendOf(eb, 'consuming_tx'),
      consuming_height: spendOf(eb, 'consuming_height'),
      consuming_ts: spendOf(eb, 'consuming_ts'),
      credentials: spendOf(eb, 'credentials'),
    }))
    .where('utxo_id', 'in', ids)
    .where('consuming_tx', 'is', null)
    .where((eb) => spent(eb))
    .executeTakeFirst();
  if (Number(numUpdatedRows ?? 0) === 0) return;
  await trx
    .updateTable('utxo_addresses')
    .set((eb) => ({
      spent: 1,
      spent_ts: eb
        .selectFrom('utxo_spends as s')
        .select('s.consuming_ts')
        .whereRef('s.utxo_id', '=', 'utxo_addresses.utxo_id'),
    }))
    .where('utxo_id', 'in', ids)
    .where('spent', '=', 0)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('utxo_spends as s')
          .select('s.utxo_id')
          .whereRef('s.utxo_id', '=', 'utxo_addresses.utxo_id'),
      ),
    )
    .execute();
}

/** The replay's rows are absolute values: writing them again (a retried batch) changes nothing. */
async function writeL1Fees(trx: Transaction<DataSchema>, rows: L1FeeRows): Promise<void> {
  await trx
    .insertInto('l1_fee_state')
    .values(rows.state)
    .onConflict((oc) =>
      oc.column('chain_id').doUpdateSet((eb) => ({
        excess: eb.ref('excluded.excess'),
        accrued: eb.ref('excluded.accrued'),
        timestamp: eb.ref('excluded.timestamp'),
      })),
    )
    .execute();
  for (const part of chunks(rows.balances))
    await trx
      .insertInto('l1_validator_balances')
      .values(part)
      .onConflict((oc) =>
        oc.column('validation_id').doUpdateSet((eb) => ({
          end_fee: eb.ref('excluded.end_fee'),
          status: eb.ref('excluded.status'),
          weight: eb.ref('excluded.weight'),
          remaining_balance_owner: eb.ref('excluded.remaining_balance_owner'),
        })),
      )
      .execute();
  for (const part of chunks(rows.fees))
    await trx
      .insertInto('l1_validator_fees')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['validation_id', 'day']).doUpdateSet((eb) => ({ fee: eb.ref('excluded.fee') })),
      )
      .execute();
  await insertAll(trx, 'l1_validator_tx_details', rows.details);
}
