/**
 * BLS signing on worker threads. The devnet hosts every validator in the node's process; signing
 * one message costs about half a millisecond, so signing them one after another on the event loop
 * delays every aggregation (and with 1,000 validators stalls the node for half a second), where
 * real validators, each on its own machine, sign in parallel. The pool spreads that work over a
 * few threads.
 *
 * Never loses a request and never hangs: workers start on first use and the pool signs inline
 * until one reports ready; a worker that fails to start, errors or exits hands its pending
 * requests back to inline signing; an error inside a worker is retried inline, so the caller
 * sees the same error an inline signature would raise. A worker that dies after it was ready is
 * replaced, after a pause that doubles with each death in a row (a worker that cannot start at
 * all is not: that is a setup problem a replacement would only repeat). Workers hold the event loop only while
 * they have requests in flight, so they never keep the process alive or delay its exit.
 *
 * Each request and answer is one transferred ArrayBuffer (no JSON, no structured-clone walk):
 *   request: id u32 LE | secret key (32) | message
 *   answer:  id u32 LE | status u8 (0 signed, 1 failed) | signature (96, when signed)
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { blsSign } from '../../shared/crypto/bls.js';

export type BlsSignFn = (secretKey: Uint8Array, message: Uint8Array) => Promise<Uint8Array>;

export interface SignPool {
  sign: BlsSignFn;
  /** Resolves once the workers are started and ready (or gone); how many are ready. */
  ready(): Promise<number>;
  /** How many signatures were made on workers and inline so far. */
  stats(): { workers: number; inWorkers: number; inline: number };
  /** Terminates the workers; requests still pending on them finish inline. */
  close(): Promise<void>;
}

export interface SignPoolOptions {
  /** Worker count (default: `defaultPoolSize()`, at most MAX_WORKERS); 0 signs inline only. */
  size?: number;
  /** Module the workers load blst from (default: this package's `@chainsafe/blst`). */
  blstModule?: string;
  /** Told when a worker fails or exits unexpectedly. */
  onWorkerError?: (err: Error) => void;
  /** Pause before the first replacement of a dead worker (default 100 ms; doubles per death in a row). */
  restartDelayMs?: number;
}

/** A few threads suffice: each validator signs once per message, and the host has few CPUs. */
export const MAX_WORKERS = 4;
const SECRET_KEY_LENGTH = 32;
const SIGNATURE_LENGTH = 96;
const READY = 'ready';
/** Longest pause before a dead worker is replaced. */
const MAX_RESTART_DELAY_MS = 60_000;

// An eval worker that loads blst (CommonJS) by absolute path: it starts the same whether this
// module runs from the TypeScript sources (tsx) or from dist/, and whether the process evaluates
// such code as CommonJS or, under --input-type=module, as an ES module (hence dynamic imports).
const workerSource = (blstPath: string) => `
'use strict';
(async () => {
const { parentPort } = await import('node:worker_threads');
const { createRequire } = await import('node:module');
const blst = createRequire(${JSON.stringify(blstPath)})(${JSON.stringify(blstPath)});
// Parsed secret keys by their bytes: each validator's key is parsed once per worker.
const keys = new Map();
const MAX_KEYS = 10000;
parentPort.on('message', (buffer) => {
  const bytes = new Uint8Array(buffer);
  const answer = new ArrayBuffer(${4 + 1 + SIGNATURE_LENGTH});
  const out = new Uint8Array(answer);
  out.set(bytes.subarray(0, 4), 0);
  try {
    const raw = bytes.subarray(4, ${4 + SECRET_KEY_LENGTH});
    const id = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
    let key = keys.get(id);
    if (key === undefined) {
      key = blst.SecretKey.fromBytes(raw);
      if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value);
      keys.set(id, key);
    }
    out.set(key.sign(bytes.subarray(${4 + SECRET_KEY_LENGTH})).toBytes(true), 5);
  } catch {
    out[4] = 1;
  }
  parentPort.postMessage(answer, [answer]);
});
parentPort.postMessage('${READY}');
})();
`;

