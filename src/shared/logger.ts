/**
 * Structured logs (pino). They go to stderr so that stdout stays free for the banner and the
 * `--json` line that scripts read.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, name = 'flurry'): Logger {
  return pino({ name, level }, pino.destination({ fd: 2, sync: false }));
}
