/**
 * Migrations of the EVM tables (see schema-evm.ts), listed in MIGRATIONS under their own names.
 * Append-only like every migration: never edit one that has shipped.
 */
import type { Kysely } from 'kysely';
import { SPANS, bucketStart } from '../metrics/buckets.js';

type AnyDb = Kysely<any>;

export async function evmInitial(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('evm_chains')
    .addColumn('blockchain_id', 'text', (c) => c.primaryKey())
    .addColumn('evm_chain_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('subnet_id', 'text', (c) => c.notNull())
    .addColumn('vm_id', 'text', (c) => c.notNull())
    .addColumn('rpc_url', 'text', (c) => c.notNull())
    .addColumn('ws_url', 'text', (c) => c.notNull())
    .addColumn('token_name', 'text', (c) => c.notNull())
    .addColumn('token_symbol', 'text', (c) => c.notNull())
    .addColumn('token_decimals', 'integer', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('is_testnet', 'integer', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('discovered_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evm_chains_by_evm_id').on('evm_chains').columns(['evm_chain_id']).execute();

  await db.schema
    .createTable('evm_blocks')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('parent_hash', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('tx_count', 'integer', (c) => c.notNull())
    .addColumn('gas_used', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_blocks_pk', ['chain', 'number'])
    .execute();

  await db.schema
    .createTable('evm_native_txs')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('tx_index', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('block_ts', 'bigint', (c) => c.notNull())
    .addColumn('from_addr', 'text', (c) => c.notNull())
    .addColumn('to_addr', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('gas_limit', 'text', (c) => c.notNull())
    .addColumn('gas_used', 'text', (c) => c.notNull())
    .addColumn('gas_price', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('tx_type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('method_hash', 'text', (c) => c.notNull())
    .addColumn('call_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_native_txs_pk', ['chain', 'address', 'block_number', 'tx_index'])
    .execute();

  await db.schema
    .createTable('evm_token_transfers')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('sub_index', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('block_ts', 'bigint', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('from_addr', 'text', (c) => c.notNull())
    .addColumn('to_addr', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_token_transfers_pk', [
      'chain',
      'address',
      'kind',
      'block_number',
      'log_index',
      'sub_index',
    ])
    .execute();

  await db.schema
    .createTable('evm_internal_txs')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('tx_index', 'integer', (c) => c.notNull())
    .addColumn('trace_index', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('block_ts', 'bigint', (c) => c.notNull())
    .addColumn('from_addr', 'text', (c) => c.notNull())
    .addColumn('to_addr', 'text', (c) => c.notNull())
    .addColumn('call_type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('gas_limit', 'text', (c) => c.notNull())
    .addColumn('gas_used', 'text', (c) => c.notNull())
    .addColumn('is_reverted', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_internal_txs_pk', [
      'chain',
      'address',
      'block_number',
      'tx_index',
      'trace_index',
    ])
    .execute();

  await db.schema
    .createTable('evm_contracts')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('erc_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('symbol', 'text')
    .addColumn('decimals', 'integer')
    .addColumn('tx_hash', 'text')
    .addColumn('block_number', 'bigint')
    .addColumn('deployer', 'text')
    .addColumn('deployer_contract', 'text')
    .addPrimaryKeyConstraint('evm_contracts_pk', ['chain', 'address'])
    .execute();

  await db.schema
    .createTable('evm_deployments')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('deployer', 'text', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_deployments_pk', ['chain', 'deployer', 'block_number', 'seq'])
    .execute();

  await db.schema
    .createTable('evm_nft_tokens')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('token_key', 'text', (c) => c.notNull())
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('erc_type', 'text', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('token_uri', 'text')
    .addColumn('index_status', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('metadata_updated_at', 'bigint')
    .addColumn('next_fetch_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_nft_tokens_pk', ['chain', 'contract', 'token_key'])
    .execute();
  await db.schema.createIndex('evm_nft_tokens_due').on('evm_nft_tokens').columns(['next_fetch_at']).execute();

  await db.schema
    .createTable('evm_metric_buckets')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('span', 'text', (c) => c.notNull())
    .addColumn('bucket_start', 'bigint', (c) => c.notNull())
    .addColumn('tx_count', 'bigint', (c) => c.notNull())
    .addColumn('gas_used', 'bigint', (c) => c.notNull())
    .addColumn('fees_paid', 'text', (c) => c.notNull())
    .addColumn('gas_price_sum', 'text', (c) => c.notNull())
    .addColumn('max_gas_price', 'text', (c) => c.notNull())
    .addColumn('max_tps', 'bigint', (c) => c.notNull())
    .addColumn('max_gps', 'bigint', (c) => c.notNull())
    .addColumn('active_addresses', 'bigint', (c) => c.notNull())
    .addColumn('active_senders', 'bigint', (c) => c.notNull())
    .addColumn('contracts', 'bigint', (c) => c.notNull())
    .addColumn('deployers', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_metric_buckets_pk', ['chain', 'span', 'bucket_start'])
    .execute();
  await db.schema
    .createTable('evm_metric_seconds')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('sec', 'bigint', (c) => c.notNull())
    .addColumn('tx_count', 'bigint', (c) => c.notNull())
    .addColumn('gas_used', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_metric_seconds_pk', ['chain', 'sec'])
    .execute();
  await db.schema
    .createTable('evm_metric_members')
    .addColumn('chain', 'bigint', (c) => c.notNull())
    .addColumn('span', 'text', (c) => c.notNull())
    .addColumn('bucket_start', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_metric_members_pk', ['chain', 'span', 'bucket_start', 'kind', 'address'])
    .execute();
  await db.schema
    .createTable('metrics_page_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('cursor', 'bigint', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}

/** The cumulative columns of `evm_metric_buckets`, in the order the metrics name them. */
const CUMULATIVE_COLUMNS = [
  'cumulative_tx_count',
  'cumulative_contracts',
  'cumulative_addresses',
  'cumulative_deployers',
] as const;

/**
 * Cumulative metrics kept in the buckets, and each chain's all-time address and deployer sets
 * (members of span `all`) that tell a first appearance. Buckets indexed before this migration
 * are filled from what the store holds: running sums of their counts, and first appearances
 * from the hour buckets' member sets (an hour lies inside one day, week and month).
 */
export async function evmCumulativeMetrics(db: AnyDb): Promise<void> {
  for (const column of CUMULATIVE_COLUMNS)
    await db.schema
      .alterTable('evm_metric_buckets')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();

  const firsts = await db
    .selectFrom('evm_metric_members')
    .select(['chain', 'kind', 'address', (eb) => eb.fn.min('bucket_start').as('first')])
    .where('span', '=', 'hour')
    .where('kind', 'in', ['a', 'd'])
    .groupBy(['chain', 'kind', 'address'])
    .execute();
  const all = firsts.map((f) => ({
    chain: f.chain,
    span: 'all',
    bucket_start: 0,
    kind: f.kind,
    address: f.address,
  }));
  for (let i = 0; i < all.length; i += 400)
    await db
      .insertInto('evm_metric_members')
      .values(all.slice(i, i + 400))
      .execute();
  // First appearances per bucket: `${chain}:${span}:${start}:${kind}` → count.
  const fresh = new Map<string, number>();
  for (const f of firsts)
    for (const span of SPANS) {
      const key = `${f.chain}:${span}:${bucketStart(span, Number(f.first))}:${f.kind}`;
      fresh.set(key, (fresh.get(key) ?? 0) + 1);
    }

  const buckets = await db
    .selectFrom('evm_metric_buckets')
    .select(['chain', 'span', 'bucket_start', 'tx_count', 'contracts'])
    .orderBy('chain')
    .orderBy('span')
    .orderBy('bucket_start')
    .execute();
  let series = '';
  let run = { txs: 0, contracts: 0, addresses: 0, deployers: 0 };
  for (const b of buckets) {
    const key = `${b.chain}:${b.span}:${Number(b.bucket_start)}`;
    if (`${b.chain}:${b.span}` !== series) {
      series = `${b.chain}:${b.span}`;
      run = { txs: 0, contracts: 0, addresses: 0, deployers: 0 };
    }
    run.txs += Number(b.tx_count);
    run.contracts += Number(b.contracts);
    run.addresses += fresh.get(`${key}:a`) ?? 0;
    run.deployers += fresh.get(`${key}:d`) ?? 0;
    await db
      .updateTable('evm_metric_buckets')
      .set({
        cumulative_tx_count: run.txs,
        cumulative_contracts: run.contracts,
        cumulative_addresses: run.addresses,
        cumulative_deployers: run.deployers,
      })
      .where('chain', '=', b.chain)
      .where('span', '=', b.span)
      .where('bucket_start', '=', b.bucket_start)
      .execute();
  }
}

/**
 * What the block and transaction detail routes read: the header fields a block page shows
 * (base fee, gas limit, block gas cost), the fees its transactions paid, the chain's running
 * transaction count, and lookups by block hash and by transaction hash. Blocks indexed before
 * this migration get their fees and running counts from the stored rows; their header fields were
 * never kept and stay "0" (see docs/compatibility.md).
 */
export async function evmBlockDetails(db: AnyDb): Promise<void> {
  for (const column of ['base_fee', 'gas_limit', 'gas_cost', 'fees_spent'])
    await db.schema
      .alterTable('evm_blocks')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo('0'))
      .execute();
  await db.schema
    .alterTable('evm_blocks')
    .addColumn('cumulative_txs', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('evm_blocks_by_hash').on('evm_blocks').columns(['chain', 'hash']).execute();
  for (const table of ['evm_native_txs', 'evm_token_transfers', 'evm_internal_txs'])
    await db.schema.createIndex(`${table}_by_tx`).on(table).columns(['chain', 'tx_hash']).execute();

  // Fees per block: each transaction once (a party table holds it once per party).
  const txs = await db
    .selectFrom('evm_native_txs')
    .select(['chain', 'block_number', 'tx_index', 'gas_used', 'gas_price'])
    .distinct()
    .execute();
  const fees = new Map<string, { chain: unknown; number: unknown; fees: bigint }>();
  for (const t of txs) {
    const key = `${t.chain}:${t.block_number}`;
    const f = fees.get(key) ?? { chain: t.chain, number: t.block_number, fees: 0n };
    f.fees += BigInt(t.gas_used) * BigInt(t.gas_price);
    fees.set(key, f);
  }
  for (const f of fees.values())
    await db
      .updateTable('evm_blocks')
      .set({ fees_spent: f.fees.toString() })
      .where('chain', '=', f.chain)
      .where('number', '=', f.number)
      .execute();

  const blocks = await db
    .selectFrom('evm_blocks')
    .select(['chain', 'number', 'tx_count'])
    .orderBy('chain')
    .orderBy('number')
    .execute();
  let chain: unknown;
  let total = 0;
  for (const b of blocks) {
    if (b.chain !== chain) [chain, total] = [b.chain, 0];
    total += Number(b.tx_count);
    if (Number(b.tx_count) === 0 && total === 0) continue;
    await db
      .updateTable('evm_blocks')
      .set({ cumulative_txs: total })
      .where('chain', '=', b.chain)
      .where('number', '=', b.number)
      .execute();
  }
}

/**
 * The chain's transactions in block order (a block's transactions, the latest of a chain): one
 * index on the native party table by (chain, block, position). The sender's row stands for the
 * transaction, so the routes read one row per transaction without a DISTINCT.
 */
export async function evmNativeTxsByBlock(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('evm_native_txs_by_block')
    .on('evm_native_txs')
    .columns(['chain', 'block_number', 'tx_index'])
    .execute();
}

/**
 * A token contract's transfers (`tokens/{address}/transfers`): the token party table by
 * (chain, token, log position). The sender's row stands for the transfer.
 */
export async function evmTokenTransfersByToken(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('evm_token_transfers_by_token')
    .on('evm_token_transfers')
    .columns(['chain', 'token', 'block_number', 'log_index', 'sub_index'])
    .execute();
}

/**
 * The newest blocks and transactions across every indexed chain (`GET /v1/blocks`,
 * `GET /v1/transactions`): blocks by (time, chain, number) and the native party table by (block
 * time, chain, block, position), so a page of either is one index range at any depth.
 */
export async function evmLatestAcrossChains(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('evm_blocks_by_time')
    .on('evm_blocks')
    .columns(['timestamp', 'chain', 'number'])
    .execute();
  await db.schema
    .createIndex('evm_native_txs_by_time')
    .on('evm_native_txs')
    .columns(['block_ts', 'chain', 'block_number', 'tx_index'])
    .execute();
}

/**
 * ICM (Teleporter) messages, correlated across chains by message id (see EvmIcmMessageTable), and
 * their list keys (EvmIcmPartyTable): every list page is one index range at any depth.
 */
export async function evmIcmMessages(db: AnyDb): Promise<void> {
  let t = db.schema
    .createTable('evm_icm_messages')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('source_blockchain_id', 'text', (c) => c.notNull())
    .addColumn('destination_blockchain_id', 'text', (c) => c.notNull())
    .addColumn('message_nonce', 'text', (c) => c.notNull())
    .addColumn('from_addr', 'text', (c) => c.notNull())
    .addColumn('to_addr', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('required_gas_limit', 'text', (c) => c.notNull())
    .addColumn('receipts', 'text', (c) => c.notNull())
    .addColumn('fee_token', 'text', (c) => c.notNull())
    .addColumn('fee_amount', 'text', (c) => c.notNull())
    .addColumn('sort_ts', 'bigint', (c) => c.notNull());
  for (const side of ['src', 'dst'] as const)
    t = t
      .addColumn(`${side}_chain`, 'bigint')
      .addColumn(`${side}_tx_hash`, 'text')
      .addColumn(`${side}_block`, 'bigint')
      .addColumn(`${side}_ts`, 'bigint')
      .addColumn(`${side}_gas`, 'text');
  await t
    .addColumn('deliverer', 'text')
    .addColumn('reward_redeemer', 'text')
    .addColumn('executed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('receipt_delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('evm_icm_messages_by_time')
    .on('evm_icm_messages')
    .columns(['sort_ts', 'message_id'])
    .execute();

  await db.schema
    .createTable('evm_icm_parties')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('sort_ts', 'bigint', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_icm_parties_pk', ['key', 'message_id'])
    .execute();
  await db.schema
    .createIndex('evm_icm_parties_by_time')
    .on('evm_icm_parties')
    .columns(['key', 'sort_ts', 'message_id'])
    .execute();
  await db.schema
    .createIndex('evm_icm_parties_by_message')
    .on('evm_icm_parties')
    .columns(['message_id'])
    .execute();
}

/**
 * The ICM message a transaction sent or delivered (`teleporterMessageInfo` of
 * `transactions/{txHash}`): the message rows by each end's chain and transaction.
 */
export async function evmIcmMessagesByTx(db: AnyDb): Promise<void> {
  for (const side of ['src', 'dst'] as const)
    await db.schema
      .createIndex(`evm_icm_messages_by_${side}_tx`)
      .on('evm_icm_messages')
      .columns([`${side}_chain`, `${side}_tx_hash`])
      .execute();
}