interface Pending {
  secretKey: Uint8Array;
  message: Uint8Array;
  resolve(signature: Uint8Array): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

/**
 * One worker per CPU beyond the one the event loop runs on (at least one): the event loop stays
 * busy with the validators' HTTP traffic meanwhile, and on a 2-CPU host a second worker measured
 * slower than one.
 */
export function defaultPoolSize(): number {
  return Math.min(MAX_WORKERS, Math.max(1, os.availableParallelism() - 1));
}

export function createSignPool(options: SignPoolOptions = {}): SignPool {
  const size = Math.max(0, Math.min(MAX_WORKERS, options.size ?? defaultPoolSize()));
  const slots: Slot[] = [];
  let started = false;
  let closed = false;
  let nextId = 0;
  let inWorkers = 0;
  let inline = 0;
  let readyWaiters: (() => void)[] = [];
  let booting = 0;
  let source: string | undefined;
  /** Workers that died after starting, without a signature made on a worker since. */
  let deathsInARow = 0;
  const restartDelayMs = options.restartDelayMs ?? 100;

  const signInline = (secretKey: Uint8Array, message: Uint8Array): Promise<Uint8Array> => {
    inline++;
    try {
      return Promise.resolve(blsSign(secretKey, message));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };
  const settleInline = (p: Pending) => signInline(p.secretKey, p.message).then(p.resolve, p.reject);

  const bootDone = () => {
    booting--;
    if (booting > 0) return;
    const waiters = readyWaiters;
    readyWaiters = [];
    for (const w of waiters) w();
  };

  /**
   * A worker that failed or exited: drop it, finish its requests inline, and replace it if it
   * had been working.
   */
  const retire = (slot: Slot, err?: Error) => {
    const at = slots.indexOf(slot);
    if (at < 0) return;
    slots.splice(at, 1);
    if (!slot.ready) bootDone();
    if (err && !closed) options.onWorkerError?.(err);
    const pending = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of pending) settleInline(p);
    if (slot.ready && !closed) {
      const delay = Math.min(MAX_RESTART_DELAY_MS, restartDelayMs * 2 ** deathsInARow++);
      setTimeout(() => {
        if (!closed) spawn();
      }, delay).unref();
    }
  };

  const onAnswer = (slot: Slot, data: unknown) => {
    if (data === READY) {
      slot.ready = true;
      slot.worker.unref(); // it may have been held for a ready() waiter
      bootDone();
      return;
    }
    const answer = new Uint8Array(data as ArrayBuffer);
    const id = new DataView(answer.buffer).getUint32(0, true);
    const p = slot.pending.get(id);
    if (!p) return;
    slot.pending.delete(id);
    if (slot.pending.size === 0) slot.worker.unref();
    if (answer[4] === 0) {
      inWorkers++;
      deathsInARow = 0;
      p.resolve(answer.subarray(5, 5 + SIGNATURE_LENGTH));
    } else {
      settleInline(p); // the inline attempt raises the same error with its message
    }
  };

  const spawn = () => {
    if (source === undefined) return;
    let worker: Worker;
    try {
      worker = new Worker(source, { eval: true });
    } catch (err) {
      options.onWorkerError?.(err as Error);
      return;
    }
    const slot: Slot = { worker, ready: false, pending: new Map() };
    slots.push(slot);
    booting++;
    worker.on('message', (data) => onAnswer(slot, data));
    worker.on('error', (err) => retire(slot, err));
    worker.on('exit', (code) => retire(slot, new Error(`signing worker exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
  };

  const start = () => {
    started = true;
    try {
      source = workerSource(options.blstModule ?? createRequire(import.meta.url).resolve('@chainsafe/blst'));
    } catch (err) {
      options.onWorkerError?.(err as Error);
      return;
    }
    for (let i = 0; i < size; i++) spawn();
  };

  /** The ready worker with the fewest requests in flight, if any. */
  const pick = (): Slot | undefined => {
    let best: Slot | undefined;
    for (const s of slots) if (s.ready && (!best || s.pending.size < best.pending.size)) best = s;
    return best;
  };

  return {
    sign(secretKey, message) {
      if (!started && !closed && size > 0) start();
      const slot = secretKey.length === SECRET_KEY_LENGTH ? pick() : undefined;
      if (!slot) return signInline(secretKey, message);
      const id = nextId;
      nextId = (nextId + 1) >>> 0;
      const request = new ArrayBuffer(4 + SECRET_KEY_LENGTH + message.length);
      const bytes = new Uint8Array(request);
      new DataView(request).setUint32(0, id, true);
      bytes.set(secretKey, 4);
      bytes.set(message, 4 + SECRET_KEY_LENGTH);
      return new Promise<Uint8Array>((resolve, reject) => {
        const pending = { secretKey, message, resolve, reject };
        try {
          slot.worker.postMessage(request, [request]);
        } catch {
          settleInline(pending);
          return;
        }
        if (slot.pending.size === 0) slot.worker.ref();
        slot.pending.set(id, pending);
      });
    },

    ready() {
      if (!started && !closed && size > 0) start();
      if (booting === 0) return Promise.resolve(slots.filter((s) => s.ready).length);
      // Someone waits for the workers: they hold the event loop until they are up.
      for (const s of slots) if (!s.ready) s.worker.ref();
      return new Promise((resolve) => readyWaiters.push(() => resolve(slots.filter((s) => s.ready).length)));
    },

    stats() {
      return { workers: slots.filter((s) => s.ready).length, inWorkers, inline };
    },

    async close() {
      closed = true;
      await Promise.all([...slots].map((s) => s.worker.terminate()));
    },
  };
}
