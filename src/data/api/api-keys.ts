/**
 * API keys, tiers and prices from the operator's JSON config (`--api-keys-file`, or the JSON text
 * in FLURRY_API_KEYS). Validated once at start into a typed object; a bad file stops the start
 * with a message naming the problem.
 *
 *   {
 *     "anonymous": "unauthenticated",
 *     "tiers": { "pro": { "cuPerMinute": 20000, "cuPerDay": 25000000 } },
 *     "keys": [ { "key": "s3cret", "tier": "pro", "name": "ci", "networks": ["fuji"] } ],
 *     "prices": { "usd": 21.5, "eur": 19.8 }
 *   }
 */
import fs from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const CURRENCIES = [
  'usd',
  'eur',
  'aud',
  'cad',
  'chf',
  'clp',
  'cny',
  'czk',
  'dkk',
  'gbp',
  'hkd',
  'huf',
  'jpy',
  'nzd',
] as const;
export type Currency = (typeof CURRENCIES)[number];

const TierSchema = Type.Object(
  {
    cuPerMinute: Type.Integer({ minimum: 1 }),
    cuPerDay: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

const KeySchema = Type.Object(
  {
    key: Type.String({ minLength: 8 }),
    tier: Type.String({ minLength: 1 }),
    name: Type.Optional(Type.String()),
    networks: Type.Optional(
      Type.Array(Type.Union([Type.Literal('mainnet'), Type.Literal('fuji'), Type.Literal('local')])),
    ),
  },
  { additionalProperties: false },
);

const FileSchema = Type.Object(
  {
    anonymous: Type.Optional(Type.String()),
    tiers: Type.Optional(Type.Record(Type.String(), TierSchema)),
    keys: Type.Optional(Type.Array(KeySchema)),
    prices: Type.Optional(
      Type.Partial(
        Type.Record(Type.Union(CURRENCIES.map((c) => Type.Literal(c))), Type.Number({ minimum: 0 })),
      ),
    ),
  },
  { additionalProperties: false },
);

export type Tier = Static<typeof TierSchema> & { name: string };
export type ApiKey = Static<typeof KeySchema>;

export interface ApiAccessConfig {
  tiers: Record<string, Tier>;
  anonymousTier: Tier;
  keys: Map<string, ApiKey>;
  /** Price of the native token per currency (the configurable price source). */
  prices: Partial<Record<Currency, number>>;
}

/** The real service's published tiers (compute units per minute and per day). */
export const DEFAULT_TIERS: Record<string, Tier> = {
  unauthenticated: { name: 'unauthenticated', cuPerMinute: 6000, cuPerDay: 1_200_000 },
  free: { name: 'free', cuPerMinute: 8000, cuPerDay: 2_000_000 },
  base: { name: 'base', cuPerMinute: 10_000, cuPerDay: 3_750_000 },
  growth: { name: 'growth', cuPerMinute: 14_000, cuPerDay: 11_200_000 },
  pro: { name: 'pro', cuPerMinute: 20_000, cuPerDay: 25_000_000 },
};

export class ApiConfigError extends Error {
  override readonly name = 'ApiConfigError';
}

/** Parses and checks the config; `source` names it in error messages. */
export function parseApiAccessConfig(json: unknown, source: string): ApiAccessConfig {
  if (!Value.Check(FileSchema, json)) {
    const first = [...Value.Errors(FileSchema, json)][0];
    throw new ApiConfigError(`${source}: ${first?.path || '/'} ${first?.message ?? 'is invalid'}`);
  }
  const tiers: Record<string, Tier> = { ...DEFAULT_TIERS };
  for (const [name, t] of Object.entries(json.tiers ?? {})) tiers[name] = { ...t, name };
  const anonName = json.anonymous ?? 'unauthenticated';
  const anonymousTier = tiers[anonName];
  if (!anonymousTier) throw new ApiConfigError(`${source}: anonymous tier "${anonName}" is not defined`);
  const keys = new Map<string, ApiKey>();
  for (const k of json.keys ?? []) {
    if (!tiers[k.tier])
      throw new ApiConfigError(`${source}: key ${k.name ?? '(unnamed)'} names unknown tier "${k.tier}"`);
    if (keys.has(k.key)) throw new ApiConfigError(`${source}: the same key appears twice`);
    keys.set(k.key, k);
  }
  return { tiers, anonymousTier, keys, prices: json.prices ?? {} };
}

/** Reads the keys file, else FLURRY_API_KEYS, else no keys (anonymous access only). */
export function loadApiAccessConfig(file?: string, envJson?: string): ApiAccessConfig {
  if (file) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new ApiConfigError(`cannot read API keys file ${file}: ${(err as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new ApiConfigError(`API keys file ${file} is not JSON: ${(err as Error).message}`);
    }
    return parseApiAccessConfig(json, file);
  }
  if (envJson) {
    let json: unknown;
    try {
      json = JSON.parse(envJson);
    } catch (err) {
      throw new ApiConfigError(`FLURRY_API_KEYS is not JSON: ${(err as Error).message}`);
    }
    return parseApiAccessConfig(json, 'FLURRY_API_KEYS');
  }
  return parseApiAccessConfig({}, 'defaults');
}
