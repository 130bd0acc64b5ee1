/**
 * The primary-network read model the routes call: queries the store, formats rows, and (for
 * live validator figures) asks the node. Handlers never see SQL.
 */
import type { Kysely } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import { NotFoundError } from '../../internal/errors.js';
import type { NodeClient } from '../../internal/node-client.js';
import { amountKey, amountText } from '../../store/amounts.js';
import type { DataSchema } from '../../store/schema.js';
import { createAssetLookup } from '../../store/queries/assets.js';
import { listRewards, type RewardCursor } from '../../store/queries/rewards.js';
import {
  getBlockchain,
  getSubnet,
  listBlockchains,
  listSubnets,
  type BlockchainRow,
  type SubnetRow,
} from '../../store/queries/subnets.js';
import { listAssetTransactions } from '../../store/queries/transactions.js';
import {
  chainTransaction,
  listChainTransactions,
  listOpenStakingTransactions,
  type ChainTxQuery,
  type StakingTxQuery,
} from '../../store/queries/pn-transactions.js';
import { createTransactionRenderer, rewardEstimates } from './pn-transactions.js';
import {
  listUtxos,
  utxosAt,
  type SortOrder,
  type UtxoCursor,
  type UtxoRow,
  type UtxoSortBy,
} from '../../store/queries/utxos.js';
import type { Currency } from '../api-keys.js';
import { assetInfo, sumByAsset } from './format.js';
import { assetJsonPrefix, completeUtxoJson, type UtxoDocRow } from '../../store/utxo-document.js';
import { parseGenesisData } from './genesis-data.js';
import { createBlockReads } from './blocks.js';
import { createStakingStatsReads } from './staking-stats.js';
import { createValidatorReads } from './validators.js';
import { createPrimaryNetworkChains } from './primary-network-chains.js';

export interface PrimaryNetworkDeps {
  db: Kysely<DataSchema>;
  network: NetworkIdentity;
  prices: Partial<Record<Currency, number>>;
  node?: NodeClient;
}

const VM_SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';

/** The largest uint64, the largest amount an output can hold. */
const MAX_AMOUNT = 2n ** 64n - 1n;

/**
 * `minUtxoAmount` as the amount key lists compare with; a minimum above every possible amount
 * becomes one above the largest (so it matches nothing) rather than an out-of-range key.
 */
function minAmountBound(minUtxoAmount?: number): string | undefined {
  if (!minUtxoAmount || minUtxoAmount <= 0) return undefined;
  const min = BigInt(Math.ceil(minUtxoAmount));
  return min > MAX_AMOUNT ? amountKey(MAX_AMOUNT) + '0' : amountKey(min);
}

