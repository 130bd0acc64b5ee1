import { InvalidParameterError } from '../../internal/errors.js';

/** A time range whose end is before its start is refused rather than answered empty. */
export function checkTimeRange(q: { startTimestamp?: number; endTimestamp?: number }): void {
  if (q.startTimestamp !== undefined && q.endTimestamp !== undefined && q.endTimestamp < q.startTimestamp)
    throw new InvalidParameterError('endTimestamp must not be before startTimestamp');
}
