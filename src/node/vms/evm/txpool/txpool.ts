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
 * gapped transactions until every new one is refused.
 *
 * Its size is bounded as legacypool bounds it (limits.ts): a full pool refuses a transaction
 * paying no more than its cheapest, or discards the cheapest to make room (`add`); after each
 * change the chain calls `enforceLimits`, legacypool's reorg step, which trims queued
 * transactions per sender and in all, and executable ones over the global slots.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { DEFAULT_TX_POOL_LIMITS, pendingTrims, queueTrims, txSlots, type TxPoolLimits } from './limits.js';
import { comparePay, feeCaps } from './price-order.js';
import { txBytes } from '../tx-bytes.js';

export { feeCaps };

export interface PooledTx {
  readonly tx: TypedTransaction;
  readonly hash: string;
  /** Lower-case 0x sender. */
  readonly sender: string;
  readonly nonce: bigint;
  /** Arrival order, for fair block filling. */
  readonly seq: number;
  /** The 32 KiB slots its encoding takes of the pool's capacity. */
  readonly slots: number;
}

/** A transaction the pool let go of, and why. */
export interface DroppedTx {
  readonly pooled: PooledTx;
  readonly reason: string;
}

/** What the pool must know of the chain to take a transaction. */
export interface AddContext {
  /** The sender's nonce in the accepted state. */
  readonly stateNonce: bigint;
  /** The next block's base fee, by which transactions are ranked when the pool is full. */
  readonly baseFee: bigint;
}

/** A replacement must raise the fee caps by this percentage. */
export const PRICE_BUMP_PERCENT = 10n;

/** coreth's default `tx-pool-lifetime`: how long a sender's queued transactions may wait. */
export const TX_POOL_LIFETIME_MS = 10 * 60_000;

/** How often the chain looks for queued transactions past their lifetime (geth's evictionInterval). */
export const TX_POOL_EVICTION_INTERVAL_MS = 60_000;

export interface TxPoolOptions {
  limits?: TxPoolLimits;
  lifetimeMs?: number;
  now?: () => number;
}

/** A heartbeat: when, and a counter that orders beats of the same millisecond. */
interface Beat {
  readonly at: number;
  readonly order: number;
}

export class TxPool {
  private readonly bySender = new Map<string, Map<bigint, PooledTx>>();
  private readonly byHash = new Map<string, PooledTx>();
  /** Each sender's last heartbeat; a sender leaves it with its last transaction. */
  private readonly beats = new Map<string, Beat>();
  /** Each pooled sender's nonce in the accepted state, as last learnt (it only grows). */
  private readonly stateNonces = new Map<string, bigint>();
  /**
   * Each sender's next nonce from a state nonce (`base`), kept so that a sender sending one
   * transaction after another costs the same at any pool depth: it only moves forward while
   * the sender's run grows, and is dropped when a transaction inside the run leaves.
   */
  private readonly nextNonces = new Map<string, { base: bigint; next: bigint }>();
  private seq = 0;
  private beatOrder = 0;
  private usedSlots = 0;
  readonly limits: TxPoolLimits;
  private readonly lifetimeMs: number;
  private readonly now: () => number;

  constructor(options: TxPoolOptions = {}) {
    this.limits = options.limits ?? DEFAULT_TX_POOL_LIMITS;
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
   * Adds a validated transaction; returns the one it replaced, if any, and those discarded to
   * make room. Throws legacypool's messages, in its order: a full pool's `transaction
   * underpriced`, `txpool is full` and `future transaction tries to replace pending`, then
   * `replacement transaction underpriced`.
   */
  add(
    tx: TypedTransaction,
    sender: string,
    at: AddContext,
  ): { pooled: PooledTx; replaced?: PooledTx; discarded: PooledTx[] } {
    const hash = bytesToHex(tx.hash());
    if (this.byHash.has(hash)) throw new Error(`already known`);
    const known = this.stateNonces.get(sender);
    const stateNonce = known !== undefined && known > at.stateNonce ? known : at.stateNonce;
    const slotsNeeded = txSlots(txBytes(tx).length);
    const gapped = tx.nonce > this.nextNonce(sender, stateNonce);
    const discarded = this.makeRoom(tx, slotsNeeded, gapped, at.baseFee);
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
    }
    // A queued tx of a sender that had none starts its heartbeat anew: legacypool forgets a
    // sender's heartbeat when its queue empties.
    const next = this.nextNonce(sender, stateNonce);
    const startsQueue = tx.nonce > next && !this.hasQueued(sender, next);
    const pooled: PooledTx = { tx, hash, sender, nonce: tx.nonce, seq: this.seq++, slots: slotsNeeded };
    if (!slots) {
      slots = new Map();
      this.bySender.set(sender, slots);
    }
    if (existing) this.forget(existing);
    slots.set(tx.nonce, pooled);
    this.byHash.set(hash, pooled);
    this.usedSlots += pooled.slots;
    this.stateNonces.set(sender, stateNonce);
    if (!this.beats.has(sender) || startsQueue) this.beat(sender);
    return { pooled, replaced: existing, discarded };
  }

