/** `GET /v1/health-check`: reads the store; 503 with the failing indicator when it cannot. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSES } from '../schemas/common.js';
import { WEIGHT, type RouteDeps } from './deps.js';

const Indicator = Type.Record(
  Type.String(),
  Type.Object({ status: Type.String() }, { additionalProperties: true }),
);
const HealthCheck = Type.Object({
  status: Type.String(),
  info: Type.Optional(Type.Union([Indicator, Type.Null()])),
  error: Type.Optional(Type.Union([Indicator, Type.Null()])),
  details: Type.Optional(Indicator),
});

export default async function healthRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get(
    '/v1/health-check',
    {
      config: { computeUnits: WEIGHT.free },
      schema: {
        tags: ['Health Check'],
        summary: 'Get the health of the service',
        // The 503 is the health report itself, not the error body: it must come after the spread.
        response: { ...ERROR_RESPONSES, 200: HealthCheck, 503: HealthCheck },
      },
    },
    async (_request, reply) => {
      try {
        await deps.health.database();
        const checkpoints = await deps.health.checkpoints();
        const details = { database: { status: 'up' }, indexer: { status: 'up', checkpoints } };
        return { status: 'ok', info: details, error: {}, details };
      } catch (err) {
        const down = { database: { status: 'down', message: (err as Error).message } };
        return reply.status(503).send({ status: 'error', info: {}, error: down, details: down });
      }
    },
  );
}
