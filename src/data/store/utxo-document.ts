/**
 * A UTXO's response object in the two shapes the real service uses: the P-chain shape (numeric
 * outputIndex, TRANSFER/STAKE, staking window) and the X-/C-chain shape (string outputIndex,
 * creation/consumption details). The part that never changes is rendered once at index time
 * (`renderUtxoDocument`) and completed per request with the asset description and the spend.
 */
import type { Insertable, Selectable } from 'kysely';
import { amountText } from './amounts.js';
import type { UtxoTable } from './schema.js';

/** The P-chain id (= the primary network's subnet id) is the empty id on every network. */
export const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';

export interface AssetInfo {
  assetId: string;
  name: string;
  symbol: string;
  denomination: number;
  type: string;
}

type Row = Selectable<UtxoTable> | Insertable<UtxoTable>;

const num = (v: number | string | null | undefined): number | undefined =>
  v === null || v === undefined ? undefined : Number(v);

/** Fields that never change after the output is created, in the shape of the listing chain. */
export function renderUtxoDocument(row: Row): string {
  const amount = amountText(row.amount);
  const common = {
    addresses: JSON.parse(row.addresses) as string[],
    consumedOnChainId: row.consumed_on,
    createdOnChainId: row.created_on,
    utxoId: row.utxo_id,
    utxoBytes: row.utxo_bytes,
  };
  if (row.consumed_on === P_CHAIN_ID) {
    const out: Record<string, unknown> = {
      ...common,
      amount,
      assetId: row.asset_id,
      blockNumber: String(row.block_height),
      blockTimestamp: Number(row.block_ts),
      outputIndex: Number(row.output_index),
      platformLocktime: Number(row.locktime),
      threshold: Number(row.threshold),
      txHash: row.tx_hash,
      utxoType: row.utxo_type === 'STAKE' ? 'STAKE' : 'TRANSFER',
    };
    if (Number(row.stakeable_locktime) > 0) out.stakeableLocktime = Number(row.stakeable_locktime);
    if (row.reward_type) out.rewardType = row.reward_type;
    if (row.start_ts !== null && row.start_ts !== undefined) out.utxoStartTimestamp = num(row.start_ts);
    if (row.end_ts !== null && row.end_ts !== undefined) out.utxoEndTimestamp = num(row.end_ts);
    return JSON.stringify(out);
  }
  const out: Record<string, unknown> = {
    ...common,
    amount,
    creationTxHash: row.tx_hash,
    locktime: Number(row.locktime),
    outputIndex: String(row.output_index),
    threshold: Number(row.threshold),
    timestamp: Number(row.block_ts),
    utxoType: row.utxo_type,
  };
  if (row.group_id !== null && row.group_id !== undefined) out.groupId = Number(row.group_id);
  if (row.payload !== null && row.payload !== undefined) out.payload = row.payload;
  return JSON.stringify(out);
}

/** The columns a response needs besides the document. */
export type UtxoDocRow = Pick<
  Selectable<UtxoTable>,
  | 'utxo_id'
  | 'asset_id'
  | 'block_height'
  | 'staked'
  | 'consuming_tx'
  | 'consuming_height'
  | 'consuming_ts'
  | 'credentials'
> & { doc: string | null };

/** Completes a rendered document with the asset description, stake state and the spend. */
export function completeUtxo(row: UtxoDocRow, asset: AssetInfo): Record<string, unknown> {
  const out = JSON.parse(row.doc!) as Record<string, unknown>;
  const pShape = typeof out.outputIndex === 'number';
  out.asset = { ...asset, amount: out.amount };
  if (pShape) {
    out.staked = row.staked === 1;
    if (row.consuming_tx) {
      out.consumingTxHash = row.consuming_tx;
      out.consumingBlockNumber = String(row.consuming_height);
      out.consumingBlockTimestamp = num(row.consuming_ts);
    }
  } else {
    delete out.amount;
    Object.assign(out, specListFields(row, out.creationTxHash as string, out.timestamp as number));
    if (row.consuming_tx) {
      out.consumingTxHash = row.consuming_tx;
      out.consumingTxTimestamp = num(row.consuming_ts);
      out.consumingBlockNumber = String(row.consuming_height);
      out.consumingBlockTimestamp = num(row.consuming_ts);
      if (row.credentials) out.credentials = JSON.parse(row.credentials);
    }
  }
  return out;
}

const X_SHAPE = /"outputIndex":"/;
const AMOUNT = /"amount":"(\d+)"/;
const CREATION_TX = /"creationTxHash":"([^"]*)"/;
const TIMESTAMP = /"timestamp":(\d+)/;

/**
 * The members the spec's UTXO list resource names that the real X-/C-chain shape lacks: the
 * top-level `assetId`, `txHash`, `blockNumber` and `blockTimestamp` (the creating tx and its
 * block; a spent output also gets `consumingBlockNumber`/`consumingBlockTimestamp`). Added on
 * completion, not in the stored document, so documents rendered before them gain them too.
 * `outputIndex` stays a string: SDKs tell the two shapes apart by it.
 */
function specListFields(row: UtxoDocRow, txHash: string, timestamp: number) {
  return {
    assetId: row.asset_id,
    txHash,
    blockNumber: String(row.block_height),
    blockTimestamp: timestamp,
  };
}

/**
 * The start of a UTXO's `asset` member, up to its amount: the same text for every output of
 * the asset, so a list renders it once per asset rather than once per row.
 */
export function assetJsonPrefix(asset: AssetInfo): string {
  return `,"asset":${JSON.stringify(asset).slice(0, -1)},"amount":"`;
}

/**
 * The same completion as `completeUtxo`, spliced into the stored JSON text without parsing it:
 * a list page is then written as text end to end. `assetPrefix` is `assetJsonPrefix` of the
 * row's asset. (X-shape documents keep their `amount` member, an extra field clients ignore.)
 */
export function completeUtxoJson(row: UtxoDocRow, assetPrefix: string): string {
  const doc = row.doc!;
  const amount = AMOUNT.exec(doc)?.[1] ?? '0';
  let extra = `${assetPrefix}${amount}"}`;
  if (!X_SHAPE.test(doc)) {
    extra += row.staked === 1 ? ',"staked":true' : ',"staked":false';
    if (row.consuming_tx)
      extra += `,"consumingTxHash":${JSON.stringify(row.consuming_tx)},"consumingBlockNumber":"${Number(row.consuming_height)}","consumingBlockTimestamp":${Number(row.consuming_ts)}`;
  } else {
    const fields = specListFields(
      row,
      CREATION_TX.exec(doc)?.[1] ?? '',
      Number(TIMESTAMP.exec(doc)?.[1] ?? 0),
    );
    extra += ',' + JSON.stringify(fields).slice(1, -1);
    if (row.consuming_tx) {
      extra += `,"consumingTxHash":${JSON.stringify(row.consuming_tx)},"consumingTxTimestamp":${Number(row.consuming_ts)}`;
      extra += `,"consumingBlockNumber":"${Number(row.consuming_height)}","consumingBlockTimestamp":${Number(row.consuming_ts)}`;
      if (row.credentials) extra += `,"credentials":${row.credentials}`;
    }
  }
  return doc.slice(0, -1) + extra + '}';
}
