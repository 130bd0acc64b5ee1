/**
 * How an indexer that was following its node reports losing it: one warning when the node stops
 * answering (and a reminder every 30 s while it stays away), one line when it answers again.
 * A node restarted under an indexer is routine for an operator; an error with its stack trace at
 * every retry, every few seconds, buried everything else in the log.
 */
import type { Logger } from '../../shared/logger.js';
import { UpstreamUnavailableError } from '../internal/errors.js';

const REMIND_EVERY_MS = 30_000;

export class NodeOutage {
  private since: number | undefined;
  private lastLog = 0;

  constructor(
    private readonly logger: Logger | undefined,
    /** What names this reader in the log lines (its source, chain, node URL). */
    private readonly fields: Record<string, unknown>,
  ) {}

  /** Takes a failed step's error: true (logged as needed) when it is the node being unreachable. */
  failed(err: unknown): boolean {
    if (!(err instanceof UpstreamUnavailableError)) return false;
    const now = Date.now();
    this.since ??= now;
    if (now - this.lastLog >= REMIND_EVERY_MS) {
      this.lastLog = now;
      this.logger?.warn(
        { ...this.fields, err: err.message, awayMs: now - this.since },
        'the node does not answer; retrying',
      );
    }
    return true;
  }

  /** A step succeeded: says so once if the node had been away. */
  answered(): void {
    if (this.since === undefined) return;
    this.logger?.info(
      { ...this.fields, awayMs: Date.now() - this.since },
      'the node answers again; indexing',
    );
    this.since = undefined;
    this.lastLog = 0;
  }
}
