/**
 * Migrations of the EVM tables (see schema-evm.ts), listed in MIGRATIONS under their own names.
 * Append-only like every migration: never edit one that has shipped.
 */
import type { Kysely } from 'kysely';

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