export function createPrimaryNetworkRepository(deps: PrimaryNetworkDeps) {
  const { db, network } = deps;
  const assets = createAssetLookup(db);
  const render = createTransactionRenderer(db, network, assets);
  const genesisChains = createPrimaryNetworkChains(db, network);

  /** Chain time: the newest P-chain block time or the wall clock, whichever is later. */
  async function now(): Promise<number> {
    const row = await db
      .selectFrom('blocks')
      .select((eb) => eb.fn.max('timestamp').as('t'))
      .where('chain_id', '=', network.pChainID)
      .executeTakeFirst();
    return Math.max(Math.floor(Date.now() / 1000), Number(row?.t ?? 0));
  }

  /** `assetJsonPrefix` per indexed asset (asset descriptions never change once created). */
  const assetPrefixes = new Map<string, string>();

  /** Each UTXO as JSON text (documents are completed without being parsed). */
  async function formatUtxos(rows: UtxoDocRow[]): Promise<string[]> {
    const unseen = rows.filter((r) => !assetPrefixes.has(r.asset_id)).map((r) => r.asset_id);
    const known = unseen.length > 0 ? await assets.get(unseen) : undefined;
    return rows.map((r) => {
      let prefix = assetPrefixes.get(r.asset_id);
      if (prefix === undefined) {
        const row = known?.get(r.asset_id);
        prefix = assetJsonPrefix(assetInfo(r.asset_id, row));
        // An asset not indexed yet is described by placeholders until it is.
        if (row) assetPrefixes.set(r.asset_id, prefix);
      }
      return completeUtxoJson(r, prefix);
    });
  }

  return {
    ...createBlockReads(deps),
    ...createStakingStatsReads({ ...deps, now }),
    ...createValidatorReads({ ...deps, now }),

    async utxos(q: {
      chainId: string;
      addresses: string[];
      assetId?: string;
      minUtxoAmount?: number;
      includeSpent: boolean;
      sortBy: UtxoSortBy;
      sortOrder: SortOrder;
      after?: UtxoCursor;
      limit: number;
    }) {
      const min = minAmountBound(q.minUtxoAmount);
      const { rows, next } = await listUtxos(db, {
        ...q,
        minAmount: min,
        assetId: q.chainId === network.xChainID ? q.assetId : undefined,
      });
      return { utxos: await formatUtxos(rows), next };
    },

    async assetTransactions(q: {
      assetId: string;
      txTypes?: string[];
      startTimestamp?: number;
      endTimestamp?: number;
      afterSeq?: number;
      limit: number;
    }) {
      const { rows, next } = await listAssetTransactions(db, q);
      const transactions = await render.x(rows);
      return { transactions, next };
    },

    /** A chain's transactions (`GET …/blockchains/{blockchainId}/transactions`), in its shape. */
    async transactions(q: ChainTxQuery) {
      const { rows, next } = await listChainTransactions(db, q);
      return { transactions: await render.of(q.chainId, rows), next };
    },

    /** One transaction of a chain (`…/transactions/{txHash}`). */
    async transaction(chainId: string, txHash: string) {
      const row = await chainTransaction(db, chainId, txHash);
      if (!row) throw new NotFoundError(`no transaction ${txHash} on chain ${chainId}`);
      return (await render.of(chainId, [row]))[0];
    },

    /** Open staking transactions (`…/transactions:listStaking`), with the node's reward estimates. */
    async stakingTransactions(q: Omit<StakingTxQuery, 'now' | 'pChainId'>) {
      const { rows, next } = await listOpenStakingTransactions(db, {
        ...q,
        pChainId: network.pChainID,
        now: await now(),
      });
      let estimates: Map<string, string> | undefined;
      if (deps.node && rows.length > 0) {
        const nodeIDs = await db
          .selectFrom('stakers')
          .select('node_id')
          .distinct()
          .where(
            'tx_hash',
            'in',
            rows.map((r) => r.tx_hash),
          )
          .where('subnet_id', '=', network.pChainID)
          .execute();
        if (nodeIDs.length > 0) {
          const res = await deps.node.call<{ validators: any[] }>(
            '/ext/bc/P',
            'platform.getCurrentValidators',
            { nodeIDs: nodeIDs.map((n) => n.node_id) },
          );
          estimates = rewardEstimates(res.validators ?? []);
        }
      }
      return { transactions: await render.p(rows, estimates), next };
    },

    async subnets(q: { sortOrder: SortOrder; afterSeq?: number; limit: number }) {
      const { rows, next } = await listSubnets(db, q);
      return { subnets: rows.map(formatSubnet), next };
    },

    async subnet(subnetId: string) {
      if (genesisChains.isPrimaryNetwork(subnetId)) return genesisChains.subnet();
      const found = await getSubnet(db, subnetId);
      if (!found) throw new NotFoundError(`no subnet with subnetId ${subnetId}`);
      return formatSubnet(found);
    },

    async blockchains(q: { sortOrder: SortOrder; afterSeq?: number; limit: number }) {
      const { rows, next } = await listBlockchains(db, q);
      return { blockchains: rows.map(formatBlockchain), next };
    },

    async blockchain(blockchainId: string) {
      if (genesisChains.isGenesisChain(blockchainId)) return genesisChains.blockchain(blockchainId);
      const row = await getBlockchain(db, blockchainId);
      if (!row) throw new NotFoundError(`no blockchain with blockchainId ${blockchainId}`);
      return formatBlockchain(row);
    },

    /** XChainAssetDetails of an asset created on the X-chain (genesis or CreateAssetTx). */
    async asset(assetId: string) {
      const row = (await assets.get([assetId])).get(assetId);
      if (!row) throw new NotFoundError(`no asset with assetId ${assetId}`);
      return {
        assetId: row.asset_id,
        name: row.name,
        symbol: row.symbol,
        denomination: Number(row.denomination),
        type: row.asset_type,
        createdAtTimestamp: Number(row.created_at),
        cap: row.cap,
      };
    },

    async balances(chainId: string, addresses: string[], at?: number) {
      const t = at ?? (await now());
      // Without a blockTimestamp the balance is every indexed UTXO not yet spent. Filtering by
      // `now()` instead would hide outputs of X- (or C-) chain blocks stamped after the newest
      // P-chain block once the devnet clock runs ahead of the wall clock, and count the UTXOs
      // they spent as unspent; lock times are still judged at `now()`.
      const rows = await utxosAt(db, chainId, addresses, at ?? Number.MAX_SAFE_INTEGER);
      const known = await assets.get(rows.map((r) => r.asset_id));
      const local = rows.filter((r) => r.created_on === chainId);
      const atomic = rows.filter((r) => r.created_on !== chainId);
      // Every atomic entry carries `status`, as the spec's atomic balance entry does on each
      // chain: an output in atomic memory is always waiting for its import. (The real X- and
      // C-chain shapes have no such member; SDKs drop the extra field.)
      const sharedBy = (list: UtxoRow[]) => {
        const bySource = new Map<string, UtxoRow[]>();
        for (const r of list) bySource.set(r.created_on, [...(bySource.get(r.created_on) ?? []), r]);
        return [...bySource].flatMap(([source, rs]) =>
          sumByAsset(rs, known).map((a) => ({ ...a, sharedWithChainId: source, status: 'pendingImport' })),
        );
      };
      const locked = (r: UtxoRow) => Number(r.locktime) > t;
      const atomicParts = {
        atomicMemoryUnlocked: sharedBy(atomic.filter((r) => !locked(r))),
        atomicMemoryLocked: sharedBy(atomic.filter(locked)),
      };
      if (chainId === network.cChainID) return atomicParts;
      if (chainId === network.xChainID)
        return {
          locked: sumByAsset(local.filter(locked), known),
          unlocked: sumByAsset(
            local.filter((r) => !locked(r)),
            known,
          ),
          ...atomicParts,
        };
      const cat: Record<string, UtxoRow[]> = {
        unlockedUnstaked: [],
        unlockedStaked: [],
        lockedPlatform: [],
        lockedStakeable: [],
        lockedStaked: [],
        pendingStaked: [],
      };
      for (const r of local) {
        const stakeLocked = Number(r.stakeable_locktime) > t;
        if (r.utxo_type === 'STAKE' && (r.staked === 1 || Number(r.end_ts) > t)) {
          if (Number(r.start_ts) > t) cat.pendingStaked.push(r);
          else if (Number(r.end_ts) > t || r.staked === 1)
            (stakeLocked ? cat.lockedStaked : cat.unlockedStaked).push(r);
          else cat.unlockedUnstaked.push(r);
        } else if (stakeLocked) cat.lockedStakeable.push(r);
        else if (locked(r)) cat.lockedPlatform.push(r);
        else cat.unlockedUnstaked.push(r);
      }
      return {
        ...Object.fromEntries(Object.entries(cat).map(([k, rs]) => [k, sumByAsset(rs, known)])),
        ...atomicParts,
      };
    },

    async rewards(q: {
      addresses: string[];
      nodeIds: string[];
      sortOrder: SortOrder;
      after?: RewardCursor;
      limit: number;
      currency: Currency;
    }) {
      const { rows, next } = await listRewards(db, q);
      const known = await assets.get(rows.map((r) => r.asset_id));
      const price = deps.prices[q.currency];
      const historicalRewards = rows.map((r) => ({
        addresses: JSON.parse(r.addresses) as string[],
        txHash: r.staking_tx,
        amountStaked: amountText(r.amount_staked),
        nodeId: r.node_id,
        startTimestamp: Number(r.start_ts),
        endTimestamp: Number(r.end_ts),
        rewardType: r.reward_type,
        utxoId: r.utxo_id,
        outputIndex: Number(r.output_index),
        reward: {
          ...assetInfo(r.asset_id, known.get(r.asset_id)),
          amount: amountText(r.amount),
          ...(price !== undefined ? { historicalPrice: { currencyCode: q.currency, value: price } } : {}),
        },
        rewardTxHash: r.reward_tx,
      }));
      return { historicalRewards, next };
    },
  };
}

