/** Asset descriptions (name, symbol, denomination), cached: they never change once created. */
import type { Kysely, Selectable } from 'kysely';
import type { AssetTable, DataSchema } from '../schema.js';

export type AssetRow = Selectable<AssetTable>;

export function createAssetLookup(db: Kysely<DataSchema>) {
  const cache = new Map<string, AssetRow>();
  return {
    async get(ids: Iterable<string>): Promise<Map<string, AssetRow>> {
      const missing = [...new Set(ids)].filter((id) => !cache.has(id));
      if (missing.length > 0) {
        const rows = await db.selectFrom('assets').selectAll().where('asset_id', 'in', missing).execute();
        for (const r of rows) cache.set(r.asset_id, r);
      }
      const out = new Map<string, AssetRow>();
      for (const id of ids) {
        const a = cache.get(id);
        if (a) out.set(id, a);
      }
      return out;
    },
  };
}

export type AssetLookup = ReturnType<typeof createAssetLookup>;
