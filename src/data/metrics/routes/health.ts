/**
 * `GET /v2/health-check` (the store answers) and `GET /v2/live-check` (the process answers).
 */
import type { FastifyInstance } from 'fastify';
import { HealthCheck } from '../schemas.js';
import type { MetricsRouteDeps } from './deps.js';

/** Their paths: app.ts serves them free of charge, as the reference marks them. */
export const HEALTH_PATH = '/v2/health-check';
export const LIVE_PATH = '/v2/live-check';

export default async function healthRoutes(app: FastifyInstance, { db }: MetricsRouteDeps) {
  // The reference metrics API's health check: the store answers (503 with the failure when not).
  app.get(
    HEALTH_PATH,
    {
      schema: {
        tags: ['Health Check'],
        operationId: 'metrics-health-check',
        summary: 'Get the health of the service',
        response: { 200: HealthCheck, 503: HealthCheck },
      },
    },
    async (_request, reply) => {
      try {
        await db.selectFrom('checkpoints').select('source').limit(1).execute();
        const up = { database: { status: 'up' } };
        return { status: 'ok' as const, info: up, error: {}, details: up };
      } catch (err) {
        const down = { database: { status: 'down', message: (err as Error).message } };
        return reply.status(503).send({ status: 'error', info: {}, error: down, details: down });
      }
    },
  );

  // The reference's liveness probe (chainkit metrics.liveCheck): the process answers, nothing
  // else is asked (the health check reads the store).
  const liveCheck = {
    tags: ['Health Check'],
    operationId: 'metrics-live-check',
    summary: 'Get the liveliness of the service',
    response: { 200: HealthCheck },
  };
  app.get(LIVE_PATH, { schema: liveCheck }, async () => ({
    status: 'ok' as const,
    info: {},
    error: {},
    details: {},
  }));
}