function formatSubnet({ subnet: s, blockchains }: { subnet: SubnetRow; blockchains: BlockchainRow[] }) {
  const owners = JSON.parse(s.owner_addresses) as string[];
  const out: Record<string, unknown> = {
    createBlockTimestamp: Number(s.create_ts),
    createBlockIndex: String(s.create_block),
    subnetId: s.subnet_id,
    ownerAddresses: owners,
    threshold: Number(s.threshold),
    locktime: Number(s.locktime),
    subnetOwnershipInfo: {
      locktime: Number(s.locktime),
      threshold: Number(s.threshold),
      addresses: owners,
    },
    isL1: s.is_l1 === 1,
    blockchains: blockchains.map(formatBlockchain),
  };
  if (s.conversion_tx) out.l1ConversionTransactionHash = s.conversion_tx;
  if (s.manager_chain_id && s.manager_address)
    out.l1ValidatorManagerDetails = {
      blockchainId: s.manager_chain_id,
      contractAddress: s.manager_address,
    };
  return out;
}

function formatBlockchain(b: BlockchainRow) {
  const out: Record<string, unknown> = {
    createBlockTimestamp: Number(b.create_ts),
    createBlockNumber: String(b.create_block),
    blockchainId: b.blockchain_id,
    vmId: b.vm_id,
    subnetId: b.subnet_id,
    blockchainName: b.name,
  };
  const parsed = parseGenesisData(b.genesis, b.vm_id === VM_SUBNET_EVM);
  if (parsed.evmChainId !== undefined) out.evmChainId = parsed.evmChainId;
  if (parsed.genesisData !== undefined) out.genesisData = parsed.genesisData;
  return out;
}

export type PrimaryNetworkRepository = ReturnType<typeof createPrimaryNetworkRepository>;
