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
