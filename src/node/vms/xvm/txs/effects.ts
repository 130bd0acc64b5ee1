/**
 * What an accepted transaction does to state: the UTXOs it consumes (local and atomic), the
 * UTXOs it creates (numbered as the reference numbers them), the atomic UTXOs it exports and
 * the asset it creates.
 */
import { inputIdOf } from '../../components/utxo-id.js';
import { avmCodec, withVersion } from '../codec.js';
import { readOutput, type Output, type TxOutput, type UtxoRef, type XTx } from './model.js';

type Serializable = Parameters<typeof avmCodec.PackPrefix>[0];

export interface ProducedUtxo {
  readonly inputId: Uint8Array;
  /** hex of inputId, for maps. */
  readonly key: string;
  readonly bytes: Uint8Array;
  readonly assetId: Uint8Array;
  readonly output: Output;
  readonly addresses: readonly Uint8Array[];
}

export interface NewAsset {
  readonly id: Uint8Array;
  readonly name: string;
  readonly symbol: string;
  readonly denomination: number;
  readonly fxs: readonly number[];
}

export interface TxEffects {
  readonly consumed: readonly { inputId: Uint8Array; key: string }[];
  readonly imported: readonly { inputId: Uint8Array; key: string }[];
  readonly produced: readonly ProducedUtxo[];
  readonly exported: readonly ProducedUtxo[];
  readonly newAsset?: NewAsset;
}

export function keyOf(inputId: Uint8Array): string {
  return Buffer.from(inputId).toString('hex');
}

export function refInputId(ref: UtxoRef): { inputId: Uint8Array; key: string } {
  const inputId = inputIdOf(ref.txId, ref.outputIndex);
  return { inputId, key: keyOf(inputId) };
}

/** Packs a UTXO the way `Utxo.toBytes` does, from its parts. */
export function packUtxoParts(
  txId: Uint8Array,
  outputIndex: number,
  assetId: Uint8Array,
  output: Serializable,
): Uint8Array {
  const index = Buffer.alloc(4);
  index.writeUInt32BE(outputIndex);
  return withVersion(Buffer.concat([txId, index, assetId, avmCodec.PackPrefix(output)]));
}

function produce(txId: Uint8Array, index: number, assetId: Uint8Array, raw: Serializable): ProducedUtxo {
  const inputId = inputIdOf(txId, index);
  const output = readOutput(raw as any);
  return {
    inputId,
    key: keyOf(inputId),
    bytes: packUtxoParts(txId, index, assetId, raw),
    assetId,
    output,
    addresses: output.owners.addresses,
  };
}

/** A tx output becomes a UTXO: version, tx id, index, then the output's own codec bytes. */
function fromTxOutput(txId: Uint8Array, index: number, out: TxOutput): ProducedUtxo {
  const inputId = inputIdOf(txId, index);
  const head = Buffer.alloc(2 + 32 + 4);
  head.set(txId, 2);
  head.writeUInt32BE(index, 34);
  return {
    inputId,
    key: keyOf(inputId),
    bytes: Buffer.concat([head, out.bytes]),
    assetId: out.assetId,
    output: out.output,
    addresses: out.output.owners.addresses,
  };
}

export function effectsOf(tx: XTx): TxEffects {
  const produced: ProducedUtxo[] = [];
  let index = 0;
  for (const out of tx.outs) produced.push(fromTxOutput(tx.id, index++, out));
  let newAsset: NewAsset | undefined;
  if (tx.createAsset) {
    for (const state of tx.createAsset.initialStates)
      for (const raw of state.rawOutputs) produced.push(produce(tx.id, index++, tx.id, raw as any));
    newAsset = {
      id: tx.id,
      name: tx.createAsset.name,
      symbol: tx.createAsset.symbol,
      denomination: tx.createAsset.denomination,
      fxs: tx.createAsset.initialStates.map((s) => s.fxIndex),
    };
  }
  for (const op of tx.ops)
    for (const raw of op.rawOutputs) produced.push(produce(tx.id, index++, op.assetId, raw as any));
  // Exported UTXOs are numbered after the tx's local outputs.
  const exported = tx.exportedOuts.map((out, i) => fromTxOutput(tx.id, tx.outs.length + i, out));
  const consumed = [...tx.ins.map(refInputId), ...tx.ops.flatMap((op) => op.utxos.map(refInputId))];
  return { consumed, imported: tx.importedIns.map(refInputId), produced, exported, newAsset };
}
