/**
 * The data platform's tables, as kysely types. One schema serves SQLite and PostgreSQL; every
 * column uses a type both understand the same way (integers, text), so queries never branch on
 * the dialect. Amounts are uint64 and sort as zero-padded 20-digit text (see amounts.ts).
 */
import type { EvmSchema } from './schema-evm.js';

/** Where each source (an index API: `X/block`, `P/block`) has been read up to. */
export interface CheckpointTable {
  source: string;
  /** Index of the next container to read. */
  next_index: number;
  updated_at_ms: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** Compute units spent per caller and rate-limit window, shared by every API process. */
export interface RateLimitUsageTable {
  caller: string;
  window: string;
  window_start: number;
  used: number;
}

export interface BlockTable {
  /** Blockchain id (cb58). */
  chain_id: string;
  height: number;
  block_id: string;
  parent_id: string;
  /** Unix seconds (the block's own timestamp, or the node's acceptance time when it has none). */
  timestamp: number;
  tx_count: number;
  /** The block's type name (`BanffStandardBlock`, `StandardBlock`, …); null on rows indexed before 0012. */
  block_type?: string | null;
  /** Length of the block's bytes (inside any proposervm wrapper); null on rows indexed before 0012. */
  size_bytes?: number | null;
  /**
   * The proposervm wrapper of the block (migration 0013), all null for a block without one: its
   * id and parent id, the signer's `NodeID-…` (null when unsigned or an option), the P-chain
   * height and Unix-second timestamp it carries (null for an option).
   */
  proposer_id?: string | null;
  proposer_parent_id?: string | null;
  proposer_node_id?: string | null;
  proposer_p_chain_height?: number | null;
  proposer_timestamp?: number | null;
  /**
   * P-chain blocks (migration 0017), from the L1 fee replay: the L1 validators active after the
   * block and the fee each active one had accrued since ACP-77's start (nAVAX, decimal text; the
   * P-chain's own `AccruedFees` counter). Null on X-chain blocks and on P-chain blocks indexed
   * without the replay.
   */
  active_l1_validators?: number | null;
  l1_accrued_fees?: string | null;
}

export interface TransactionTable {
  tx_hash: string;
  chain_id: string;
  /** Total order within a chain: block height × 1,000,000 + position in the block. */
  seq: number;
  block_height: number;
  block_id: string;
  timestamp: number;
  tx_type: string;
  memo: string;
  source_chain: string | null;
  destination_chain: string | null;
  /**
   * C-chain atomic txs only (migration 0011): JSON array of the EVM side, `{address, assetId,
   * amount, credentials?}` (an ExportTx's inputs with their credentials, an ImportTx's outputs).
   */
  evm_io?: string | null;
}

/**
 * Address → primary-network transaction (migration 0011): one row per address of an output a
 * transaction created or consumed (and per EVM address of a C-chain atomic tx), with the list's
 * sort key copied in, so a chain's transactions of one address are one index range.
 */
export interface TransactionAddressTable {
  chain_id: string;
  /** bech32 without chain prefix, or a lower-case 0x EVM address. */
  address: string;
  ts: number;
  seq: number;
  tx_hash: string;
  tx_type: string;
}

/** One row per (asset, transaction that moved or created it) on the X-chain. */
export interface AssetTransactionTable {
  asset_id: string;
  seq: number;
  tx_hash: string;
  tx_type: string;
  timestamp: number;
}

export interface AssetTable {
  asset_id: string;
  name: string;
  symbol: string;
  denomination: number;
  /** `secp256k1` or `nft`. */
  asset_type: string;
  /** `fixed` or `variable`. */
  cap: string;
  created_at: number;
  tx_hash: string;
}

export interface UtxoTable {
  utxo_id: string;
  tx_hash: string;
  output_index: number;
  /** Chain whose transaction created the output. */
  created_on: string;
  /** Chain that holds (and may consume) it: the destination for exported outputs. */
  consumed_on: string;
  asset_id: string;
  /** Zero-padded 20-digit decimal (sorts as a number in both dialects). */
  amount: string;
  /** JSON array of bech32 addresses without chain prefix. */
  addresses: string;
  threshold: number;
  locktime: number;
  stakeable_locktime: number;
  /** 1 while the output is locked as stake; 0 once the staking period ends. */
  staked: number;
  /** `TRANSFER`, `STAKE`, or an X-chain output kind (`transfer`, `mint`, `nft_transfer`, …). */
  utxo_type: string;
  reward_type: string | null;
  start_ts: number | null;
  end_ts: number | null;
  block_height: number;
  block_ts: number;
  seq: number;
  group_id: number | null;
  payload: string | null;
  utxo_bytes: string;
  consuming_tx: string | null;
  consuming_height: number | null;
  consuming_ts: number | null;
  /** JSON array of {signature, publicKey} of the consuming input's credential. */
  credentials: string | null;
  /** The immutable part of the UTXO's response object (utxo-document.ts), rendered at index time. */
  doc?: string | null;
}

/**
 * A spend recorded for an input. Kept separately so a spend seen before its output (an import
 * read before the export on the other chain) is applied when the output arrives.
 */
export interface UtxoSpendTable {
  utxo_id: string;
  consuming_tx: string;
  consuming_height: number;
  consuming_ts: number;
  credentials: string;
}

/** Address → UTXO, with the sort keys copied in so each list page is one index range. */
export interface UtxoAddressTable {
  /** Chain whose UTXO list shows the output (its `consumed_on`). */
  chain_id: string;
  address: string;
  utxo_id: string;
  spent: number;
  ts: number;
  amount: string;
  /** When the output was spent (Unix seconds); null while unspent. */
  spent_ts?: number | null;
}

export interface SubnetTable {
  subnet_id: string;
  seq: number;
  create_ts: number;
  create_block: number;
  owner_addresses: string;
  threshold: number;
  locktime: number;
  is_l1: number;
  conversion_tx: string | null;
  manager_chain_id: string | null;
  manager_address: string | null;
}

export interface BlockchainTable {
  blockchain_id: string;
  subnet_id: string;
  seq: number;
  name: string;
  vm_id: string;
  create_ts: number;
  create_block: number;
  /** Genesis bytes as hex. */
  genesis: string;
}

/** Validators and delegators of the primary network and of subnets. */
export interface StakerTable {
  tx_hash: string;
  /** `validator` or `delegator`. */
  kind: string;
  node_id: string;
  subnet_id: string;
  seq: number;
  amount_staked: string;
  /** Delegation fee in parts per million (validators only). */
  delegation_shares: number | null;
  start_ts: number;
  end_ts: number;
  bls_public_key: string | null;
  bls_pop: string | null;
  reward_addresses: string;
  reward_tx: string | null;
  removed_tx: string | null;
  removed_ts: number | null;
}

export interface RewardTable {
  utxo_id: string;
  staking_tx: string;
  reward_tx: string;
  node_id: string;
  reward_type: string;
  asset_id: string;
  amount: string;
  addresses: string;
  output_index: number;
  amount_staked: string;
  start_ts: number;
  end_ts: number;
  /** Order of payment: the reward transaction's seq × 100 + output position. */
  seq: number;
}

export interface RewardAddressTable {
  address: string;
  seq: number;
  utxo_id: string;
}

/**
 * The P-chain's ACP-77 validator fee state as the indexer replays it, at the time of the last
 * indexed P-chain block (one row per P-chain; amounts are decimal text of nAVAX).
 */
export interface L1FeeStateTable {
  chain_id: string;
  excess: string;
  /** The per-validator fee counter: a validator's balance is its end fee minus this. */
  accrued: string;
  timestamp: number;
}

/** The supply route's running totals (`store/supply-totals.ts`): burned per chain, rewards, L1 fees. */
export interface RunningTotalTable {
  name: string;
  /** nAVAX, decimal text. */
  amount: string;
}

/** Each L1 validation the indexer follows: active while `end_fee` (a fee counter value) is not 0. */
export interface L1ValidatorBalanceTable {
  validation_id: string;
  subnet_id: string;
  node_id: string;
  end_fee: string;
  /** `active`, `inactive` (no balance left, or disabled) or `removed` (weight set to 0). */
  status: string;
  weight: string;
  /** JSON `{threshold, addresses}` (hex) of its RemainingBalanceOwner; null where stored before it was kept. */
  remaining_balance_owner: string | null;
}

/** An L1 validator a P-chain transaction registered or changed, as it stood after that tx. */
export interface L1ValidatorTxDetailTable {
  tx_hash: string;
  /** Order within the tx (a conversion's validators in their order). */
  position: number;
  validation_id: string;
  node_id: string;
  subnet_id: string;
  weight: string;
  /** nAVAX left after the tx. */
  remaining_balance: string;
  /** nAVAX the tx added (negative: refunded on disable or removal). */
  balance_change: string;
  bls_public_key: string | null;
}

/** The continuous fee one L1 validation paid in one UTC day (`day`: the day's start, seconds). */
export interface L1ValidatorFeeTable {
  validation_id: string;
  day: number;
  subnet_id: string;
  node_id: string;
  fee: string;
}

export interface DataSchema extends EvmSchema {
  checkpoints: CheckpointTable;
  meta: MetaTable;
  rate_limit_usage: RateLimitUsageTable;
  blocks: BlockTable;
  transactions: TransactionTable;
  transaction_addresses: TransactionAddressTable;
  asset_transactions: AssetTransactionTable;
  assets: AssetTable;
  utxos: UtxoTable;
  utxo_spends: UtxoSpendTable;
  utxo_addresses: UtxoAddressTable;
  subnets: SubnetTable;
  blockchains: BlockchainTable;
  stakers: StakerTable;
  rewards: RewardTable;
  reward_addresses: RewardAddressTable;
  l1_fee_state: L1FeeStateTable;
  l1_validator_balances: L1ValidatorBalanceTable;
  l1_validator_fees: L1ValidatorFeeTable;
  l1_validator_tx_details: L1ValidatorTxDetailTable;
  running_totals: RunningTotalTable;
}
