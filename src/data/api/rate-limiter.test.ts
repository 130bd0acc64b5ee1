import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../../../test/helpers/postgres.js';
import { NETWORKS } from '../../shared/networks.js';
import { createDatabase, type DataDatabase } from '../store/database.js';
import { addRateLimitUsage, pruneRateLimitUsage } from '../store/queries/rate-limits.js';
import { parseApiAccessConfig, type Tier } from './api-keys.js';
import { pooledUsage } from './pooled-usage.js';
import { createRateLimiter, type UsageStore } from './rate-limiter.js';
import { startDataApi, type RunningDataApi } from './server.js';

const TIER: Tier = { name: 'small', cuPerMinute: 100, cuPerDay: 1_000 };

describe('rate limiter over a read-only store', () => {
  it('says once, in one line without a stack, that usage is not pooled, and meters on its own', async () => {
    const database = await createDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-ro-')) });
    try {
      // As a store on a read-only file or mount answers: every write is SQLITE_READONLY.
      await sql`PRAGMA query_only = ON`.execute(database.db);
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      let t = 1_700_000_000_000;
      const limiter = createRateLimiter({
        now: () => t,
        syncMs: 60_000,
        ...pooledUsage(database.db, logger),
      });
      // Five minutes of syncs every 250 ms, the sweep's prune among them.
      for (let i = 0; i < 1_200; i++, t += 250) {
        limiter.charge('key:ro', TIER, 1);
        await limiter.sync();
      }
      assert.equal(lines.length, 1, lines.join(''));
      const line = JSON.parse(lines[0]) as Record<string, unknown>;
      assert.equal(line.level, 40);
      assert.equal(
        line.msg,
        'rate-limit usage is not pooled: the data store is read-only (SQLITE_READONLY); this process meters its callers alone',
      );
      assert.equal(lines[0].includes('stack'), false);
      // Still metering, on its own: the minute's budget runs out and nothing waits to be reported.
      t = 1_700_000_400_000;
      for (let i = 0; i < 100; i++) assert.equal(limiter.charge('key:alone', TIER, 1).allowed, true);
      assert.equal(limiter.charge('key:alone', TIER, 1).allowed, false);
      await limiter.close();
      assert.equal(lines.length, 1);
    } finally {
      await database.close();
    }
  });
});

