import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Logger } from '../../shared/logger.js';
import type { DataSchema } from '../store/schema.js';
import { pooledUsage } from './pooled-usage.js';

test('a store outage while pooling is one warning line without a stack trace', () => {
  const warnings: unknown[][] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
  const { onSyncError } = pooledUsage({} as Kysely<DataSchema>, logger);
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  onSyncError!(refused, 1);
  onSyncError!(refused, 2);
  assert.equal(warnings.length, 1, 'said once, not at every sync');
  const [fields, msg] = warnings[0]!;
  assert.equal(msg, 'rate-limit usage could not be pooled; retrying');
  // pino prints an Error with its stack: a restarted database filled the log with them.
  assert.deepEqual(fields, { err: 'connect ECONNREFUSED 127.0.0.1:5432', failures: 1 });
});
