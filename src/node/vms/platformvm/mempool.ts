/**
 * The P-chain mempool as the reference's gossip mempool keeps it: the txs waiting for the next
 * block (each with the promise its issuers wait on, so issuing a waiting tx again answers like the
 * first issue), the UTXOs they spend (another tx spending one is refused with
 * `tx conflicts with other tx`), the gas they will use (at most the reference's default
 * mempool-gas-capacity of 1,000,000 waits at once: more is refused with `not enough gas`; the
 * reference would first evict waiting txs paying a lower gas price, which this one does not), and
 * the reasons of recently dropped txs, which getTxStatus answers and which a second issue of the
 * same tx gets back without verifying it again.
 */
import type { TransferableInput } from '@avalabs/avalanchejs';
import type { ParsedTx } from './codec.js';
import { inputIdOfInput } from './txs/spend.js';

export interface Waiting {
  readonly tx: ParsedTx;
  readonly gas: bigint;
  readonly done: Promise<Uint8Array>;
  readonly resolve: (id: Uint8Array) => void;
  readonly reject: (err: Error) => void;
}

const DROPPED_LIMIT = 10_000;
export const MEMPOOL_GAS_CAPACITY = 1_000_000n;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Ids of every UTXO a tx consumes: its inputs, and an import's inputs from shared memory. */
function spentInputs(tx: ParsedTx): string[] {
  const u = tx.unsigned as unknown as {
    baseTx: { inputs: readonly TransferableInput[] };
    ins?: readonly TransferableInput[];
  };
  return [...u.baseTx.inputs, ...(u.ins ?? [])].map((i) => hex(inputIdOfInput(i)));
}

export class PlatformMempool {
  /** In arrival order, which is the order the next block takes them. */
  private readonly waiting = new Map<string, Waiting>();
  private readonly spentBy = new Map<string, string>();
  private readonly dropped = new Map<string, string>();
  private gasWaiting = 0n;

  /** The wait of a tx already in the mempool. */
  get(id: Uint8Array): Promise<Uint8Array> | undefined {
    return this.waiting.get(hex(id))?.done;
  }

  has(id: Uint8Array): boolean {
    return this.waiting.has(hex(id));
  }

  /** True when a waiting tx already spends one of the UTXOs `tx` spends. */
  conflicts(tx: ParsedTx): boolean {
    return spentInputs(tx).some((input) => this.spentBy.has(input));
  }

  /** True when `gas` more would not fit beside what waits already. */
  full(gas: bigint): boolean {
    return this.gasWaiting + gas > MEMPOOL_GAS_CAPACITY;
  }

  add(tx: ParsedTx, gas: bigint): Promise<Uint8Array> {
    let resolve!: (id: Uint8Array) => void;
    let reject!: (err: Error) => void;
    const done = new Promise<Uint8Array>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const key = hex(tx.id);
    this.waiting.set(key, { tx, gas, done, resolve, reject });
    this.gasWaiting += gas;
    for (const input of spentInputs(tx)) this.spentBy.set(input, key);
    return done;
  }

  /** Every waiting tx, still counted as waiting until `settle`. */
  all(): Waiting[] {
    return [...this.waiting.values()];
  }

  /** Ends a tx's wait: accepted, or failed (`err`). */
  settle(w: Waiting, err?: Error): void {
    const key = hex(w.tx.id);
    if (this.waiting.get(key) !== w) return;
    this.waiting.delete(key);
    this.gasWaiting -= w.gas;
    for (const input of spentInputs(w.tx)) if (this.spentBy.get(input) === key) this.spentBy.delete(input);
    if (err) w.reject(err);
    else w.resolve(w.tx.id);
  }

  drop(id: Uint8Array, reason: string): void {
    const key = hex(id);
    this.dropped.delete(key);
    if (this.dropped.size >= DROPPED_LIMIT) this.dropped.delete(this.dropped.keys().next().value!);
    this.dropped.set(key, reason);
  }

  dropReason(id: Uint8Array): string | undefined {
    return this.dropped.get(hex(id));
  }
}
