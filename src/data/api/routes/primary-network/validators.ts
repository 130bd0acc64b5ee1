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

const Params = Type.Object({ network: Network });
const Status = StringEnum(['completed', 'active', 'pending', 'removed'] as const);
const SortBy = StringEnum([
  'blockIndex',
  'delegationCapacity',
  'timeRemaining',
  'delegationFee',
  'uptimePerformance',
] as const);
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
    minDelegationCapacity: Type.Optional(Type.String({ description: 'not supported here (400)' })),
    maxDelegationCapacity: Type.Optional(Type.String({ description: 'not supported here (400)' })),
    minTimeRemaining: seconds('minimum of max(0, endTimestamp - now), seconds'),
    maxTimeRemaining: seconds('maximum of max(0, endTimestamp - now), seconds'),
    minFeePercentage: Type.Optional(Type.Number({ minimum: 2, maximum: 100 })),
    maxFeePercentage: Type.Optional(Type.Number({ minimum: 2, maximum: 100 })),
    minUptimePerformance: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: 'not supported here (400)' }),
    ),
    maxUptimePerformance: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: 'not supported here (400)' }),
    ),
    subnetId: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  },
  { additionalProperties: false },
);

/** The filters computed from the node's live figures, which the store cannot select on. */
const LIVE_FILTERS = [
  'minDelegationCapacity',
  'maxDelegationCapacity',
  'minUptimePerformance',
  'maxUptimePerformance',
] as const;

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
      for (const name of LIVE_FILTERS)
        if (q[name] !== undefined)
          throw new InvalidParameterError(
            `${name} is not supported by this service (see docs/compatibility.md)`,
          );
      // Capacity and uptime are the node's live figures, which the store cannot order by.
      if (q.sortBy === 'delegationCapacity' || q.sortBy === 'uptimePerformance')
        throw new InvalidParameterError(
          `sortBy=${q.sortBy} is not supported by this service; use blockIndex, timeRemaining or delegationFee`,
        );
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
      const scope = ['validators', filter, sortBy, sortOrder];
      const after = q.pageToken ? deps.tokens.open<ValidatorCursor>(scope, q.pageToken) : undefined;
      if (
        q.pageToken &&
        (typeof after?.seq !== 'number' || (sortBy !== 'blockIndex' && typeof after.key !== 'number'))
      )
        throw new InvalidParameterError('invalid pageToken');
      const { validators, next } = await deps.repo.allValidators({
        ...filter,
        sortBy,
        sortOrder,
        after,
        limit: q.pageSize,
      });
      return { ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}), validators };
    },
  );
}
