/** A reader's node going away and coming back, said once each way (reader-outage.ts). */
import type { Logger } from '../../shared/logger.js';
import { UpstreamUnavailableError } from '../internal/errors.js';
import { ReaderOutage } from './reader-outage.js';

export class NodeOutage extends ReaderOutage {
  constructor(logger: Logger | undefined, fields: Record<string, unknown>) {
    super(
      {
        isAway: (err) => err instanceof UpstreamUnavailableError,
        away: 'the node does not answer; retrying',
        back: 'the node answers again; indexing',
      },
      logger,
      fields,
    );
  }
}
