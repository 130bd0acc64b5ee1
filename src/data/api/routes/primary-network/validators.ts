/** `GET /v1/networks/{network}/validators`: validation periods of every node, filtered and paged. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../../internal/errors.js';
import { parseCb58Id, resolveNetwork } from '../../../networks.js';
import {
  ERROR_RESPONSES,
  Network,
  StringEnum,
  PageToken,
  SortOrder,
  pageSize,
} from '../../schemas/common.js';
import { ValidatorList } from '../../schemas/primary-network.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { ValidatorCursor } from '../../../store/queries/stakers.js';
import { isLiveOrder, type LiveValidatorCursor } from '../../repositories/validator-live-order.js';

const Params = Type.Object({ network: Network });
const Status = StringEnum(['completed', 'active', 'pending', 'removed'] as const);
const SortBy = StringEnum([
  'blockIndex',
  'delegationCapacity',
  'timeRemaining',
  'delegationFee',
  'uptimePerformance',
] as const);
const capacity = (bound: string) =>
  Type.String({
    pattern: '^[0-9]+$',
    description: `${bound} delegation capacity of an active validation, nAVAX, 0 to 720000000000000000`,
  });
const uptime = (bound: string) =>
  Type.Number({ minimum: 0, maximum: 100, description: `${bound} uptime of an active validation, percent` });
const seconds = (description: string) =>
  Type.Optional(Type.Number({ minimum: 0, maximum: 2147483647, description }));
const Query = Type.Object(
  {
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
    nodeIds: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'comma separated node id substrings' }),
    ),
    sortBy: Type.Optional(SortBy),
    sortOrder: Type.Optional(SortOrder),
    validationStatus: Type.Optional(Status),
    minDelegationCapacity: Type.Optional(capacity('minimum')),
    maxDelegationCapacity: Type.Optional(capacity('maximum')),
    minTimeRemaining: seconds('minimum of max(0, endTimestamp - now), seconds'),
    maxTimeRemaining: seconds('maximum of max(0, endTimestamp - now), seconds'),
    minFeePercentage: Type.Optional(Type.Number({ minimum: 2, maximum: 100 })),
    maxFeePercentage: Type.Optional(Type.Number({ minimum: 2, maximum: 100 })),
    minUptimePerformance: Type.Optional(uptime('minimum')),
    maxUptimePerformance: Type.Optional(uptime('maximum')),
    subnetId: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  },
  { additionalProperties: false },
);

/** The most a delegation capacity filter takes, in nAVAX, as the real service documents it. */
const MAX_CAPACITY = 720_000_000_000_000_000n;

function parseCapacity(name: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,19}$/.test(text) || BigInt(text) > MAX_CAPACITY)
    throw new InvalidParameterError(`${name} must be an integer from 0 to ${MAX_CAPACITY} (nAVAX)`);
  return BigInt(text);
}

export default async function validatorsRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/networks/:network/validators',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network'],
        operationId: 'listValidators',
        summary: 'Validation periods of every node',
        params: Params,
        querystring: Query,
        response: { 200: ValidatorList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof Params>;
      const q = request.query as Static<typeof Query>;
      resolveNetwork(deps.network, params.network);
      const live = {
        minDelegationCapacity: parseCapacity('minDelegationCapacity', q.minDelegationCapacity),
        maxDelegationCapacity: parseCapacity('maxDelegationCapacity', q.maxDelegationCapacity),
        minUptimePerformance: q.minUptimePerformance,
        maxUptimePerformance: q.maxUptimePerformance,
      };
      const sortBy = q.sortBy ?? 'blockIndex';
      const nodeIds = q.nodeIds
        ? [
            ...new Set(
              q.nodeIds
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            ),
          ].sort()
        : [];
      if (nodeIds.length > 64) throw new InvalidParameterError('nodeIds: at most 64');
      for (const n of nodeIds)
        if (!/^[A-Za-z0-9-]+$/.test(n))
          throw new InvalidParameterError(`invalid nodeIds entry "${n}": expected a node id or part of one`);
      const subnetId = q.subnetId !== undefined ? parseCb58Id(q.subnetId, 'subnetId') : undefined;
      const sortOrder = q.sortOrder ?? 'asc';
      const filter = {
        nodeIds,
        subnetId,
        status: q.validationStatus,
        minTimeRemaining: q.minTimeRemaining,
        maxTimeRemaining: q.maxTimeRemaining,
        minFeePercentage: q.minFeePercentage,
        maxFeePercentage: q.maxFeePercentage,
      };
      // Bigints do not go into JSON: the scope holds the capacity bounds as the decimal text.
      const liveScope = { ...live, ...capacityText(live) };
      const scope = ['validators', filter, liveScope, sortBy, sortOrder];
      const after = q.pageToken
        ? deps.tokens.open<ValidatorCursor & { live?: unknown }>(scope, q.pageToken)
        : undefined;
      if (q.pageToken && !validCursor(after, sortBy)) throw new InvalidParameterError('invalid pageToken');
      const { validators, next } = await deps.repo.allValidators({
        ...filter,
        ...live,
        sortBy,
        sortOrder,
        after: after as (ValidatorCursor & LiveValidatorCursor) | undefined,
        limit: q.pageSize,
      });
      return { ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}), validators };
    },
  );
}

const capacityText = (f: { minDelegationCapacity?: bigint; maxDelegationCapacity?: bigint }) => ({
  minDelegationCapacity: f.minDelegationCapacity?.toString(),
  maxDelegationCapacity: f.maxDelegationCapacity?.toString(),
});

/** A cursor this order issues: index order names a seq; the others a key too (a live order's as decimal text). */
function validCursor(after: (ValidatorCursor & { live?: unknown }) | undefined, sortBy: string): boolean {
  if (typeof after?.seq !== 'number') return false;
  if (isLiveOrder(sortBy)) return typeof after.live === 'string' && /^-?\d+$/.test(after.live);
  return sortBy === 'blockIndex' || typeof after.key === 'number';
}
