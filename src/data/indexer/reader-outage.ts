/**
 * How an indexer's reader reports losing something it depends on (its node, its data store):
 * one warning when it stops answering (and a reminder every 30 s while it stays away), one line
 * when it answers again. Either restarted under an indexer is routine for an operator; an error
 * with its stack trace at every retry, every few seconds, buried everything else in the log.
 */
import type { Logger } from '../../shared/logger.js';

const REMIND_EVERY_MS = 30_000;

export interface OutageWords {
  /** Whether a failed step's error is this dependency being away. */
  isAway(err: unknown): boolean;
  away: string;
  back: string;
}

export class ReaderOutage {
  private since: number | undefined;
  private lastLog = 0;

  constructor(
    private readonly words: OutageWords,
    private readonly logger: Logger | undefined,
    /** What names this reader in the log lines (its source, chain, node URL). */
    private readonly fields: Record<string, unknown>,
  ) {}

  /** Takes a failed step's error: true (logged as needed) when it is the dependency being away. */
  failed(err: unknown): boolean {
    if (!this.words.isAway(err)) return false;
    const now = Date.now();
    this.since ??= now;
    if (now - this.lastLog >= REMIND_EVERY_MS) {
      this.lastLog = now;
      const message = err instanceof Error ? err.message : String(err);
      this.logger?.warn({ ...this.fields, err: message, awayMs: now - this.since }, this.words.away);
    }
    return true;
  }

  /** A step succeeded: says so once if the dependency had been away. */
  answered(): void {
    if (this.since === undefined) return;
    this.logger?.info({ ...this.fields, awayMs: Date.now() - this.since }, this.words.back);
    this.since = undefined;
    this.lastLog = 0;
  }
}
