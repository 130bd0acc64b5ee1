/**
 * Compares two chain-data stores row by row, table by table (the same devnet indexed twice):
 *   node --import tsx scripts/durability/compare.ts <dataDir|postgres-url> <dataDir|postgres-url>
 * Wall-clock columns and per-process tables are left out.
 */
import { sql } from 'kysely';
import { createDatabase } from '../../src/data/store/database.js';
const open = (s: string) =>
  createDatabase(
    s.startsWith('postgres') ? ({ databaseUrl: s, dataDir: '/tmp' } as any) : ({ dataDir: s } as any),
  );
const SKIP = new Set([
  'meta',
  'heartbeats',
  'kysely_migration',
  'kysely_migration_lock',
  'api_usage',
  'rate_limit_usage',
]);
async function tables(d: any): Promise<string[]> {
  if (d.kind === 'postgres')
    return (
      await sql<{
        t: string;
      }>`select table_name as t from information_schema.tables where table_schema = current_schema()`.execute(
        d.db,
      )
    ).rows.map((r) => r.t);
  return (
    await sql<{ t: string }>`select name as t from sqlite_master where type='table'`.execute(d.db)
  ).rows.map((r) => r.t);
}
const IGNORE = new Set(['updated_at_ms', 'discovered_at']);
const norm = (v: unknown): unknown =>
  typeof v === 'bigint'
    ? v.toString()
    : v instanceof Uint8Array
      ? Buffer.from(v).toString('hex')
      : typeof v === 'number'
        ? String(v)
        : v;
async function dump(d: any, t: string): Promise<string[]> {
  const rows = (await sql<any>`select * from ${sql.table(t)}`.execute(d.db)).rows;
  return rows
    .map((r: any) =>
      JSON.stringify(
        Object.keys(r)
          .filter((k) => !IGNORE.has(k))
          .sort()
          .map((k) => [k, norm(r[k])]),
      ),
    )
    .sort();
}
const [a, b] = await Promise.all([open(process.argv[2]), open(process.argv[3])]);
const ta = (await tables(a)).filter((t) => !SKIP.has(t) && !t.startsWith('sqlite_')).sort();
let diffs = 0;
for (const t of ta) {
  const [ra, rb] = [await dump(a, t), await dump(b, t)];
  const sb = new Set(rb),
    sa = new Set(ra);
  const onlyA = ra.filter((r) => !sb.has(r)),
    onlyB = rb.filter((r) => !sa.has(r));
  if (onlyA.length || onlyB.length || ra.length !== rb.length) {
    diffs++;
    console.log(`${t}: ${ra.length} vs ${rb.length}; only in a ${onlyA.length}, only in b ${onlyB.length}`);
    if (onlyA[0]) console.log('  a:', onlyA[0].slice(0, 400));
    if (onlyB[0]) console.log('  b:', onlyB[0].slice(0, 400));
  } else console.log(`${t}: ${ra.length} equal`);
}
console.log(diffs ? `${diffs} tables differ` : 'stores equal');
await a.close?.();
await b.close?.();
process.exit(0);
