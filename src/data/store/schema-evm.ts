/**
 * Tables of the EVM half of the data platform. Lists by address are "party" tables: one row per
 * (address, item) with every field the response needs copied in, so a page is one index range
 * and never a join. `chain` is the EVM chain id; addresses and hashes are lower-case hex.
 * Wei amounts are decimal text (they exceed 2^53); ordering never depends on them.
 */

/** The EVM chains the indexer follows (C-chain and every Subnet-EVM chain). */
export interface EvmChainTable {
  blockchain_id: string;
  evm_chain_id: number;
  name: string;
  description: string;
  subnet_id: string;
  vm_id: string;
  rpc_url: string;
  ws_url: string;
  token_name: string;
  token_symbol: string;
  token_decimals: number;
  /** `mainnet`, `fuji` (also serves `testnet`) or `local`. */
  network: string;
  is_testnet: number;
  /** JSON array of ChainInfo enabledFeatures. */
  features: string;
  discovered_at: number;
  /** Multicall3's address when the chain has code there at discovery (migration 0019), else null. */
  multicall_address?: string | null;
}

export interface EvmBlockTable {
  chain: number;
  number: number;
  hash: string;
  parent_hash: string;
  timestamp: number;
  tx_count: number;
  gas_used: number;
  /** Header baseFeePerGas, gasLimit and blockGasCost (wei, decimal text; "0" when absent). */
  base_fee: string;
  gas_limit: string;
  gas_cost: string;
  /** Sum of gasUsed × effective gas price of the block's transactions (wei, decimal text). */
  fees_spent: string;
  /** Transactions of the chain up to and including this block. */
  cumulative_txs: number;
}

/** One row per (address, transaction) where the address is the sender or the recipient. */
export interface EvmNativeTxTable {
  chain: number;
  address: string;
  block_number: number;
  tx_index: number;
  tx_hash: string;
  block_hash: string;
  block_ts: number;
  from_addr: string;
  /** Recipient, or the created contract for a deployment. */
  to_addr: string;
  value: string;
  gas_limit: string;
  gas_used: string;
  gas_price: string;
  nonce: string;
  tx_type: number;
  /** Receipt status: 1 success, 0 failure. */
  status: number;
  method_hash: string;
  /** NATIVE_TRANSFER, CONTRACT_CALL or CONTRACT_CREATION. */
  call_type: string;
}

/** ERC-20 / ERC-721 / ERC-1155 transfers, one row per party. */
export interface EvmTokenTransferTable {
  chain: number;
  address: string;
  /** `erc20`, `erc721` or `erc1155`. */
  kind: string;
  block_number: number;
  log_index: number;
  /** Position inside an ERC-1155 TransferBatch (0 otherwise). */
  sub_index: number;
  tx_hash: string;
  block_hash: string;
  block_ts: number;
  token: string;
  from_addr: string;
  to_addr: string;
  /** Amount (ERC-20, ERC-1155) as decimal text; "1" for ERC-721. */
  value: string;
  /** Decimal token id (ERC-721, ERC-1155), empty for ERC-20. */
  token_id: string;
}

/** Internal transactions from call traces, one row per party. */
export interface EvmInternalTxTable {
  chain: number;
  address: string;
  block_number: number;
  tx_index: number;
  /** Depth-first position of the frame inside the transaction's call tree. */
  trace_index: number;
  tx_hash: string;
  block_hash: string;
  block_ts: number;
  from_addr: string;
  to_addr: string;
  /** CALL, CALLCODE, CREATE, CREATE2. */
  call_type: string;
  value: string;
  gas_limit: string;
  gas_used: string;
  is_reverted: number;
}

/** Every contract seen: deployed (with its deployment) or used as a token. */
export interface EvmContractTable {
  chain: number;
  address: string;
  /** `ERC-20`, `ERC-721`, `ERC-1155` or `UNKNOWN`. */
  erc_type: string;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  tx_hash: string | null;
  block_number: number | null;
  /** The transaction's sender (an EOA). */
  deployer: string | null;
  /** The contract whose CREATE/CREATE2 made this one, when not the transaction itself. */
  deployer_contract: string | null;
}

/** Contracts by deploying address (the EOA and, for factory deployments, the factory too). */
export interface EvmDeploymentTable {
  chain: number;
  deployer: string;
  block_number: number;
  /** tx index × 100,000 + trace index: deployment order within the block. */
  seq: number;
  address: string;
}

/** NFTs (ERC-721 tokens and ERC-1155 ids) with their resolved metadata. */
export interface EvmNftTokenTable {
  chain: number;
  contract: string;
  /** Token id zero-padded to 78 digits, so text order is numeric order. */
  token_key: string;
  token_id: string;
  erc_type: string;
  /** Current owner (ERC-721 only). */
  owner: string | null;
  token_uri: string | null;
  /** NftTokenMetadataStatus (upper case). */
  index_status: string;
  /** JSON of the normalised metadata fields. */
  metadata: string;
  metadata_updated_at: number | null;
  /** Unix ms when the fetcher should (re)visit the token. */
  next_fetch_at: number;
  attempts: number;
}

