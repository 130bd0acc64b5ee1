/**
 * Append-only, named migrations; they run on start (createDatabase). Never edit a migration that
 * has shipped: add a new one. Column types are the ones both dialects read identically.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import {
  evmBlockDetails,
  evmCumulativeMetrics,
  evmIcmMessages,
  evmIcmMessagesByTx,
  evmInitial,
  evmLatestAcrossChains,
  evmNativeTxsByBlock,
  evmTokenTransfersByToken,
} from './migrations-evm.js';
import { primaryNetworkTransactions } from './migrations-pn-transactions.js';
import { amountText } from './amounts.js';

type AnyDb = Kysely<any>;

async function initial(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('checkpoints')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('next_index', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('blocks')
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('height', 'bigint', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('tx_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pk', ['chain_id', 'height'])
    .execute();
  await db.schema.createIndex('blocks_by_id').on('blocks').columns(['block_id']).execute();
  await db.schema
    .createTable('transactions')
    .addColumn('tx_hash', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('block_height', 'bigint', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('tx_type', 'text', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull())
    .addColumn('source_chain', 'text')
    .addColumn('destination_chain', 'text')
    .execute();
  await db.schema
    .createIndex('transactions_by_seq')
    .on('transactions')
    .columns(['chain_id', 'seq'])
    .execute();
  await db.schema
    .createTable('asset_transactions')
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('tx_type', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_transactions_pk', ['asset_id', 'seq'])
    .execute();
  await db.schema
    .createTable('assets')
    .addColumn('asset_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('denomination', 'integer', (c) => c.notNull())
    .addColumn('asset_type', 'text', (c) => c.notNull())
    .addColumn('cap', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('utxos')
    .addColumn('utxo_id', 'text', (c) => c.primaryKey())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('output_index', 'integer', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('consumed_on', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('addresses', 'text', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('locktime', 'bigint', (c) => c.notNull())
    .addColumn('stakeable_locktime', 'bigint', (c) => c.notNull())
    .addColumn('staked', 'integer', (c) => c.notNull())
    .addColumn('utxo_type', 'text', (c) => c.notNull())
    .addColumn('reward_type', 'text')
    .addColumn('start_ts', 'bigint')
    .addColumn('end_ts', 'bigint')
    .addColumn('block_height', 'bigint', (c) => c.notNull())
    .addColumn('block_ts', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('group_id', 'integer')
    .addColumn('payload', 'text')
    .addColumn('utxo_bytes', 'text', (c) => c.notNull())
    .addColumn('consuming_tx', 'text')
    .addColumn('consuming_height', 'bigint')
    .addColumn('consuming_ts', 'bigint')
    .addColumn('credentials', 'text')
    .execute();
  await db.schema.createIndex('utxos_by_tx').on('utxos').columns(['tx_hash', 'output_index']).execute();
  await db.schema.createIndex('utxos_by_consumer').on('utxos').columns(['consuming_tx']).execute();
  await db.schema
    .createTable('utxo_spends')
    .addColumn('utxo_id', 'text', (c) => c.primaryKey())
    .addColumn('consuming_tx', 'text', (c) => c.notNull())
    .addColumn('consuming_height', 'bigint', (c) => c.notNull())
    .addColumn('consuming_ts', 'bigint', (c) => c.notNull())
    .addColumn('credentials', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('utxo_addresses')
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('utxo_id', 'text', (c) => c.notNull())
    .addColumn('spent', 'integer', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('utxo_addresses_pk', ['chain_id', 'address', 'utxo_id'])
    .execute();
  // Keyset indexes of the UTXO list: one per sort key, spent flag ahead of it so "unspent only"
  // and "spent only" are each a single index range (includeSpent merges the two).
  await db.schema
    .createIndex('utxo_addresses_by_ts')
    .on('utxo_addresses')
    .columns(['chain_id', 'address', 'spent', 'ts', 'utxo_id'])
    .execute();
  await db.schema
    .createIndex('utxo_addresses_by_amount')
    .on('utxo_addresses')
    .columns(['chain_id', 'address', 'spent', 'amount', 'utxo_id'])
    .execute();
  await db.schema.createIndex('utxo_addresses_by_utxo').on('utxo_addresses').columns(['utxo_id']).execute();
  await db.schema
    .createTable('subnets')
    .addColumn('subnet_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('create_ts', 'bigint', (c) => c.notNull())
    .addColumn('create_block', 'bigint', (c) => c.notNull())
    .addColumn('owner_addresses', 'text', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('locktime', 'bigint', (c) => c.notNull())
    .addColumn('is_l1', 'integer', (c) => c.notNull())
    .addColumn('conversion_tx', 'text')
    .addColumn('manager_chain_id', 'text')
    .addColumn('manager_address', 'text')
    .execute();
  await db.schema.createIndex('subnets_by_seq').on('subnets').columns(['seq']).execute();
  await db.schema
    .createTable('blockchains')
    .addColumn('blockchain_id', 'text', (c) => c.primaryKey())
    .addColumn('subnet_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('vm_id', 'text', (c) => c.notNull())
    .addColumn('create_ts', 'bigint', (c) => c.notNull())
    .addColumn('create_block', 'bigint', (c) => c.notNull())
    .addColumn('genesis', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('blockchains_by_subnet')
    .on('blockchains')
    .columns(['subnet_id', 'seq'])
    .execute();
  await db.schema
    .createTable('stakers')
    .addColumn('tx_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('subnet_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('amount_staked', 'text', (c) => c.notNull())
    .addColumn('delegation_shares', 'integer')
    .addColumn('start_ts', 'bigint', (c) => c.notNull())
    .addColumn('end_ts', 'bigint', (c) => c.notNull())
    .addColumn('bls_public_key', 'text')
    .addColumn('bls_pop', 'text')
    .addColumn('reward_addresses', 'text', (c) => c.notNull())
    .addColumn('reward_tx', 'text')
    .addColumn('removed_tx', 'text')
    .addColumn('removed_ts', 'bigint')
    .execute();
  await db.schema.createIndex('stakers_by_node').on('stakers').columns(['node_id', 'kind', 'seq']).execute();
  await db.schema
    .createTable('rewards')
    .addColumn('utxo_id', 'text', (c) => c.primaryKey())
    .addColumn('staking_tx', 'text', (c) => c.notNull())
    .addColumn('reward_tx', 'text', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('reward_type', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('addresses', 'text', (c) => c.notNull())
    .addColumn('output_index', 'integer', (c) => c.notNull())
    .addColumn('amount_staked', 'text', (c) => c.notNull())
    .addColumn('start_ts', 'bigint', (c) => c.notNull())
    .addColumn('end_ts', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rewards_by_node')
    .on('rewards')
    .columns(['node_id', 'seq', 'utxo_id'])
    .execute();
  await db.schema.createIndex('rewards_by_seq').on('rewards').columns(['seq', 'utxo_id']).execute();
  await db.schema
    .createTable('reward_addresses')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('utxo_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reward_addresses_pk', ['address', 'seq', 'utxo_id'])
    .execute();
}

/**
 * Each UTXO's response object, rendered once when indexed: a list page then reads one text
 * column per row instead of every column (row materialization dominates a page's cost).
 */
