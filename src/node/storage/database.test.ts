import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { MAX_CACHED_STATEMENTS, NodeDatabase } from './database.js';

describe('NodeDatabase statement cache', () => {
  it('stays bounded however many distinct statements are prepared, and each still runs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-db-'));
    const db = new NodeDatabase(path.join(dir, 'node.db'));
    try {
      db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY)');
      db.prepare('INSERT INTO t (k) VALUES (?)').run(1);
      const first = db.prepare('SELECT k FROM t WHERE k IN (?)');
      // One text per shape, as eth_getLogs builds `address IN (?, ?, …)` per address count.
      for (let n = 1; n <= MAX_CACHED_STATEMENTS * 3; n++) {
        const sql = `SELECT k FROM t WHERE k IN (${Array(n).fill('?').join(',')})`;
        assert.equal(db.prepare(sql).get(...Array(n).fill(1))?.k, 1);
      }
      assert.ok(db.cachedStatements <= MAX_CACHED_STATEMENTS, `${db.cachedStatements} statements cached`);
      // A statement that left the cache still works for whoever holds it.
      assert.equal(first.get(1)?.k, 1);
      assert.equal(db.getMeta('missing'), undefined);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps a statement in use while one-off shapes come and go (least recently used leaves)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-db-'));
    const db = new NodeDatabase(path.join(dir, 'node.db'));
    try {
      db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY)');
      const hot = db.prepare('SELECT k FROM t WHERE k = ?');
      for (let n = 1; n <= MAX_CACHED_STATEMENTS * 2; n++) {
        db.prepare(`SELECT k FROM t WHERE k IN (${Array(n).fill('?').join(',')})`);
        // The hot statement runs between the one-off ones, as a block's reads do between calls.
        assert.equal(db.prepare('SELECT k FROM t WHERE k = ?'), hot, `re-prepared after ${n} one-off shapes`);
      }
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('NodeDatabase rollback listeners', () => {
  it('hear every transaction that rolls back (once, after the outermost), never one that commits', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-db-'));
    const db = new NodeDatabase(path.join(dir, 'node.db'));
    try {
      let heard = 0;
      db.onRollback(() => {
        // Heard once the rollback is done: the store no longer holds what the transaction wrote.
        assert.equal(db.getMeta('k'), undefined);
        heard++;
      });
      db.transaction(() => db.setMeta('other', 'x'));
      assert.equal(heard, 0);
      assert.throws(
        () =>
          db.transaction(() => {
            db.setMeta('k', 'v');
            db.transaction(() => {
              throw new Error('inner');
            });
          }),
        /inner/,
      );
      assert.equal(heard, 1);
      // A statement failing outside any transaction rolls nothing back.
      assert.throws(() => db.prepare('SELECT nope FROM meta').get());
      assert.equal(heard, 1);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