/** Metric buckets, maintained by the indexer in the transaction that writes the blocks. */
export interface EvmMetricBucketTable {
  chain: number;
  /** `hour`, `day`, `week` or `month`. */
  span: string;
  bucket_start: number;
  tx_count: number;
  gas_used: number;
  /** Sum of gasUsed × effective gas price (wei, decimal text). */
  fees_paid: string;
  /** Sum of effective gas prices (wei, decimal text), for avgGasPrice. */
  gas_price_sum: string;
  max_gas_price: string;
  /** Most transactions in one second inside the bucket. */
  max_tps: number;
  /** Most gas in one second inside the bucket. */
  max_gps: number;
  active_addresses: number;
  active_senders: number;
  contracts: number;
  deployers: number;
  /** Totals from the chain's first indexed block to the end of the bucket (the cumulative* metrics). */
  cumulative_tx_count: number;
  cumulative_contracts: number;
  /** Distinct active addresses (senders and recipients) and deployers ever seen, up to the bucket. */
  cumulative_addresses: number;
  cumulative_deployers: number;
}

/** Transactions and gas per second with activity: feeds maxTps/maxGps exactly. */
export interface EvmMetricSecondTable {
  chain: number;
  /** Unix second. */
  sec: number;
  tx_count: number;
  gas_used: number;
}

/**
 * Distinct members per bucket: kind `a` active address, `s` sender, `d` deployer. Span `all`
 * (bucket_start 0) holds every address and deployer the chain ever had, which tells a first
 * appearance for the cumulative counts.
 */
export interface EvmMetricMemberTable {
  chain: number;
  span: string;
  bucket_start: number;
  kind: string;
  address: string;
}

/** The metrics service's v1 page tokens: UUIDs valid for 24 hours. */
export interface MetricsPageTokenTable {
  token: string;
  scope: string;
  cursor: number;
  expires_at_ms: number;
}

/**
 * One row per ICM (Teleporter) message id, filled from both ends: the source chain's
 * SendCrossChainMessage (`src_*`, fee) and the destination chain's ReceiveCrossChainMessage
 * (`dst_*`). The message fields are the same in both events; whichever is indexed first writes
 * them. Chain ids are cb58 blockchain ids; addresses and the id are lower-case hex (id without 0x).
 */
export interface EvmIcmMessageTable {
  message_id: string;
  /** The messenger contract that emitted the first indexed event of the message. */
  contract: string;
  source_blockchain_id: string;
  destination_blockchain_id: string;
  message_nonce: string;
  from_addr: string;
  to_addr: string;
  /** 0x-prefixed message bytes. */
  data: string;
  required_gas_limit: string;
  /** JSON [[receivedMessageNonce, relayerRewardAddress], …] carried by the message. */
  receipts: string;
  fee_token: string;
  fee_amount: string;
  /** List order: the send's block time, else the receive's. */
  sort_ts: number;
  src_chain: number | null;
  src_tx_hash: string | null;
  src_block: number | null;
  src_ts: number | null;
  src_gas: string | null;
  dst_chain: number | null;
  dst_tx_hash: string | null;
  dst_block: number | null;
  dst_ts: number | null;
  dst_gas: string | null;
  deliverer: string | null;
  reward_redeemer: string | null;
  executed: number;
  receipt_delivered: number;
}

/**
 * The ICM message lists' keys: one row per (key, message), `src:`/`dst:`/`chain:` + blockchain id,
 * `from:`/`to:`/`addr:` + address, so each filter's page is one index range on (key, sort_ts, id).
 */
export interface EvmIcmPartyTable {
  key: string;
  sort_ts: number;
  message_id: string;
}

export interface EvmSchema {
  evm_chains: EvmChainTable;
  evm_blocks: EvmBlockTable;
  evm_native_txs: EvmNativeTxTable;
  evm_token_transfers: EvmTokenTransferTable;
  evm_internal_txs: EvmInternalTxTable;
  evm_contracts: EvmContractTable;
  evm_deployments: EvmDeploymentTable;
  evm_nft_tokens: EvmNftTokenTable;
  evm_metric_buckets: EvmMetricBucketTable;
  evm_metric_seconds: EvmMetricSecondTable;
  evm_metric_members: EvmMetricMemberTable;
  metrics_page_tokens: MetricsPageTokenTable;
  evm_icm_messages: EvmIcmMessageTable;
  evm_icm_parties: EvmIcmPartyTable;
}