async function utxoDocuments(db: AnyDb): Promise<void> {
  await db.schema.alterTable('utxos').addColumn('doc', 'text').execute();
}

/** Rate-limit budgets kept in the store, so API replicas on one database share them. */
async function rateLimitUsage(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('rate_limit_usage')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_usage_pk', ['caller', 'window', 'window_start'])
    .execute();
}

/** Validation periods of every node in index order (GET /v1/networks/{network}/validators). */
async function stakersByKind(db: AnyDb): Promise<void> {
  await db.schema.createIndex('stakers_by_kind').on('stakers').columns(['kind', 'seq']).execute();
}

/**
 * Primary-network blocks, stakers and address activity: each block's type and size (block
 * routes), the stakers not yet rewarded or removed in P-chain order (pending rewards), each
 * address row's spend time with an index, so an address's last spend is one index probe
 * (lastActivityTimestampByAddresses). Rows indexed before keep a null type and size until the
 * indexer fills them in from the node; spend times are copied from the UTXOs here.
 */
async function blockDetailsAndActivity(db: AnyDb): Promise<void> {
  await db.schema.alterTable('blocks').addColumn('block_type', 'text').execute();
  await db.schema.alterTable('blocks').addColumn('size_bytes', 'integer').execute();
  await db.schema
    .createIndex('blocks_by_time')
    .on('blocks')
    .columns(['chain_id', 'timestamp', 'height'])
    .execute();
  await db.schema
    .createIndex('stakers_current')
    .on('stakers')
    .columns(['reward_tx', 'removed_tx', 'seq'])
    .execute();
  await db.schema.alterTable('utxo_addresses').addColumn('spent_ts', 'bigint').execute();
  await sql`UPDATE utxo_addresses SET spent_ts = (SELECT u.consuming_ts FROM utxos u WHERE u.utxo_id = utxo_addresses.utxo_id) WHERE spent = 1`.execute(
    db,
  );
  await db.schema
    .createIndex('utxo_addresses_by_spent_ts')
    .on('utxo_addresses')
    .columns(['chain_id', 'address', 'spent_ts'])
    .execute();
}

