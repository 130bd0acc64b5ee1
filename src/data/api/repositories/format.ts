/** Rows → response objects of the primary-network routes. Pure functions, no I/O. */
import type { NetworkIdentity } from '../../../shared/networks.js';
import { reportedNetworkName } from '../../networks.js';
import { amountText } from '../../store/amounts.js';
import type { AssetRow } from '../../store/queries/assets.js';
import type { UtxoRow } from '../../store/queries/utxos.js';

export interface AssetInfo {
  assetId: string;
  name: string;
  symbol: string;
  denomination: number;
  type: string;
}

export function assetInfo(id: string, row: AssetRow | undefined): AssetInfo {
  return row
    ? {
        assetId: id,
        name: row.name,
        symbol: row.symbol,
        denomination: row.denomination,
        type: row.asset_type,
      }
    : { assetId: id, name: '', symbol: '', denomination: 0, type: 'secp256k1' };
}

export function chainName(network: NetworkIdentity, chainId: string): 'p-chain' | 'x-chain' | 'c-chain' {
  return chainId === network.xChainID ? 'x-chain' : chainId === network.cChainID ? 'c-chain' : 'p-chain';
}

/** The network name a response reports: the one the request used (`testnet` stays `testnet`). */
export function chainInfo(chainId: string, network: NetworkIdentity, requested: string) {
  return { chainName: chainName(network, chainId), network: reportedNetworkName(requested) };
}

const num = (v: number | string | null | undefined): number | undefined =>
  v === null || v === undefined ? undefined : Number(v);

/** A P-chain UTXO (numeric outputIndex, TRANSFER/STAKE type, staking window). */
export function pChainUtxo(row: UtxoRow, asset: AssetInfo) {
  const amount = amountText(row.amount);
  const out: Record<string, unknown> = {
    addresses: JSON.parse(row.addresses),
    asset: { ...asset, amount },
    consumedOnChainId: row.consumed_on,
    createdOnChainId: row.created_on,
    utxoId: row.utxo_id,
    utxoBytes: row.utxo_bytes,
    amount,
    assetId: row.asset_id,
    blockNumber: String(row.block_height),
    blockTimestamp: Number(row.block_ts),
    outputIndex: Number(row.output_index),
    platformLocktime: Number(row.locktime),
    staked: row.staked === 1,
    threshold: Number(row.threshold),
    txHash: row.tx_hash,
    utxoType: row.utxo_type === 'STAKE' ? 'STAKE' : 'TRANSFER',
  };
  if (Number(row.stakeable_locktime) > 0) out.stakeableLocktime = Number(row.stakeable_locktime);
  if (row.reward_type) out.rewardType = row.reward_type;
  if (row.start_ts !== null) out.utxoStartTimestamp = num(row.start_ts);
  if (row.end_ts !== null) out.utxoEndTimestamp = num(row.end_ts);
  if (row.consuming_tx) {
    out.consumingTxHash = row.consuming_tx;
    out.consumingBlockNumber = String(row.consuming_height);
    out.consumingBlockTimestamp = num(row.consuming_ts);
  }
  return out;
}

/** An X-chain (or atomic C-chain) UTXO (string outputIndex, creation/consumption details). */
export function xChainUtxo(row: UtxoRow, asset: AssetInfo) {
  const amount = amountText(row.amount);
  const out: Record<string, unknown> = {
    addresses: JSON.parse(row.addresses),
    asset: { ...asset, amount },
    consumedOnChainId: row.consumed_on,
    createdOnChainId: row.created_on,
    utxoId: row.utxo_id,
    utxoBytes: row.utxo_bytes,
    creationTxHash: row.tx_hash,
    locktime: Number(row.locktime),
    outputIndex: String(row.output_index),
    threshold: Number(row.threshold),
    timestamp: Number(row.block_ts),
    utxoType: row.utxo_type,
  };
  if (row.group_id !== null) out.groupId = Number(row.group_id);
  if (row.payload !== null) out.payload = row.payload;
  if (row.consuming_tx) {
    out.consumingTxHash = row.consuming_tx;
    out.consumingTxTimestamp = num(row.consuming_ts);
    if (row.credentials) out.credentials = JSON.parse(row.credentials);
  }
  return out;
}

/** Sums amounts per asset; returns them in first-seen order. */
export function sumByAsset(
  rows: { asset_id: string; amount: string }[],
  assets: Map<string, AssetRow>,
): (AssetInfo & { amount: string; utxoCount: number })[] {
  const totals = new Map<string, { amount: bigint; count: number }>();
  for (const r of rows) {
    const t = totals.get(r.asset_id) ?? { amount: 0n, count: 0 };
    t.amount += BigInt(amountText(r.amount));
    t.count++;
    totals.set(r.asset_id, t);
  }
  return [...totals].map(([id, t]) => ({
    ...assetInfo(id, assets.get(id)),
    amount: t.amount.toString(),
    utxoCount: t.count,
  }));
}