  /**
   * Frees the slots `tx` needs when the pool (global slots plus global queue) is full, by
   * discarding the cheapest transactions, as legacypool's add: none when `tx` pays no more than
   * the cheapest, nor when a gapped `tx` would push out an executable one.
   */
  private makeRoom(tx: TypedTransaction, needed: number, gapped: boolean, baseFee: bigint): PooledTx[] {
    const over = this.usedSlots + needed - (this.limits.globalSlots + this.limits.globalQueue);
    if (over <= 0) return [];
    const cheapestFirst = [...this.byHash.values()].sort(
      // Of the same pay, the higher nonce (then the later arrival) goes first.
      (a, b) =>
        comparePay(a.tx, b.tx, baseFee) || (b.nonce > a.nonce ? 1 : b.nonce < a.nonce ? -1 : b.seq - a.seq),
    );
    if (cheapestFirst.length > 0 && comparePay(cheapestFirst[0].tx, tx, baseFee) >= 0)
      throw new Error('transaction underpriced');
    const drop: PooledTx[] = [];
    let freed = 0;
    for (const p of cheapestFirst) {
      if (freed >= over) break;
      drop.push(p);
      freed += p.slots;
    }
    if (freed < over) throw new Error('txpool is full');
    if (gapped && drop.some((p) => this.isPending(p)))
      throw new Error('future transaction tries to replace pending');
    for (const p of drop) this.remove(p.hash);
    return drop;
  }

  /**
   * legacypool's reorg step, run after each change: each sender's queued transactions over the
   * account queue go (highest nonces first); then executable ones over the global slots, from
   * the senders above their account slots; then queued ones over the global queue, from the
   * senders with the oldest heartbeat.
   */
  enforceLimits(): DroppedTx[] {
    const dropped: DroppedTx[] = [];
    const drop = (list: readonly PooledTx[], reason: string) => {
      for (const p of list) {
        this.remove(p.hash);
        dropped.push({ pooled: p, reason });
      }
    };
    const pendingCounts = new Map<string, number>();
    const queuedOf = new Map<string, PooledTx[]>();
    let pendingTotal = 0;
    for (const [sender, slots] of this.bySender) {
      const stateNonce = this.stateNonce(sender);
      const next = this.nextNonce(sender, stateNonce);
      const pending = Number(next - stateNonce);
      pendingCounts.set(sender, pending);
      pendingTotal += pending;
      // Most senders send in order and have nothing queued: no need to look at their txs.
      if (this.queuedAtMost(sender, next) <= 0) continue;
      const queued = [...slots.values()]
        .filter((p) => p.nonce > next)
        .sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
      drop(queued.splice(this.limits.accountQueue), 'over the account queue limit');
      if (queued.length > 0) queuedOf.set(sender, queued);
    }
    if (pendingTotal > this.limits.globalSlots)
      for (const [sender, n] of pendingTrims(pendingCounts, this.limits)) {
        const run = this.pendingRun(sender, this.stateNonce(sender));
        drop(run.slice(run.length - n), 'over the global slots');
      }
    const oldestFirst = [...queuedOf.keys()].sort((a, b) => {
      const x = this.beats.get(a)!;
      const y = this.beats.get(b)!;
      return x.at - y.at || x.order - y.order;
    });
    const trims = queueTrims(
      oldestFirst.map((sender) => ({ sender, count: queuedOf.get(sender)!.length })),
      this.limits.globalQueue,
    );
    for (const [sender, n] of trims) {
      const queued = queuedOf.get(sender)!;
      drop(queued.slice(queued.length - n), 'over the global queue limit');
    }
    return dropped;
  }

