/**
 * Another indexer on the same store (two `flurry indexer` processes for availability): both read
 * each new range, one commits it first, and the other's batch finds the checkpoint moved and is
 * rejected whole (store/batch.ts). That is the expected outcome, not a failure: the loser goes on
 * at once from the new checkpoint. It is said once per reader, at info; each later race only at
 * debug, where a warning with a stack trace at every block used to fill the log.
 */
import type { Logger } from '../../shared/logger.js';
import { CheckpointConflictError } from '../store/batch.js';

export class RivalIndexer {
  private said = false;

  constructor(
    private readonly logger: Logger | undefined,
    /** What names this reader in the log lines (its source or chain). */
    private readonly fields: Record<string, unknown>,
  ) {}

  /** Takes a failed batch's error: true (logged as needed) when another indexer wrote it first. */
  wroteFirst(err: unknown): boolean {
    if (!(err instanceof CheckpointConflictError)) return false;
    if (this.said)
      this.logger?.debug({ ...this.fields, err: err.message }, 'another indexer wrote this range first');
    else
      this.logger?.info(
        { ...this.fields, err: err.message },
        'another indexer writes this store too; ranges it writes first are skipped',
      );
    this.said = true;
    return true;
  }
}
