/**
 * Compiled-SQL cache for hot read paths. Building and compiling a kysely query costs more than
 * running it on SQLite, so a list page caches the compiled text per query shape. The caller
 * also passes the parameters it expects the query to bind; the first compile checks them
 * against kysely's own, and only a shape whose parameters match is cached, so a mistake in the
 * hand-listed order degrades to an uncached query, never to a wrong one.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { FastRead, ReadOptions } from './sqlite.js';

const caches = new WeakMap<object, Map<string, string>>();
const fastReaders = new WeakMap<object, FastRead>();

/** Lets cached queries of `db` run on a dialect's direct read path (SQLite's read connection). */
export function registerFastReader(db: Kysely<any>, read: FastRead): void {
  fastReaders.set(db, read);
}

function same(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export async function cachedRows<R>(
  db: Kysely<any>,
  shape: string,
  params: unknown[],
  build: () => Compilable<R>,
  options?: ReadOptions,
): Promise<R[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const text = cache.get(shape);
  if (text !== undefined) {
    const read = fastReaders.get(db);
    if (read) return read(text, params, options) as R[];
    return (await db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
  }
  const compiled = build().compile();
  if (same(compiled.parameters, params)) cache.set(shape, compiled.sql);
  return (await db.executeQuery<R>(compiled)).rows;
}