  /** A transaction of `sender` became executable (geth's promoteTx): its heartbeat is renewed. */
  heartbeat(sender: string): void {
    if (this.bySender.has(sender)) this.beat(sender);
  }

  private beat(sender: string): void {
    this.beats.set(sender, { at: this.now(), order: this.beatOrder++ });
  }

  /** The sender's nonce in the accepted state moved on (a block, or a fresher read). */
  noteStateNonce(sender: string, nonce: bigint): void {
    const known = this.stateNonces.get(sender);
    if (known !== undefined && nonce > known) this.stateNonces.set(sender, nonce);
  }

  private stateNonce(sender: string): bigint {
    return this.stateNonces.get(sender) ?? 0n;
  }

  /** Executable: in its sender's gap-free run from the state nonce. */
  private isPending(p: PooledTx): boolean {
    return p.nonce < this.nextNonce(p.sender, this.stateNonce(p.sender));
  }

  private hasQueued(sender: string, next: bigint): boolean {
    if (this.queuedAtMost(sender, next) === 0) return false;
    for (const n of this.bySender.get(sender)?.keys() ?? []) if (n > next) return true;
    return false;
  }

  /**
   * An upper bound on `sender`'s queued transactions (its transactions outside the executable
   * run ending at `next`): exact unless some are below the state nonce, about to be dropped.
   */
  private queuedAtMost(sender: string, next: bigint): number {
    const slots = this.bySender.get(sender);
    return slots ? slots.size - Number(next - this.stateNonce(sender)) : 0;
  }

  /** Senders whose heartbeat is older than the lifetime: their queued transactions may go. */
  expiredSenders(): string[] {
    const cutoff = this.now() - this.lifetimeMs;
    const out: string[] = [];
    for (const [sender, beat] of this.beats) if (beat.at < cutoff) out.push(sender);
    return out;
  }

  /**
   * Evicts `sender`'s queued transactions (those behind a nonce gap from `stateNonce`) when its
   * heartbeat is past the lifetime, as legacypool's eviction loop does; its executable ones stay.
   */
  evictQueued(sender: string, stateNonce: bigint): PooledTx[] {
    const beat = this.beats.get(sender);
    if (beat === undefined || this.now() - beat.at <= this.lifetimeMs) return [];
    const slots = this.bySender.get(sender);
    if (!slots) return [];
    this.noteStateNonce(sender, stateNonce);
    const run = new Set(this.pendingRun(sender, stateNonce));
    const evicted = [...slots.values()].filter((p) => !run.has(p));
    for (const p of evicted) this.remove(p.hash);
    return evicted;
  }

  remove(hash: string): void {
    const p = this.byHash.get(hash);
    if (!p) return;
    this.forget(p);
    const slots = this.bySender.get(p.sender);
    slots?.delete(p.nonce);
    const cached = this.nextNonces.get(p.sender);
    if (cached && p.nonce >= cached.base && p.nonce < cached.next) this.nextNonces.delete(p.sender);
    if (slots && slots.size === 0) {
      this.bySender.delete(p.sender);
      this.beats.delete(p.sender);
      this.stateNonces.delete(p.sender);
      this.nextNonces.delete(p.sender);
    }
  }

  /** Takes `p` out of the lookup and the slot count (its sender's list is the caller's). */
  private forget(p: PooledTx): void {
    this.byHash.delete(p.hash);
    this.usedSlots -= p.slots;
  }

  /** Drops every transaction of `sender` with a nonce below `nonce` (mined or made stale). */
  dropBelow(sender: string, nonce: bigint): PooledTx[] {
    const slots = this.bySender.get(sender);
    if (!slots) return [];
    const dropped: PooledTx[] = [];
    for (const [n, p] of slots) if (n < nonce) dropped.push(p);
    for (const p of dropped) this.remove(p.hash);
    this.noteStateNonce(sender, nonce);
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
    if (!slots) return stateNonce;
    let cached = this.nextNonces.get(sender);
    if (!cached || cached.base !== stateNonce) {
      cached = { base: stateNonce, next: stateNonce };
      this.nextNonces.set(sender, cached);
    }
    while (slots.has(cached.next)) cached.next++;
    return cached.next;
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
