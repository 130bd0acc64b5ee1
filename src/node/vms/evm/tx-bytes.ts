/**
 * A transaction's encoding, worked out once per transaction object. The engine's `serialize()`
 * RLP-encodes every field again on each call, and a submitted transaction is encoded by
 * admission (its size), the pool (its slots), the block builder (transactions root, stored rows)
 * and the block body. A frozen transaction (the engine's default) never changes, so its bytes
 * are kept with it; an unfrozen one is encoded on every call, as before.
 */
import type { TypedTransaction } from '@ethereumjs/tx';

const encodings = new WeakMap<TypedTransaction, Uint8Array>();

/** `tx.serialize()`, kept for a frozen transaction (callers must not write into the bytes). */
export function txBytes(tx: TypedTransaction): Uint8Array {
  let bytes = encodings.get(tx);
  if (bytes === undefined) {
    bytes = tx.serialize();
    if (Object.isFrozen(tx)) encodings.set(tx, bytes);
  }
  return bytes;
}