describe('rate limiter without a shared store', () => {
  it('spends a minute budget, refuses past it and resets with the next window', () => {
    let t = 1_700_000_000_000;
    const limiter = createRateLimiter(() => t);
    assert.equal(limiter.charge('a', TIER, 60).allowed, true);
    const refused = limiter.charge('a', TIER, 50);
    assert.deepEqual([refused.allowed, refused.remaining, refused.limit], [false, 40, 100]);
    assert.equal(limiter.charge('b', TIER, 50).allowed, true, 'callers have budgets of their own');
    t += 60_000;
    assert.equal(limiter.charge('a', TIER, 50).allowed, true);
  });

  it('refuses on the day budget with its reset time once the day is spent', () => {
    let t = Date.UTC(2026, 10, 22, 12);
    const limiter = createRateLimiter(() => t);
    for (let i = 0; i < 10; i++, t += 60_000) assert.equal(limiter.charge('a', TIER, 100).allowed, true);
    const refused = limiter.charge('a', TIER, 1);
    assert.deepEqual([refused.allowed, refused.limit, refused.remaining], [false, 1_000, 0]);
    assert.equal(refused.resetSeconds, 12 * 3600 - 10 * 60);
  });

  it('forgets the windows of callers once they have passed, so many anonymous addresses do not pile up', () => {
    let t = Date.UTC(2026, 10, 22, 12);
    const limiter = createRateLimiter(() => t);
    const minuteOnly: Tier = { name: 'anonymous', cuPerMinute: 100 };
    for (let i = 0; i < 1_000; i++) limiter.charge(`ip:10.0.${i >> 8}.${i & 255}`, minuteOnly, 1);
    for (let i = 0; i < 10; i++) limiter.charge(`key:${i}`, TIER, 1);
    assert.equal(limiter.windows(), 1_000 + 10 + 10);
    // A minute on, the next charge sweeps the minute windows that have passed; the day windows
    // still limit their callers until the day ends.
    t += 60_000;
    limiter.charge('key:0', TIER, 1);
    assert.equal(limiter.windows(), 1 + 10);
    t += 86_400_000;
    limiter.charge('ip:new', minuteOnly, 1);
    assert.equal(limiter.windows(), 1);
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  const skip = kind === 'postgres' ? postgresUnavailable() : undefined;
  describe(`rate limits shared through the ${kind} store`, { skip }, () => {
    let cluster: PostgresCluster | undefined;
    let database: DataDatabase;
    let store: UsageStore;

    before(async () => {
      let databaseUrl: string | undefined;
      if (kind === 'postgres') {
        cluster = await startPostgres();
        databaseUrl = await cluster.createDatabase('ratelimits');
      }
      database = await createDatabase({
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-limits-')),
        databaseUrl,
      });
      store = {
        add: (deltas) => addRateLimitUsage(database.db, deltas),
        prune: (before) => pruneRateLimitUsage(database.db, before),
      };
    });
    after(async () => {
      await database?.close();
      await cluster?.stop();
    });

    it('makes two replicas enforce one budget once they have synced', async () => {
      const t = 1_700_000_040_000;
      const a = createRateLimiter({ now: () => t, shared: store, syncMs: 60_000 });
      const b = createRateLimiter({ now: () => t, shared: store, syncMs: 60_000 });
      assert.equal(a.charge('key:one', TIER, 60).allowed, true);
      await a.sync();
      assert.equal(b.charge('key:one', TIER, 10).allowed, true);
      await b.sync();
      // b now knows a's 60 and its own 10: 70 of 100 are spent between them.
      const refused = b.charge('key:one', TIER, 40);
      assert.deepEqual([refused.allowed, refused.remaining], [false, 30]);
      await a.sync();
      assert.equal(a.charge('key:one', TIER, 31).allowed, false, 'a learns of b through its own sync');
      assert.equal(a.charge('key:one', TIER, 30).allowed, true);
      await a.close();
      await b.close();
      const [total] = await store.add([
        { caller: 'key:one', window: 'm', start: t - (t % 60_000), delta: 0 },
      ]);
      assert.equal(total, 100, 'every allowed unit is in the store, none twice');
    });

    it('keeps what it could not report and reports it on the next sync', async () => {
      const t = 1_700_000_100_000;
      let failures = 0;
      const flaky: UsageStore = {
        add: (deltas) => (failures++ === 0 ? Promise.reject(new Error('store away')) : store.add(deltas)),
        prune: store.prune,
      };
      const errors: [unknown, number][] = [];
      const recovered: number[] = [];
      const limiter = createRateLimiter({
        now: () => t,
        shared: flaky,
        syncMs: 60_000,
        onSyncError: (e, n) => void errors.push([e, n]),
        onSyncRecovered: (n) => recovered.push(n),
      });
      limiter.charge('key:two', TIER, 25);
      await limiter.sync();
      assert.equal(errors.length, 1);
      assert.equal(errors[0][1], 1, 'counts consecutive failures, for sparse logging');
      limiter.charge('key:two', TIER, 5);
      await limiter.close();
      assert.deepEqual(recovered, [1]);
      const [total] = await store.add([
        { caller: 'key:two', window: 'm', start: t - (t % 60_000), delta: 0 },
      ]);
      assert.equal(total, 30);
    });

    it('reports many callers in one sync and returns each total in order', async () => {
      const start = 1_700_000_100_000;
      // More windows than one statement carries, and one window named twice.
      const deltas = Array.from({ length: 1_201 }, (_, i) => ({
        caller: `anon:10.0.${i >> 8}.${i & 255}`,
        window: (i % 2 === 0 ? 'm' : 'd') as 'm' | 'd',
        start,
        delta: i + 1,
      }));
      deltas.push({ ...deltas[7], delta: 1_000 });
      const first = await store.add(deltas);
      assert.equal(first.length, deltas.length);
      assert.equal(first[0], 1);
      assert.equal(first[1_200], 1_201);
      assert.equal(first[7], 8 + 1_000);
      assert.equal(first[1_201], 8 + 1_000);
      const again = await store.add(deltas.slice(0, 3).map((d) => ({ ...d, delta: 0 })));
      assert.deepEqual(again, [1, 2, 3]);
    });

    it('forgets windows that can no longer limit anyone', async () => {
      await store.add([{ caller: 'key:old', window: 'd', start: 1_000, delta: 7 }]);
      await store.prune(2_000);
      const [total] = await store.add([{ caller: 'key:old', window: 'd', start: 1_000, delta: 0 }]);
      assert.equal(total, 0);
    });

    it('answers 429 from a second API process once the first spent the shared budget', async () => {
      // A day budget, so no window boundary falls inside the test.
      const access = parseApiAccessConfig(
        {
          tiers: { tiny: { cuPerMinute: 1_000_000, cuPerDay: 1_000 } },
          keys: [{ key: 'tiny-key-123456', tier: 'tiny', name: 'tiny' }],
        },
        'test',
      );
      const apis: RunningDataApi[] = [];
      for (let i = 0; i < 2; i++)
        apis.push(
          await startDataApi({
            host: '127.0.0.1',
            port: 0,
            network: NETWORKS.fuji,
            database,
            access,
            version: 'test',
          }),
        );
      try {
        const get = async (api: RunningDataApi) => {
          const res = await fetch(`${api.url}/v1/networks/fuji/subnets`, {
            headers: { 'x-glacier-api-key': 'tiny-key-123456' },
          });
          return {
            status: res.status,
            retryAfter: res.headers.get('retry-after'),
            body: (await res.json()) as any,
          };
        };
        let allowedFirst = 0;
        for (let r = await get(apis[0]); r.status !== 429; r = await get(apis[0])) allowedFirst++;
        assert.ok(allowedFirst > 0);
        // The second process learns the first one's spending within a sync interval (250 ms);
        // on its own it would allow the whole budget again.
        let allowedSecond = 0;
        let refused: Awaited<ReturnType<typeof get>> | undefined;
        for (let i = 0; i < 100 && !refused; i++) {
          const r = await get(apis[1]);
          if (r.status === 429) refused = r;
          else {
            allowedSecond++;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        assert.ok(refused, 'the second process never refused');
        assert.ok(allowedSecond < allowedFirst, `second process allowed ${allowedSecond} of ${allowedFirst}`);
        assert.equal(refused.body.statusCode, 429);
        assert.ok(Number(refused.retryAfter) >= 1);
      } finally {
        for (const api of apis) await api.close();
      }
    });
  });
}