/**
 * The proposervm wrapper of each X- and P-chain block (proposer details of the block routes) and
 * the blocks each node signed in height order (`nodes/{nodeId}/blocks`). Rows indexed before
 * stay null: they came from a node without proposervm wrapping.
 */
async function blockProposers(db: AnyDb): Promise<void> {
  for (const [column, type] of [
    ['proposer_id', 'text'],
    ['proposer_parent_id', 'text'],
    ['proposer_node_id', 'text'],
    ['proposer_p_chain_height', 'bigint'],
    ['proposer_timestamp', 'bigint'],
  ] as const)
    await db.schema.alterTable('blocks').addColumn(column, type).execute();
  await db.schema
    .createIndex('blocks_by_proposer')
    .on('blocks')
    .columns(['chain_id', 'proposer_node_id', 'height'])
    .execute();
}

/**
 * The L1 validators' continuous fee, replayed from the P-chain's blocks (`l1-fees.ts`): the fee
 * state, each validation's balance end and weight, what each validation paid per UTC day, and
 * each L1 transaction's validators as they stood after it.
 */
async function l1ValidatorFees(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('l1_fee_state')
    .addColumn('chain_id', 'text', (c) => c.primaryKey())
    .addColumn('excess', 'text', (c) => c.notNull())
    .addColumn('accrued', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('l1_validator_balances')
    .addColumn('validation_id', 'text', (c) => c.primaryKey())
    .addColumn('subnet_id', 'text', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('end_fee', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('weight', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('l1_validator_tx_details')
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('validation_id', 'text', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('subnet_id', 'text', (c) => c.notNull())
    .addColumn('weight', 'text', (c) => c.notNull())
    .addColumn('remaining_balance', 'text', (c) => c.notNull())
    .addColumn('balance_change', 'text', (c) => c.notNull())
    .addColumn('bls_public_key', 'text')
    .addPrimaryKeyConstraint('l1_validator_tx_details_pk', ['tx_hash', 'position'])
    .execute();
  await db.schema
    .createTable('l1_validator_fees')
    .addColumn('validation_id', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('subnet_id', 'text', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('fee', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('l1_validator_fees_pk', ['validation_id', 'day'])
    .execute();
  for (const [name, columns] of [
    ['l1_validator_fees_by_day', ['day']],
    ['l1_validator_fees_by_subnet', ['subnet_id', 'day']],
    ['l1_validator_fees_by_node', ['node_id', 'day']],
  ] as const)
    await db.schema
      .createIndex(name)
      .on('l1_validator_fees')
      .columns([...columns])
      .execute();
}

/**
 * Each P-chain block's active L1 validator count and accrued fee counter (the block routes'
 * `activeL1Validators` and `l1ValidatorsAccruedFees`). Rows indexed before stay null: their
 * replay state at that block is gone.
 */
async function blockL1Validators(db: AnyDb): Promise<void> {
  await db.schema.alterTable('blocks').addColumn('active_l1_validators', 'integer').execute();
  await db.schema.alterTable('blocks').addColumn('l1_accrued_fees', 'text').execute();
}

/**
 * The supply route's running totals, kept by the indexer with each batch: what each
 * primary-network chain's transactions burned, the rewards paid and the L1 validator fees paid.
 * The last two start from the rows the store holds; burned amounts were not recorded before, so
 * a store that indexed transactions before counts only those indexed after this migration.
 */
async function supplyTotals(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('running_totals')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('amount', 'text', (c) => c.notNull())
    .execute();
  const sum = (rows: { amount: string }[]) => rows.reduce((s, r) => s + BigInt(amountText(r.amount)), 0n);
  const rewards = sum(await db.selectFrom('rewards').select('amount').execute());
  const fees = sum(await db.selectFrom('l1_validator_fees').select('fee as amount').execute());
  for (const [name, amount] of [
    ['rewards', rewards],
    ['l1-validator-fees', fees],
  ] as const)
    if (amount > 0n)
      await db.insertInto('running_totals').values({ name, amount: amount.toString() }).execute();
}

/** The chains' Multicall3 address (`utilityAddresses.multicall` of the chain routes). */
async function evmChainMulticall(db: AnyDb): Promise<void> {
  await db.schema.alterTable('evm_chains').addColumn('multicall_address', 'text').execute();
}

/**
 * The few outputs with a lock (genesis vesting, timelocked transfers): the supply's totalLocked
 * reads them through this partial index, not the whole UTXO set.
 */
async function lockedUtxos(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('utxos_locked')
    .on('utxos')
    .columns(['asset_id', 'consuming_tx'])
    .where(sql.ref('locktime'), '>', 0)
    .execute();
  await db.schema
    .createIndex('utxos_stakeable_locked')
    .on('utxos')
    .columns(['asset_id', 'consuming_tx'])
    .where(sql.ref('stakeable_locktime'), '>', 0)
    .execute();
}

/**
 * The P-chain transactions of one L1 validation (the transactions list's `l1ValidationId`
 * filter) by the validation, not by a scan of every L1 validator change.
 */
async function l1ValidatorTxsByValidation(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('l1_validator_tx_details_by_validation')
    .on('l1_validator_tx_details')
    .columns(['validation_id', 'tx_hash'])
    .execute();
}

/**
 * The validator list's other orders: time remaining (end time) and delegation fee (none = -1),
 * each with `seq` last, so their keyset pages are index ranges too.
 */
async function validatorOrders(db: AnyDb): Promise<void> {
  await db.schema.createIndex('stakers_by_end').on('stakers').columns(['kind', 'end_ts', 'seq']).execute();
  await sql`create index stakers_by_fee on stakers (kind, coalesce(delegation_shares, -1), seq)`.execute(db);
}

/**
 * Who gets an L1 validation's balance back when it is disabled or removed (its
 * RemainingBalanceOwner, JSON `{threshold, addresses}` of hex addresses), so the indexer can list
 * the refund output the P-chain creates. Validations stored before stay null: no refund is listed.
 */
async function l1ValidatorRefundOwner(db: AnyDb): Promise<void> {
  await db.schema.alterTable('l1_validator_balances').addColumn('remaining_balance_owner', 'text').execute();
}

/**
 * The staking metrics of one L1 (`metrics/l1-validations.ts`) read its validations' weight
 * history by the L1, not by a scan of every L1 validator change. The rows are there since
 * 0016_l1_validator_fees: a store that indexed the P-chain before has none (the indexer logs it at
 * start; re-index to count those L1 validators).
 */
async function l1ValidatorTxsBySubnet(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('l1_validator_tx_details_by_subnet')
    .on('l1_validator_tx_details')
    .columns(['subnet_id'])
    .execute();
}

/** Every migration by name; names sort in the order they run. Append only. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': { up: initial },
  '0002_evm': { up: evmInitial },
  '0003_utxo_documents': { up: utxoDocuments },
  '0004_evm_cumulative_metrics': { up: evmCumulativeMetrics },
  '0005_rate_limit_usage': { up: rateLimitUsage },
  '0006_evm_block_details': { up: evmBlockDetails },
  '0007_evm_native_txs_by_block': { up: evmNativeTxsByBlock },
  '0008_evm_token_transfers_by_token': { up: evmTokenTransfersByToken },
  '0009_evm_latest_across_chains': { up: evmLatestAcrossChains },
  '0010_stakers_by_kind': { up: stakersByKind },
  '0011_primary_network_transactions': { up: primaryNetworkTransactions },
  '0012_block_details_and_activity': { up: blockDetailsAndActivity },
  '0013_block_proposers': { up: blockProposers },
  '0014_evm_icm_messages': { up: evmIcmMessages },
  '0015_evm_icm_messages_by_tx': { up: evmIcmMessagesByTx },
  '0016_l1_validator_fees': { up: l1ValidatorFees },
  '0017_block_l1_validators': { up: blockL1Validators },
  '0018_supply_totals': { up: supplyTotals },
  '0019_evm_chain_multicall': { up: evmChainMulticall },
  '0020_locked_utxos': { up: lockedUtxos },
  '0021_l1_validator_txs_by_validation': { up: l1ValidatorTxsByValidation },
  '0022_validator_orders': { up: validatorOrders },
  '0023_l1_validator_refund_owner': { up: l1ValidatorRefundOwner },
  '0024_l1_validator_txs_by_subnet': { up: l1ValidatorTxsBySubnet },
};
