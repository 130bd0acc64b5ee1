/**
 * A reader's data store going away (PostgreSQL stopped, restarting, unreachable) and coming
 * back, said once each way (reader-outage.ts) rather than as an error with a stack trace at every
 * retry. The reader retries from its checkpoint, so nothing is lost meanwhile.
 */
import type { Logger } from '../../shared/logger.js';
import { isStoreAway } from '../store/database.js';
import { ReaderOutage } from './reader-outage.js';

export class StoreOutage extends ReaderOutage {
  constructor(logger: Logger | undefined, fields: Record<string, unknown>) {
    super(
      {
        isAway: isStoreAway,
        away: 'the data store does not answer; retrying',
        back: 'the data store answers again; indexing',
      },
      logger,
      fields,
    );
  }
}
