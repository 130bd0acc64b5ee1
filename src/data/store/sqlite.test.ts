import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import Database from 'libsql';
import { Kysely, sql } from 'kysely';
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

describe('SQLite write connection after a statement failed on a lock', () => {
  // Another process on the same store (a test, `flurry api`, `flurry indexer`) holds the write
  // lock or commits under an open transaction: the statement fails with SQLITE_BUSY, and
  // SQLite keeps it active. The store must commit again afterwards — one CI run saw `flurry
  // start`'s indexers stop for good after this, every COMMIT failing with "SQL statements in
  // progress" and every heartbeat write joining a transaction that never committed.
  let dir: string;
  let store: ReturnType<typeof openSqlite>;
  let db: Kysely<any>;
  let other: InstanceType<typeof Database>;
  const committed = () =>
    other
      .prepare('select k, v from t order by k')
      .all([])
      .map((r: any) => `${r.k}=${r.v}`);

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-sqlite-busy-'));
    store = openSqlite(path.join(dir, 'data.db'), { busyTimeoutMs: 50 });
    db = new Kysely<any>({ dialect: store.dialect });
    await sql`create table t (k text primary key, v text)`.execute(db);
    other = new Database(path.join(dir, 'data.db'));
    other.pragma('busy_timeout = 0');
  });
  afterEach(async () => {
    other.close();
    store.reader!.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upsert = (k: string, v: string) =>
    db
      .insertInto('t')
      .values({ k, v })
      .onConflict((oc) => oc.column('k').doUpdateSet({ v }))
      .execute();

  it('commits again after an autocommit write waited out another connection’s write lock', async () => {
    other.exec('BEGIN IMMEDIATE');
    await assert.rejects(upsert('hb', '1'), (err: any) => err.code === 'SQLITE_BUSY');
    other.exec('COMMIT');

    // Other statements than the failed one (running that one again would reset it).
    await db.transaction().execute((trx) => trx.insertInto('t').values({ k: 'batch', v: '1' }).execute());
    await db.insertInto('t').values({ k: 'meta', v: '1' }).execute();
    assert.deepEqual(committed(), ['batch=1', 'meta=1'], 'both writes are visible to another connection');
  });

  it('commits again after a transaction’s write failed on a snapshot another connection moved past', async () => {
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.selectFrom('t').selectAll().execute(); // the transaction's snapshot
        other.prepare('insert into t (k, v) values (?, ?)').run(['other', '1']);
        await trx.insertInto('t').values({ k: 'batch', v: '1' }).execute();
      }),
      (err: any) => /^SQLITE_BUSY/.test(err.code),
    );

    await upsert('hb', '1');
    await db.transaction().execute((trx) => trx.insertInto('t').values({ k: 'batch', v: '2' }).execute());
    assert.deepEqual(committed(), ['batch=2', 'hb=1', 'other=1']);
    // The store's own connection reads what it wrote.
    assert.equal((await db.selectFrom('t').selectAll().execute()).length, 3);
  });
});
