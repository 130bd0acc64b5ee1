/**
 * API keys, tiers and prices from the operator's JSON config (`--api-keys-file`, or the JSON text
 * in FLURRY_API_KEYS). Validated once at start into a typed object; a bad file stops the start
 * with a message naming the problem.
 *
 *   {
 *     "anonymous": "unauthenticated",
 *     "tiers": { "pro": { "cuPerMinute": 20000, "cuPerDay": 25000000 } },
 *     "keys": [ { "key": "k-ci-7d1e2f", "tier": "pro", "name": "ci", "networks": ["fuji"] } ],
 *     "prices": { "usd": 21.5, "eur": 19.8 },
 *     "tierScale": 1
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
    /** Multiplies the built-in tiers' budgets (default DEVNET_TIER_SCALE); 1 is the real service's. */
    tierScale: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
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
  /** The factor of the built-in tiers (and of the metrics service's budget). */
  tierScale: number;
}

/** The real service's published tiers (compute units per minute and per day). */
export const PUBLISHED_TIERS: Record<string, Tier> = {
  unauthenticated: { name: 'unauthenticated', cuPerMinute: 6000, cuPerDay: 1_200_000 },
  free: { name: 'free', cuPerMinute: 8000, cuPerDay: 2_000_000 },
  base: { name: 'base', cuPerMinute: 10_000, cuPerDay: 3_750_000 },
  growth: { name: 'growth', cuPerMinute: 14_000, cuPerDay: 11_200_000 },
  pro: { name: 'pro', cuPerMinute: 20_000, cuPerDay: 25_000_000 },
};

/**
 * How much larger than the published budgets the built-in tiers are unless the config says
 * otherwise. At the published numbers an anonymous caller gets 60 UTXO pages a minute (100 CU
 * each, refused requests charged too): one test suite walking lists or checking bad input on a
 * devnet runs into 429s. A hundredfold keeps every tier's order (a key still raises the limit)
 * and 429 reachable, without throttling development; `tierScale: 1` restores the real numbers.
 */
export const DEVNET_TIER_SCALE = 100;

/** A tier with its budgets multiplied by `scale` (never below one compute unit). */
export function scaleTier<T extends Omit<Tier, 'name'>>(tier: T, scale = DEVNET_TIER_SCALE): T {
  const times = (cu: number) => Math.max(1, Math.round(cu * scale));
  return {
    ...tier,
    cuPerMinute: times(tier.cuPerMinute),
    ...(tier.cuPerDay === undefined ? {} : { cuPerDay: times(tier.cuPerDay) }),
  };
}

function builtInTiers(scale: number): Record<string, Tier> {
  const out: Record<string, Tier> = {};
  for (const [name, tier] of Object.entries(PUBLISHED_TIERS)) out[name] = scaleTier(tier, scale);
  return out;
}

export class ApiConfigError extends Error {
  override readonly name = 'ApiConfigError';
}

/** Parses and checks the config; `source` names it in error messages. */
export function parseApiAccessConfig(json: unknown, source: string): ApiAccessConfig {
  if (!Value.Check(FileSchema, json)) {
    const first = [...Value.Errors(FileSchema, json)][0];
    throw new ApiConfigError(`${source}: ${first?.path || '/'} ${first?.message ?? 'is invalid'}`);
  }
  const tierScale = json.tierScale ?? DEVNET_TIER_SCALE;
  const tiers: Record<string, Tier> = builtInTiers(tierScale);
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
  return { tiers, anonymousTier, keys, prices: json.prices ?? {}, tierScale };
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
