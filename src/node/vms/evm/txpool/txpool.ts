/**
 * The transaction pool, with geth's rules as clients meet them: a transaction whose nonce is the
 * sender's next is *pending* (executable); one with a gap before it is *queued* and waits until
 * the gap fills (it is never executed out of order); a second transaction with the same sender
 * and nonce replaces the first only when it raises both fee caps, each by at least 10%. The pool lives
 * in memory: after a restart clients resubmit, as with the reference node.
 *
 * A queued transaction whose gap never fills (its sender gave up, or crashed) does not stay for
 * ever: as coreth's legacypool, each sender has a heartbeat — set when its first transaction
 * arrives, renewed whenever one of its transactions becomes executable — and the queued
 * transactions of a sender whose heartbeat is older than the lifetime (coreth's
 * `tx-pool-lifetime`, 10 minutes) are evicted. Without it a long-running node would fill with
 * gapped transactions until every new one is refused with `txpool is full`.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';

export interface PooledTx {
  readonly tx: TypedTransaction;
  readonly hash: string;
  /** Lower-case 0x sender. */
  readonly sender: string;
  readonly nonce: bigint;
  /** Arrival order, for fair block filling. */
  readonly seq: number;
}

/** A replacement must raise the fee caps by this percentage. */
export const PRICE_BUMP_PERCENT = 10n;

export function feeCaps(tx: TypedTransaction): { maxFee: bigint; tip: bigint } {
  const t = tx as any;
  if (t.maxFeePerGas !== undefined) return { maxFee: t.maxFeePerGas, tip: t.maxPriorityFeePerGas };
  return { maxFee: t.gasPrice, tip: t.gasPrice };
}

/** coreth's default `tx-pool-lifetime`: how long a sender's queued transactions may wait. */
export const TX_POOL_LIFETIME_MS = 10 * 60_000;

/** How often the chain looks for queued transactions past their lifetime (geth's evictionInterval). */
export const TX_POOL_EVICTION_INTERVAL_MS = 60_000;

export interface TxPoolOptions {
  maxSize?: number;
  lifetimeMs?: number;
  now?: () => number;
}

export class TxPool {
  private readonly bySender = new Map<string, Map<bigint, PooledTx>>();
  private readonly byHash = new Map<string, PooledTx>();
  /** Each sender's last heartbeat (ms); a sender leaves it with its last transaction. */
  private readonly beats = new Map<string, number>();
  private seq = 0;
  private readonly maxSize: number;
  private readonly lifetimeMs: number;
  private readonly now: () => number;

  constructor(options: TxPoolOptions = {}) {
    this.maxSize = options.maxSize ?? 20_000;
    this.lifetimeMs = options.lifetimeMs ?? TX_POOL_LIFETIME_MS;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.byHash.size;
  }

  has(hash: string): boolean {
    return this.byHash.has(hash);
  }

  get(hash: string): PooledTx | undefined {
    return this.byHash.get(hash);
  }

  /**
   * Adds a validated transaction; returns the replaced one, if any. Throws the geth messages for
   * an underpriced replacement or a full pool.
   */
  add(tx: TypedTransaction, sender: string): { pooled: PooledTx; replaced?: PooledTx } {
    const hash = bytesToHex(tx.hash());
    if (this.byHash.has(hash)) throw new Error(`already known`);
    let slots = this.bySender.get(sender);
    const existing = slots?.get(tx.nonce);
    if (existing) {
      const old = feeCaps(existing.tx);
      const neu = feeCaps(tx);
      // geth's list.Add: both caps strictly higher, and at least 10% higher (rounded down). The
      // first rule matters for wei-level fees, where 10% rounds to nothing: on a devnet with a
      // 1 wei base fee, a resend at the same fees would otherwise replace the first.
      const needFee = ((100n + PRICE_BUMP_PERCENT) * old.maxFee) / 100n;
      const needTip = ((100n + PRICE_BUMP_PERCENT) * old.tip) / 100n;
      if (neu.maxFee <= old.maxFee || neu.tip <= old.tip || neu.maxFee < needFee || neu.tip < needTip)
        throw new Error('replacement transaction underpriced');
    } else if (this.byHash.size >= this.maxSize) {
      throw new Error('txpool is full');
    }
    const pooled: PooledTx = { tx, hash, sender, nonce: tx.nonce, seq: this.seq++ };
    if (!slots) {
      slots = new Map();
      this.bySender.set(sender, slots);
    }
    if (existing) this.byHash.delete(existing.hash);
    slots.set(tx.nonce, pooled);
    this.byHash.set(hash, pooled);
    // As enqueueTx: a sender's first transaction starts its heartbeat.
    if (!this.beats.has(sender)) this.beats.set(sender, this.now());
    return { pooled, replaced: existing };
  }

