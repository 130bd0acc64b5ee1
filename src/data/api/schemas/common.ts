/** Schema pieces every route shares: path params, paging, sort, the error body, chainInfo. */
import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { NETWORK_PARAM_VALUES } from '../../networks.js';

/** A closed set of strings as a plain JSON-schema `enum` (clear validation messages, clean OpenAPI). */
export function StringEnum<T extends string>(values: readonly T[], description?: string): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
}

export const Network = StringEnum(
  NETWORK_PARAM_VALUES,
  'mainnet, fuji, testnet (= fuji) or local; must be the network this service indexes',
);

export const SortOrder = StringEnum(['asc', 'desc'] as const);

export const PageToken = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'nextPageToken of the previous page',
});

export function pageSize(max: number, dflt: number) {
  return Type.Integer({
    minimum: 1,
    maximum: max,
    default: dflt,
    description: `1 to ${max}, default ${dflt}`,
  });
}

/**
 * A non-negative integer filter the store compares with its integer columns (timestamps, block
 * numbers). At most 2^53 - 1: past it a JSON number is no longer exact, and PostgreSQL refuses a
 * bind past its bigint range where SQLite compares it, so the same query was a 500 on one store
 * and a page on the other; refused here, it is the same 400 on both.
 */
export function storedInteger(description?: string) {
  return Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    ...(description ? { description } : {}),
  });
}

export const ErrorBody = Type.Object({
  message: Type.String(),
  statusCode: Type.Integer(),
  error: Type.String(),
});

/** Every error status of the spec's Errors table, with the shared body. */
export const ERROR_RESPONSES: Record<number, TSchema> = Object.fromEntries(
  [400, 401, 403, 404, 429, 500, 502, 503].map((s) => [s, ErrorBody]),
);

export const ChainInfo = Type.Object({
  chainName: Type.Union([Type.Literal('p-chain'), Type.Literal('x-chain'), Type.Literal('c-chain')]),
  network: Type.String(),
});

export const AssetAmount = Type.Object({
  assetId: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  denomination: Type.Integer(),
  type: Type.String({ description: 'secp256k1 or nft' }),
  amount: Type.String(),
});

export const Price = Type.Object({
  currencyCode: Type.String(),
  value: Type.Number(),
});

/** The fields every L1 validator shape shares (the L1 validator list, a P-chain tx's details). */
export const L1ValidatorCore = {
  validationId: Type.String(),
  validationIdHex: Type.String(),
  nodeId: Type.String(),
  subnetId: Type.String(),
  weight: Type.Number(),
  remainingBalance: Type.Number(),
};
