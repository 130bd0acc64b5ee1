/**
 * `flurry api --workers N`: the chain-data REST and metrics services in N worker processes
 * that share the listening ports (node:cluster). One Node process serves requests on one core;
 * workers put every core of the machine behind the same port, with no proxy in front.
 *
 * The primary runs no service itself: it prepares the store (migrations, page-token secret) so
 * workers never race to do it, forks the workers, prints one ready line once all are serving,
 * replaces a worker that dies, and stops them all on SIGINT/SIGTERM. What workers must agree
 * on already lives in the store: page tokens are signed with the store's secret (a token from
 * one worker opens on any other) and rate-limit budgets are pooled there (rate-limiter.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../shared/logger.js';
import type { DataReadyFacts } from './banner.js';

/** The message a worker sends once it serves. */
interface ReadyMessage {
  flurryWorkerReady: DataReadyFacts;
}

/** The message a worker sends when it cannot start: why, in the words of the role's one line. */
interface FailedMessage {
  flurryWorkerFailed: string;
}

/** Replacements allowed per minute before the primary gives up (a worker that cannot start). */
const MAX_RESTARTS_PER_MINUTE = 10;

export function isApiWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker: report readiness to the primary instead of printing the ready line. */
export function reportWorkerReady(facts: DataReadyFacts): void {
  const message: ReadyMessage = { flurryWorkerReady: facts };
  process.send?.(message);
}

/**
 * In a worker: tell the primary why this worker cannot start (it prints the line once for all
 * workers). Resolves once the message is written, so the worker may exit right after.
 */
export function reportWorkerFailed(reason: string): Promise<void> {
  const message: FailedMessage = { flurryWorkerFailed: reason };
  return new Promise((resolve) => {
    if (!process.send?.(message, undefined, {}, () => resolve())) resolve();
  });
}

export interface ApiWorkersOptions {
  workers: number;
  logger: Logger;
  /** Runs before the first worker starts (store migrations), so workers do not race to do it. */
  prepare(): Promise<void>;
  /** Prints the ready line (facts of the first worker, with the worker count). */
  announce(facts: DataReadyFacts & { workers: number }): void;
  /** Says why the workers could not start (the first worker's reason). */
  refused(reason: string): void;
}

/** The primary's side: fork, announce, keep N running, stop on a signal. Resolves with the exit code. */
export async function runApiWorkers(options: ApiWorkersOptions): Promise<number> {
  const { logger, workers } = options;
  await options.prepare();
  let stopping = false;
  let announced = false;
  const restarts: number[] = [];
  const live = new Set<Worker>();

  return new Promise<number>((resolve) => {
    const stopAll = (code: number) => {
      if (stopping) return;
      stopping = true;
      if (live.size === 0) return resolve(code);
      // Each worker closes its servers and store on SIGTERM, as `flurry api` alone does.
      for (const w of live) w.process.kill('SIGTERM');
      cluster.on('exit', () => {
        if (live.size === 0) resolve(code);
      });
    };
    const ready = new Map<number, DataReadyFacts>();
    let refusal: string | undefined;
    const fork = () => {
      const worker = cluster.fork();
      live.add(worker);
      worker.on('message', (message: Partial<ReadyMessage & FailedMessage>) => {
        if (typeof message?.flurryWorkerFailed === 'string') refusal ??= message.flurryWorkerFailed;
        if (!message?.flurryWorkerReady) return;
        ready.set(worker.id, message.flurryWorkerReady);
        if (!announced && ready.size >= workers) {
          announced = true;
          options.announce({ ...message.flurryWorkerReady, workers });
        }
      });
      worker.on('exit', (code, signal) => {
        live.delete(worker);
        ready.delete(worker.id);
        if (stopping) return;
        if (!announced) {
          // A worker that cannot start (port taken, store unreadable) stops the whole role.
          if (refusal !== undefined) options.refused(refusal);
          else logger.error({ code, signal }, 'an API worker did not start');
          return stopAll(1);
        }
        const now = Date.now();
        restarts.push(now);
        while (restarts.length > 0 && restarts[0] < now - 60_000) restarts.shift();
        if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
          logger.error({ code, signal }, 'API workers keep dying; stopping');
          return stopAll(1);
        }
        logger.warn({ code, signal, pid: worker.process.pid }, 'an API worker died; starting another');
        fork();
      });
    };
    process.once('SIGINT', () => stopAll(0));
    process.once('SIGTERM', () => stopAll(0));
    for (let i = 0; i < workers; i++) fork();
  });
}
