/**
 * A submitted transaction's sender, derived once. The engine keeps the public key it recovers
 * from the signature, but hashes it into an address again, with the pure-JS keccak, on every
 * `getSenderAddress()`: admission asks, and so does the engine's runTx when the block is built.
 * A transaction decoded unfrozen gets its own `getSenderAddress`, which derives the address the
 * first time it is asked, with the native keccak (keccak.ts: about 1.7 µs on a public key
 * against 6–7 µs), and answers it again after; then it is frozen, as the engine would have.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { keccak256 } from './keccak.js';

/** Freezes `tx` (decoded with `freeze: false`) with its sender derived once, when first asked. */
export function freezeWithSender<T extends TypedTransaction>(tx: T): T {
  const derive = tx.getSenderAddress;
  let sender: Uint8Array | undefined;
  const getSenderAddress = (): Address => {
    if (sender === undefined) {
      const publicKey = tx.getSenderPublicKey();
      // The engine's own path for anything but a 64-byte key (its checks and errors).
      sender = publicKey.length === 64 ? keccak256(publicKey).slice(12) : derive.call(tx).bytes;
    }
    // A new Address each time, as the engine's: a caller may not write into the kept bytes.
    return new Address(sender.slice());
  };
  // Not enumerable: the transaction's keys stay its fields.
  Object.defineProperty(tx, 'getSenderAddress', { value: getSenderAddress });
  return Object.freeze(tx);
}
