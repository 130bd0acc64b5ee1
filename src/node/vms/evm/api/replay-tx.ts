/**
 * A block's transaction as a replay runs it. coreth's tracers build each message with
 * core.TransactionToMessage and drop its error: the message's From is what types.Sender gave,
 * the zero address when the signature recovers no sender (a zero or high s, a y-parity other
 * than 0 or 1, another chain's id …). geth's decoder takes any v, r and s; ethereumjs refuses some
 * of them while decoding, so such a transaction is read without its signature instead.
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import type { ReplayTx } from './block-replay.js';

/** The sender a replay gives a transaction whose signature recovers none. */
export const UNRECOVERED_SENDER = new Uint8Array(20);

/** `raw` with its signature (the last three fields) left out; undefined when it has no fields. */
function withoutSignature(raw: Uint8Array): Uint8Array | undefined {
  const typed = raw.length > 0 && raw[0] <= 0x7f;
  const fields = RLP.decode(typed ? raw.subarray(1) : raw);
  if (!Array.isArray(fields) || fields.length < 3) return undefined;
  const unsigned = RLP.encode(fields.slice(0, -3) as Uint8Array[]);
  return typed ? Uint8Array.of(raw[0], ...unsigned) : unsigned;
}

/** `raw` decoded unfrozen, or without its signature when only that stops the engine's decoder. */
function decodeForReplay(common: Common, raw: Uint8Array): TypedTransaction {
  try {
    return createTxFromRLP(raw, { common, freeze: false });
  } catch (err) {
    const unsigned = withoutSignature(raw);
    if (!unsigned) throw err;
    return createTxFromRLP(unsigned, { common, freeze: false });
  }
}

/**
 * The sender coreth's tracers run `raw` from: the recovered one, or the zero address when the
 * transaction is whole but its signature recovers nobody. Throws the decoder's error for bytes
 * that are no whole signed transaction (geth cannot decode those either).
 */
export function replaySender(common: Common, raw: Uint8Array): Uint8Array {
  let failure: unknown;
  try {
    return createTxFromRLP(raw, { common }).getSenderAddress().bytes;
  } catch (err) {
    failure = err;
  }
  // Whole but for its signature: the transaction without it still decodes.
  try {
    const unsigned = withoutSignature(raw);
    if (unsigned) {
      createTxFromRLP(unsigned, { common });
      return UNRECOVERED_SENDER;
    }
  } catch {
    // Not a transaction at all: the first error says why.
  }
  throw failure;
}

/** `t` ready to run, from the sender the replay names (recovered once, when it was stored). */
export function replayTx(common: Common, t: Pick<ReplayTx, 'raw' | 'sender'>): TypedTransaction {
  const tx = decodeForReplay(common, t.raw);
  // A new Address each time, as the engine's own: a caller may write into what it is given.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => new Address(t.sender.slice()) });
  Object.freeze(tx);
  return tx;
}
