/**
 * The metrics service's request and response schemas (TypeBox): fastify validates with them and
 * the OpenAPI document at `/openapi.json` is generated from them.
 */
import { Type } from '@sinclair/typebox';
import { PRIMARY_NETWORK_ID } from '../../shared/networks.js';
import { storedInteger, StringEnum } from '../api/schemas/common.js';
import { SPANS } from './buckets.js';
import { ICM_GROUP_BY } from './icm.js';
const ErrorBody = Type.Object({
  message: Type.Array(Type.String()),
  error: Type.String(),
  statusCode: Type.Integer(),
});
export const ERRORS = Object.fromEntries([400, 404, 429, 500, 503].map((s) => [s, ErrorBody]));
const Value = Type.Object({ timestamp: Type.Integer(), value: Type.Number() });

export const V1Params = Type.Object({ chainId: Type.String() });
export const V1Query = Type.Object(
  { pageToken: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
const Indicators = Type.Record(
  Type.String(),
  Type.Object({ status: StringEnum(['up', 'down'] as const) }, { additionalProperties: true }),
);
export const HealthCheck = Type.Object({
  status: StringEnum(['ok', 'error', 'shutting_down'] as const),
  info: Type.Union([Indicators, Type.Null()]),
  error: Type.Union([Indicators, Type.Null()]),
  details: Indicators,
});
export const MetricsChain = Type.Object({
  evmChainId: Type.Number(),
  chainName: Type.String(),
  blockchainId: Type.String(),
  subnetId: Type.String(),
  network: StringEnum(['mainnet', 'testnet'] as const),
});
export const ChainsQuery = Type.Object(
  {
    pageToken: Type.Optional(Type.String({ maxLength: 2048 })),
    network: Type.Optional(StringEnum(['mainnet', 'fuji', 'testnet'] as const)),
  },
  { additionalProperties: false },
);
export const ChainsResponse = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  chains: Type.Array(MetricsChain),
});

export const V1Response = Type.Object({
  results: Type.Array(Value),
  status: Type.Integer(),
  lastRun: Type.Integer(),
  nextPageToken: Type.Optional(Type.String()),
});

export const V2Params = Type.Object({ chainId: Type.String(), metric: Type.String() });
export const V2Query = Type.Object(
  {
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
    timeInterval: Type.Optional(StringEnum(SPANS)),
    pageToken: Type.Optional(Type.String({ maxLength: 2048 })),
    pageSize: Type.Integer({ minimum: 1, maximum: 2160, default: 100 }),
  },
  { additionalProperties: false },
);
export const V2Response = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  results: Type.Array(Value),
});
export const StakingParams = Type.Object({ network: Type.String(), metric: Type.String() });
export const StakingQuery = Type.Object(
  {
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
    pageToken: Type.Optional(Type.String({ maxLength: 2048 })),
    pageSize: Type.Integer({ minimum: 1, maximum: 2160, default: 100 }),
    subnetId: Type.String({ default: PRIMARY_NETWORK_ID, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export const L1FeeQuery = Type.Object(
  {
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
  },
  { additionalProperties: false },
);
const NetworkParam = StringEnum(['mainnet', 'fuji', 'testnet'] as const);
const IcmFilterQuery = {
  srcBlockchainId: Type.Optional(Type.String({ maxLength: 100 })),
  destBlockchainId: Type.Optional(Type.String({ maxLength: 100 })),
  groupBy: Type.Optional(StringEnum(ICM_GROUP_BY)),
  network: Type.Optional(NetworkParam),
};
export const IcmSeriesQuery = Type.Object(
  {
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
    timeInterval: Type.Optional(StringEnum(SPANS)),
    pageToken: Type.Optional(Type.String({ maxLength: 2048 })),
    pageSize: Type.Integer({ minimum: 1, maximum: 2160, default: 100 }),
    ...IcmFilterQuery,
  },
  { additionalProperties: false },
);
export const IcmSummaryQuery = Type.Object(IcmFilterQuery, { additionalProperties: false });
const IcmPair = { srcBlockchainId: Type.String(), destBlockchainId: Type.String() };
export const IcmSeriesResponse = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  results: Type.Array(Type.Object({ value: Type.Number(), timestamp: Type.Integer(), ...IcmPair })),
});
/** The rolling windows every summary answers, oldest boundary last. */
const RollingWindows = {
  lastHour: Type.Number(),
  lastDay: Type.Number(),
  lastWeek: Type.Number(),
  lastMonth: Type.Number(),
  last90Days: Type.Number(),
  lastYear: Type.Number(),
  allTime: Type.Number(),
};
export const IcmSummaryResponse = Type.Object({
  result: Type.Object({ ...RollingWindows, ...IcmPair }),
});
export const ValidatorAddressesParams = Type.Object({ subnetId: Type.String({ maxLength: 100 }) });
export const ValidatorAddressesQuery = Type.Object(
  {
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
    pageToken: Type.Optional(Type.String({ maxLength: 2048 })),
    pageSize: Type.Integer({ minimum: 1, maximum: 5000, default: 1000 }),
    network: Type.Optional(NetworkParam),
  },
  { additionalProperties: false },
);
export const ValidatorAddressesResponse = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  addresses: Type.Array(Type.Object({ addresses: Type.Array(Type.String()), sortKey: Type.String() })),
});
export const BtcbQuery = Type.Object(
  {
    threshold: Type.String({ maxLength: 80 }),
    pageToken: Type.Optional(Type.String({ maxLength: 2048 })),
    pageSize: Type.Integer({ minimum: 1, maximum: 5000, default: 1000 }),
  },
  { additionalProperties: false },
);
export const BtcbResponse = Type.Object({
  nextPageToken: Type.Optional(Type.String()),
  addresses: Type.Array(Type.Object({ address: Type.String(), sortKey: Type.String() })),
});
export const RollingWindowResponse = Type.Object({ result: Type.Object(RollingWindows) });
