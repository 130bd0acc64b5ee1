/**
 * Pools a rate limiter's spending in the data store (`rate_limit_usage`), so every process on one
 * database — `flurry api --workers N`, or replicas behind a load balancer — enforces one budget
 * between them. Both the REST service and the metrics service meter through it.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../shared/logger.js';
import type { DataSchema } from '../store/schema.js';
import { readOnlyStoreCode } from '../store/database.js';
import { addRateLimitUsage, pruneRateLimitUsage } from '../store/queries/rate-limits.js';
import type { RateLimiterOptions } from './rate-limiter.js';

/** Syncs run every 250 ms: 120 failed ones are 30 s of an outage. */
const WARN_EVERY_FAILURES = 120;

export function pooledUsage(
  db: Kysely<DataSchema>,
  logger?: Logger,
): Pick<RateLimiterOptions, 'shared' | 'onSyncError' | 'onSyncRecovered'> {
  return {
    shared: {
      add: (deltas) => addRateLimitUsage(db, deltas),
      prune: (beforeMs) => pruneRateLimitUsage(db, beforeMs),
    },
    // While the database is away, say so once and then every 30 s, not four times a second, and
    // say when pooling works again. A read-only store will not come back: say so once, in one
    // line (the API keeps serving reads), and stop pooling.
    onSyncError: (err, failures) => {
      const readOnly = readOnlyStoreCode(err);
      if (readOnly) {
        logger?.warn(
          `rate-limit usage is not pooled: the data store is read-only (${readOnly}); this process meters its callers alone`,
        );
        return 'stop';
      }
      if (failures === 1 || failures % WARN_EVERY_FAILURES === 0)
        logger?.warn(
          { err: err instanceof Error ? err.message : String(err), failures },
          'rate-limit usage could not be pooled; retrying',
        );
    },
    onSyncRecovered: (failures) => logger?.info({ failures }, 'rate-limit usage pooled again'),
  };
}
