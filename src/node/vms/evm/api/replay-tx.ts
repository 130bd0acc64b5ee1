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
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, concatBytes } from '@ethereumjs/util';
import type { ReplayTx } from './block-replay.js';

/** The sender a replay gives a transaction whose signature recovers none. */
export const UNRECOVERED_SENDER = new Uint8Array(20);

/** FEE_LAYOUTS' key for an untyped (legacy) transaction. */
const LEGACY = -1;

const MAX_UINT256 = (1n << 256n) - 1n;

/** `raw` with its signature (the last three fields) left out; undefined when it has no fields. */
function withoutSignature(raw: Uint8Array): Uint8Array | undefined {
  const typed = raw.length > 0 && raw[0] <= 0x7f;
  const fields = RLP.decode(typed ? raw.subarray(1) : raw);
  if (!Array.isArray(fields) || fields.length < 3) return undefined;
  return withType(raw, RLP.encode(fields.slice(0, -3) as Uint8Array[]));
}

/** `payload` behind `raw`'s type byte, if it has one (not a spread: calldata may outgrow one). */
function withType(raw: Uint8Array, payload: Uint8Array): Uint8Array {
  return raw.length > 0 && raw[0] <= 0x7f ? concatBytes(raw.subarray(0, 1), payload) : payload;
}

/** Where a transaction type keeps the fields ethereumjs's constructors judge and geth's decoder does not. */
interface FeeLayout {
  chainId?: number;
  gasLimit: number;
  /** gasPrice, or maxPriorityFeePerGas then maxFeePerGas. */
  fees: readonly [number] | readonly [number, number];
}

const FEE_LAYOUTS: Readonly<Record<number, FeeLayout>> = {
  [LEGACY]: { gasLimit: 2, fees: [1] },
  1: { chainId: 0, gasLimit: 3, fees: [2] },
  2: { chainId: 0, gasLimit: 4, fees: [2, 3] },
  4: { chainId: 0, gasLimit: 4, fees: [2, 3] },
};

/** A decoded transaction, and whether it names another chain (types.Sender then recovers nobody). */
interface GethDecoded {
  tx: TypedTransaction;
  otherChain: boolean;
}

/**
 * `raw` decoded unfrozen as geth's decoder takes it: the engine's decoder reads every transaction
 * a block of this chain holds. It also refuses a typed transaction of another chain, a tip above
 * its fee cap and gas × price past 256 bits, which coreth refuses only when it runs them
 * (preCheck, buyGas) or runs from the zero address: those are built with values it takes, then
 * given back their own. A signature the decoder refuses is left out (the replay names the sender).
 */
function decodeAsGeth(common: Common, raw: Uint8Array): GethDecoded {
  try {
    return { tx: createTxFromRLP(raw, { common, freeze: false }), otherChain: false };
  } catch {
    // Refused by the engine: read as geth does, below.
  }
  const typed = raw.length > 0 && raw[0] <= 0x7f;
  const layout = FEE_LAYOUTS[typed ? raw[0] : LEGACY];
  let fields: unknown;
  try {
    fields = RLP.decode(typed ? raw.subarray(1) : raw);
  } catch {
    fields = undefined;
  }
  const whole =
    layout !== undefined &&
    Array.isArray(fields) &&
    fields.length > layout.gasLimit &&
    [layout.chainId ?? 0, layout.gasLimit, ...layout.fees].every((i) => fields[i] instanceof Uint8Array);
  // Not one of the shapes below: the engine's decoder says what is wrong with it.
  if (!whole) return { tx: decodeSignedOrNot(common, raw), otherChain: false };
  const own = (fields as Uint8Array[]).slice();
  const number = (i: number) => bytesToBigInt(own[i]);
  const chainId = layout.chainId === undefined ? undefined : number(layout.chainId);
  const otherChain = chainId !== undefined && chainId !== common.chainId();
  const fees = layout.fees.map(number);
  const accepted = (fields as Uint8Array[]).slice();
  if (otherChain) accepted[layout.chainId!] = bigIntToUnpaddedBytes(common.chainId());
  const [tip, feeCap] = fees;
  if (feeCap !== undefined && tip > feeCap) accepted[layout.fees[0]] = own[layout.fees[1]!];
  if (fees.every((f) => f <= MAX_UINT256) && number(layout.gasLimit) * fees[fees.length - 1] > MAX_UINT256)
    for (const i of layout.fees) accepted[i] = Uint8Array.of();
  const tx = decodeSignedOrNot(common, withType(raw, RLP.encode(accepted)));
  // Its own values back (the engine's checks are behind it; coreth's are run by the replay).
  const restored: Record<string, bigint> =
    fees.length === 2 ? { maxPriorityFeePerGas: fees[0], maxFeePerGas: fees[1] } : { gasPrice: fees[0] };
  if (chainId !== undefined) restored.chainId = chainId;
  Object.assign(tx, restored);
  return { tx, otherChain };
}

/** `raw` decoded unfrozen, or without its signature when only that stops the engine's decoder. */
function decodeSignedOrNot(common: Common, raw: Uint8Array): TypedTransaction {
  try {
    return createTxFromRLP(raw, { common, freeze: false });
  } catch (err) {
    const unsigned = withoutSignature(raw);
    if (!unsigned) throw err;
    try {
      return createTxFromRLP(unsigned, { common, freeze: false });
    } catch {
      // Not a transaction at all: the first error says why.
      throw err;
    }
  }
}

/**
 * The sender coreth's tracers run `raw` from: the recovered one, or the zero address when the
 * transaction is whole but its signature recovers nobody (another chain's id included). Throws
 * the decoder's error for bytes that are no whole transaction (geth cannot decode those either).
 */
export function replaySender(common: Common, raw: Uint8Array): Uint8Array {
  const { tx, otherChain } = decodeAsGeth(common, raw);
  if (otherChain || !tx.isSigned()) return UNRECOVERED_SENDER;
  try {
    return tx.getSenderAddress().bytes;
  } catch {
    return UNRECOVERED_SENDER;
  }
}

/** `t` ready to run, from the sender the replay names (recovered once, when it was stored). */
export function replayTx(common: Common, t: Pick<ReplayTx, 'raw' | 'sender'>): TypedTransaction {
  const { tx } = decodeAsGeth(common, t.raw);
  // A new Address each time, as the engine's own: a caller may write into what it is given.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => new Address(t.sender.slice()) });
  Object.freeze(tx);
  return tx;
}
