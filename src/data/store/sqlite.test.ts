import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqlite } from './sqlite.js';

describe('SQLite read connection', () => {
  let store: ReturnType<typeof openSqlite>;
  const byKey = { compare: (a: { k: number }, b: { k: number }) => a.k - b.k };

  before(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-sqlite-'));
    store = openSqlite(path.join(dir, 'data.db'));
    store.raw.exec(`create table t (k integer not null, big bigint, name text, doc text)`);
    const insert = store.raw.prepare('insert into t values (?, ?, ?, ?)');
    insert.run([3, 9_007_199_254_740_991, 'three', '{"a":[1,"x"]}']);
    insert.run([1, null, '', null]);
    insert.run([2, -5, 'two', '{"b":"\\u001e"}']);
  });
  after(() => {
    store.reader!.close();
    store.raw.close();
  });

  const SQL = 'select k, big, name, doc from t where k >= ? order by k';

  it('reads a packed result back with the same values, types and order as an unpacked one', () => {
    const plain = store.reader!.read(SQL, [1]);
    const packed = store.reader!.read(SQL, [1], { pack: byKey });
    assert.deepEqual(packed, plain);
    assert.deepEqual(
      plain.map((r: any) => r.k),
      [1, 2, 3],
    );
    assert.deepEqual(plain[0], { k: 1, big: null, name: '', doc: null });
    assert.deepEqual(store.reader!.read(SQL, [9], { pack: byKey }), [], 'no rows');
  });

  it('falls back to an unpacked read when a value holds a separator', () => {
    store.raw.prepare('insert into t values (?, ?, ?, ?)').run([4, 4, 'four\x1ffive', 'x']);
    const packed = store.reader!.read(SQL, [4], { pack: byKey });
    assert.deepEqual(packed, [{ k: 4, big: 4, name: 'four\x1ffive', doc: 'x' }]);
  });

  it('reads expressions (no declared type) unpacked', () => {
    const rows = store.reader!.read('select k * 2 as twice from t where k = ?', [2], { pack: byKey });
    assert.deepEqual(rows, [{ twice: 4 }]);
  });
});
