/** Small key/value facts the store keeps about itself (indexed network, page-token secret). */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DataSchema } from '../schema.js';

export async function getMeta(db: Kysely<DataSchema>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function setMeta(db: Kysely<DataSchema>, key: string, value: string): Promise<void> {
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Stores `value` under `key` unless a value is already there, and returns the stored one. Two
 * processes claiming a key at once both get the first's value: reading first and then writing
 * would let the second overwrite it.
 */
export async function claimMeta(db: Kysely<DataSchema>, key: string, value: string): Promise<string> {
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getMeta(db, key))!;
}

/**
 * The secret that signs page tokens, created once and shared through the store, so every API
 * process on the same database accepts the others' tokens and tokens survive restarts.
 */
export async function pageTokenSecret(db: Kysely<DataSchema>): Promise<Buffer> {
  const existing = await getMeta(db, 'page-token-secret');
  if (existing) return Buffer.from(existing, 'hex');
  await db
    .insertInto('meta')
    .values({ key: 'page-token-secret', value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return Buffer.from((await getMeta(db, 'page-token-secret'))!, 'hex');
}
