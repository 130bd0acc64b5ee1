/** L1 validator fees paid per day, in nAVAX, from the indexed L1 validations. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../internal/errors.js';
import { parseCb58Id, parseNodeIdParam } from '../../networks.js';
import { L1_FEE_METRICS, readL1FeeSeries } from '../l1-validator-fees.js';
import { ERRORS, L1FeeQuery, V2Response } from '../schemas.js';
import type { MetricsRouteDeps } from './deps.js';
import { checkTimeRange } from './time-range.js';

// L1 validator fees, one route per scope (all validations, one validation, node or L1).
const L1_FEE_ROUTES = [
  { scope: 'all', path: '/v2/validators/metrics/:metric', operationId: 'getTotalL1ValidatorMetrics' },
  {
    scope: 'validation',
    path: '/v2/validation/:l1ValidationId/metrics/:metric',
    operationId: 'getMetricsByValidationId',
    param: 'l1ValidationId',
    parse: (v: string) => parseCb58Id(v, 'l1ValidationId'),
  },
  {
    scope: 'node',
    path: '/v2/validator/:nodeId/metrics/:metric',
    operationId: 'getMetricsByNodeId',
    param: 'nodeId',
    parse: parseNodeIdParam,
  },
  {
    scope: 'subnet',
    path: '/v2/subnet/:subnetId/metrics/:metric',
    operationId: 'getMetricsBySubnetId',
    param: 'subnetId',
    parse: (v: string) => parseCb58Id(v, 'subnetId'),
  },
] as const;

export default async function l1ValidatorFeesRoutes(app: FastifyInstance, { db }: MetricsRouteDeps) {
  for (const route of L1_FEE_ROUTES) {
    const param = 'param' in route ? route.param : undefined;
    const params = Type.Object({
      ...(param ? { [param]: Type.String({ maxLength: 100 }) } : {}),
      metric: Type.String(),
    });
    app.get(
      route.path,
      {
        schema: {
          tags: ['L1 Validator Metrics'],
          operationId: route.operationId,
          summary: `L1 validator fees paid per day (${route.scope === 'all' ? 'every validation' : `one ${route.scope}`}), in nAVAX`,
          params,
          querystring: L1FeeQuery,
          response: { 200: V2Response, ...ERRORS },
        },
      },
      async (request) => {
        const p = request.params as Record<string, string>;
        const q = request.query as Static<typeof L1FeeQuery>;
        const metrics: readonly string[] = L1_FEE_METRICS[route.scope];
        if (!metrics.includes(p.metric!))
          throw new InvalidParameterError(`metric must be one of ${metrics.join(', ')}`);
        const id = 'parse' in route && param ? route.parse(p[param]!) : undefined;
        checkTimeRange(q);
        const results = await readL1FeeSeries(db, {
          scope: route.scope,
          id,
          metric: p.metric!,
          from: q.startTimestamp,
          to: q.endTimestamp,
        });
        return { results };
      },
    );
  }
}
