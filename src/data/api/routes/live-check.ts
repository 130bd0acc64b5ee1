/** `GET /v1/live-check`: the process answers (no dependency is asked; see health.ts for those). */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSES } from '../schemas/common.js';
import { WEIGHT } from './deps.js';

const Indicators = Type.Record(Type.String(), Type.Object({ status: Type.String() }));
const LiveCheck = Type.Object({
  status: Type.String(),
  info: Indicators,
  error: Indicators,
  details: Indicators,
});

export default async function liveCheckRoute(app: FastifyInstance) {
  app.get(
    '/v1/live-check',
    {
      config: { computeUnits: WEIGHT.free },
      schema: {
        tags: ['Health Check'],
        operationId: 'live-check',
        summary: 'Whether the service process answers',
        response: { 200: LiveCheck, ...ERROR_RESPONSES },
      },
    },
    async () => ({ status: 'ok', info: {}, error: {}, details: {} }),
  );
}
