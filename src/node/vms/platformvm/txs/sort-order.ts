/**
 * The canonical order the reference's syntactic checks demand of a tx's lists (avalanchejs
 * builders produce it; hand-built txs may not): outputs by asset id, then by their typed output
 * bytes (ties allowed), and inputs by the UTXO they spend (tx id, then output index), each once.
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import { packStruct } from '../codec.js';

/** avax.IsSortedTransferableOutputs: asset id first, then the output's codec bytes. */
export function outputsSorted(outputs: readonly TransferableOutput[]): boolean {
  const keys = outputs.map((o) => Buffer.from(packStruct(o)));
  return keys.every((key, i) => i === 0 || Buffer.compare(keys[i - 1]!, key) <= 0);
}

/** utils.IsSortedAndUnique over TransferableInput.Compare: by tx id, then output index. */
export function inputsSortedAndUnique(inputs: readonly TransferableInput[]): boolean {
  const compare = (a: TransferableInput, b: TransferableInput): number =>
    Buffer.compare(Buffer.from(a.utxoID.txID.toBytes()), Buffer.from(b.utxoID.txID.toBytes())) ||
    a.utxoID.outputIdx.value() - b.utxoID.outputIdx.value();
  return inputs.every((input, i) => i === 0 || compare(inputs[i - 1]!, input) < 0);
}