  /** A transaction of `sender` became executable (geth's promoteTx): its heartbeat is renewed. */
  heartbeat(sender: string): void {
    if (this.bySender.has(sender)) this.beats.set(sender, this.now());
  }

  /** Senders whose heartbeat is older than the lifetime: their queued transactions may go. */
  expiredSenders(): string[] {
    const cutoff = this.now() - this.lifetimeMs;
    const out: string[] = [];
    for (const [sender, beat] of this.beats) if (beat < cutoff) out.push(sender);
    return out;
  }

  /**
   * Evicts `sender`'s queued transactions (those behind a nonce gap from `stateNonce`) when its
   * heartbeat is past the lifetime, as legacypool's eviction loop does; its executable ones stay.
   */
  evictQueued(sender: string, stateNonce: bigint): PooledTx[] {
    const beat = this.beats.get(sender);
    if (beat === undefined || this.now() - beat <= this.lifetimeMs) return [];
    const slots = this.bySender.get(sender);
    if (!slots) return [];
    const run = new Set(this.pendingRun(sender, stateNonce));
    const evicted = [...slots.values()].filter((p) => !run.has(p));
    for (const p of evicted) this.remove(p.hash);
    return evicted;
  }

  remove(hash: string): void {
    const p = this.byHash.get(hash);
    if (!p) return;
    this.byHash.delete(hash);
    const slots = this.bySender.get(p.sender);
    slots?.delete(p.nonce);
    if (slots && slots.size === 0) {
      this.bySender.delete(p.sender);
      this.beats.delete(p.sender);
    }
  }

  /** Drops every transaction of `sender` with a nonce below `nonce` (mined or made stale). */
  dropBelow(sender: string, nonce: bigint): PooledTx[] {
    const slots = this.bySender.get(sender);
    if (!slots) return [];
    const dropped: PooledTx[] = [];
    for (const [n, p] of slots) if (n < nonce) dropped.push(p);
    for (const p of dropped) this.remove(p.hash);
    return dropped;
  }

  /** Drops `sender`'s transactions from `nonce` on (after one of them proved invalid). */
  dropFrom(sender: string, nonce: bigint): PooledTx[] {
    const slots = this.bySender.get(sender);
    if (!slots) return [];
    const dropped: PooledTx[] = [];
    for (const [n, p] of slots) if (n >= nonce) dropped.push(p);
    for (const p of dropped) this.remove(p.hash);
    return dropped;
  }

  /** The highest nonce of a gap-free run starting at `stateNonce`, +1 (the next nonce to use). */
  nextNonce(sender: string, stateNonce: bigint): bigint {
    const slots = this.bySender.get(sender);
    let n = stateNonce;
    while (slots?.has(n)) n++;
    return n;
  }

  /** `sender`'s gap-free run of transactions from `stateNonce`: what coreth's pool calls pending. */
  pendingRun(sender: string, stateNonce: bigint): PooledTx[] {
    const slots = this.bySender.get(sender);
    const run: PooledTx[] = [];
    for (let n = stateNonce; slots?.has(n); n++) run.push(slots.get(n)!);
    return run;
  }

  senders(): string[] {
    return [...this.bySender.keys()];
  }

  /** Split per sender into executable (from the state nonce, no gaps) and queued. */
  classify(nonceOf: (sender: string) => bigint): { pending: PooledTx[]; queued: PooledTx[] } {
    const pending: PooledTx[] = [];
    const queued: PooledTx[] = [];
    for (const [sender, slots] of this.bySender) {
      let next = nonceOf(sender);
      const sorted = [...slots.values()].sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
      for (const p of sorted) {
        if (p.nonce === next) {
          pending.push(p);
          next++;
        } else queued.push(p);
      }
    }
    pending.sort((a, b) => a.seq - b.seq);
    return { pending, queued };
  }

  /**
   * Executable transactions in block order: senders interleaved by arrival, each sender's in
   * nonce order. `nonceOf` gives the state nonce.
   */
  executable(nonceOf: (sender: string) => bigint): PooledTx[] {
    const perSender: PooledTx[][] = [];
    for (const [sender, slots] of this.bySender) {
      const run: PooledTx[] = [];
      let n = nonceOf(sender);
      for (;;) {
        const p = slots.get(n);
        if (!p) break;
        run.push(p);
        n++;
      }
      if (run.length) perSender.push(run);
    }
    // Merge by arrival while keeping each sender's nonce order.
    const out: PooledTx[] = [];
    const heads = perSender.map(() => 0);
    for (;;) {
      let best = -1;
      for (let i = 0; i < perSender.length; i++) {
        const h = perSender[i][heads[i]];
        if (h && (best < 0 || h.seq < perSender[best][heads[best]].seq)) best = i;
      }
      if (best < 0) break;
      out.push(perSender[best][heads[best]++]);
    }
    return out;
  }
}
