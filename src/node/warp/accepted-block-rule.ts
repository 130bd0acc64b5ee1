/**
 * The signing rule every chain shares: a validator signs a Warp message whose payload is a Hash
 * payload (codec 0, type 0, 32 bytes) naming a block this chain has accepted — the reference
 * nodes' block-hash attestation. Chains with richer rules (Warp precompile messages, the
 * P-chain's L1 messages) try their own first and fall back to this one.
 */
import { WarpSignError } from './warp-signer.js';
import type { UnsignedMessage } from './unsigned-message.js';

/** The 32-byte hash of a Hash payload, or undefined when the payload is another type. */
export function hashPayload(payload: Uint8Array): Uint8Array | undefined {
  if (payload.length !== 38) return undefined;
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (view.getUint16(0) !== 0 || view.getUint32(2) !== 0) return undefined;
  return payload.slice(6);
}

export function encodeHashPayload(hash: Uint8Array): Uint8Array {
  const out = new Uint8Array(38);
  out.set(hash, 6);
  return out;
}

/** Blocks remembered as accepted per chain; the oldest are forgotten first. */
const KNOWN_ACCEPTED_SIZE = 4096;

export function acceptedBlockRule(isAccepted: (blockID: Uint8Array) => boolean) {
  // Acceptance is final, so a block once found accepted needs no second look: every hosted
  // validator checks the same block within a moment, and the store lookup is then made once.
  const knownAccepted = new Set<string>();
  return (message: UnsignedMessage): void => {
    const hash = hashPayload(message.payload);
    if (!hash) throw new WarpSignError('payload is not a block hash this chain signs');
    const key = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
    if (knownAccepted.has(key)) return;
    if (!isAccepted(hash)) throw new WarpSignError('block is not accepted on this chain');
    knownAccepted.add(key);
    if (knownAccepted.size > KNOWN_ACCEPTED_SIZE) knownAccepted.delete(knownAccepted.values().next().value!);
  };
}
