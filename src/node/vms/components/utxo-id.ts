/** UTXO identity: the input id the reference node keys UTXOs by. */
import { sha256 } from '@noble/hashes/sha2.js';

/** sha256(uint64BE(outputIndex) ‖ txID), as `UTXOID.InputID()` computes it. */
export function inputIdOf(txId: Uint8Array, outputIndex: number): Uint8Array {
  const buf = new Uint8Array(8 + 32);
  new DataView(buf.buffer).setBigUint64(0, BigInt(outputIndex));
  buf.set(txId, 8);
  return sha256(buf);
}
