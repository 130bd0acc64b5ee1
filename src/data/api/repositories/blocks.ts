/**
 * Read model of the primary-network block routes and the address-activity routes: X- and P-chain
 * blocks with their transaction ids, the chains an address has outputs on, and its last activity.
 */
import type { Kysely } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import { NotFoundError } from '../../internal/errors.js';
import type { DataSchema } from '../../store/schema.js';
import { chainsOfAddresses, lastActivity } from '../../store/queries/address-activity.js';
import { getBlock, listBlocks, transactionsOfBlocks, type BlockRow } from '../../store/queries/blocks.js';
import { chainName } from './format.js';

function formatBlock(b: BlockRow, transactions: string[]) {
  return {
    blockNumber: String(b.height),
    blockHash: b.block_id,
    parentHash: b.parent_id,
    blockTimestamp: Number(b.timestamp),
    // Rows indexed before types and sizes were recorded, until the indexer has filled them in.
    blockType: b.block_type ?? 'unknown',
    txCount: Number(b.tx_count),
    transactions,
    blockSizeBytes: Number(b.size_bytes ?? 0),
    // P-chain blocks indexed with the L1 fee replay (X-chain blocks have no L1 state).
    ...(b.active_l1_validators != null
      ? {
          activeL1Validators: Number(b.active_l1_validators),
          l1ValidatorsAccruedFees: Number(b.l1_accrued_fees),
        }
      : {}),
    ...(b.proposer_id ? { proposerDetails: proposerDetails(b) } : {}),
  };
}

/** The proposervm wrapper's fields the row has (an option block has no signer, height or time). */
function proposerDetails(b: BlockRow) {
  return {
    proposerId: b.proposer_id!,
    ...(b.proposer_parent_id ? { proposerParentId: b.proposer_parent_id } : {}),
    ...(b.proposer_node_id ? { proposerNodeId: b.proposer_node_id } : {}),
    ...(b.proposer_p_chain_height != null ? { proposerPChainHeight: Number(b.proposer_p_chain_height) } : {}),
    ...(b.proposer_timestamp != null ? { proposerTimestamp: Number(b.proposer_timestamp) } : {}),
  };
}

export function createBlockReads(deps: { db: Kysely<DataSchema>; network: NetworkIdentity }) {
  const { db, network } = deps;
  return {
    /** A chain's blocks newest first; with `proposerNodeId`, those that node signed. */
    async blocks(q: {
      chainId: string;
      proposerNodeId?: string;
      startTimestamp?: number;
      endTimestamp?: number;
      beforeHeight?: number;
      limit: number;
    }) {
      const { rows, next } = await listBlocks(db, q);
      const txs = await transactionsOfBlocks(db, q.chainId, rows);
      return { blocks: rows.map((b) => formatBlock(b, txs.get(Number(b.height)) ?? [])), next };
    },

    /** A block by height (decimal digits) or by block id. */
    async block(chainId: string, by: { height: number } | { blockId: string }) {
      const row = await getBlock(db, chainId, by);
      if (!row) {
        const what = 'height' in by ? `at height ${by.height}` : `with id ${by.blockId}`;
        throw new NotFoundError(`no ${chainName(network, chainId)} block ${what}`);
      }
      const txs = await transactionsOfBlocks(db, chainId, [row]);
      return formatBlock(row, txs.get(Number(row.height)) ?? []);
    },

    /** Each address with the primary-network chains holding its outputs (P, X, C order). */
    async chainIdsOfAddresses(addresses: string[]) {
      const chains = [network.pChainID, network.xChainID, network.cChainID];
      const found = await chainsOfAddresses(db, addresses, chains);
      return addresses.map((address) => ({ address, blockchainIds: found.get(address) ?? [] }));
    },

    async lastActivity(chainId: string, addresses: string[]) {
      const a = await lastActivity(db, chainId, addresses);
      if (!a) throw new NotFoundError(`no activity of these addresses on the ${chainName(network, chainId)}`);
      return {
        timestamp: a.ts,
        blockNumber: String(a.height),
        txHash: a.txHash,
        utxoId: a.utxoId,
        isConsumed: a.consumed,
        chainName: chainName(network, chainId),
      };
    },
  };
}
