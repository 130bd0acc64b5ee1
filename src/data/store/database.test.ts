import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toStoreError, withRetry } from './database.js';

const sqliteError = (code: string) => Object.assign(new Error('database is locked'), { code });

describe('store errors', () => {
  it('treats SQLite lock errors, extended codes included, as retryable', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED'])
      assert.equal(toStoreError(sqliteError(code)).retryable, true, code);
    assert.equal(toStoreError(sqliteError('SQLITE_CONSTRAINT_PRIMARYKEY')).retryable, false);
  });

  it('retries a transaction whose snapshot another connection moved past', async () => {
    let calls = 0;
    const result = await withRetry(async () => {
      if (++calls === 1) throw sqliteError('SQLITE_BUSY_SNAPSHOT');
      return 'written';
    });
    assert.equal(result, 'written');
    assert.equal(calls, 2);
  });
});
