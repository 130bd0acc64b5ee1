/** SQL parameter helpers for the P-chain's tables. */
import type { SqlValue } from '../../../storage/database.js';

/**
 * A single blob parameter. libsql reads one lone Buffer argument as a named-parameter object and
 * aborts the process, so a lone blob travels inside an array (which libsql spreads).
 */
export function one(blob: Uint8Array): SqlValue {
  return [Buffer.from(blob)] as unknown as SqlValue;
}
