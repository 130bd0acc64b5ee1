/**
 * `GET /v1/health-check`: reads the store (and asks the node, when the API has one); 503 with
 * the failing indicators when either cannot answer, or when an indexer source has not heard
 * from its node for a minute (its heartbeat, written by the indexer process into the store).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { HEARTBEAT_STALE_MS } from '../../store/queries/heartbeats.js';
import { ERROR_RESPONSES, StringEnum } from '../schemas/common.js';
import { WEIGHT, type RouteDeps } from './deps.js';

// The real document's words: an indicator is up or down, the service ok, error or shutting down.
const Indicator = Type.Record(
  Type.String(),
  Type.Object({ status: StringEnum(['up', 'down'] as const) }, { additionalProperties: true }),
);
const HealthCheck = Type.Object({
  status: StringEnum(['ok', 'error', 'shutting_down'] as const),
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
      type Indicator = { status: string; [key: string]: unknown };
      const info: Record<string, Indicator> = {};
      const error: Record<string, Indicator> = {};
      try {
        await deps.health.database();
        const checkpoints = await deps.health.checkpoints();
        const heartbeats = await deps.health.heartbeats();
        info.database = { status: 'up' };
        // An indexer source that has not heard from its node for a minute is stalled or gone
        // (checkpoints alone cannot tell: on a quiet chain they do not move either).
        const now = Date.now();
        const lastSeen = Object.fromEntries(
          Object.entries(heartbeats).map(([source, at]) => [source, new Date(at).toISOString()]),
        );
        const silent = Object.entries(heartbeats)
          .filter(([, at]) => now - at > HEARTBEAT_STALE_MS)
          .map(([source, at]) => `${source} (${Math.round((now - at) / 1000)} s)`);
        // A store no indexer has written to yet (an api started first) serves empty answers:
        // healthy, and said so in the message. The status stays within the real document's
        // up/down (clients such as chainkit validate it): no indexer is not a stalled one.
        if (Object.keys(heartbeats).length === 0)
          info.indexer = {
            status: 'up',
            message: 'no indexer has written to this store yet',
            checkpoints,
          };
        else if (silent.length === 0) info.indexer = { status: 'up', checkpoints, lastSeen };
        else
          error.indexer = {
            status: 'down',
            // A running indexer writes a heartbeat whenever the node answered: its absence is an
            // indexer that is not running (stopped, crashed), a node that does not answer, or a
            // store that takes no writes (one CI stall was the last).
            message: `no heartbeat for over ${HEARTBEAT_STALE_MS / 1000} s (no indexer runs, its node does not answer, or the store takes no writes): ${silent.join(', ')}`,
            checkpoints,
            lastSeen,
          };
      } catch (err) {
        error.database = { status: 'down', message: (err as Error).message };
      }
      // With --node-url the node is a dependency (live validator figures, aggregation): a node
      // that went away is reported as such, not hidden behind an 'ok'.
      if (deps.health.node) {
        try {
          await deps.health.node();
          info.node = { status: 'up' };
        } catch (err) {
          error.node = { status: 'down', message: (err as Error).message };
        }
      }
      const details = { ...info, ...error };
      if (Object.keys(error).length === 0) return { status: 'ok', info, error, details };
      return reply.status(503).send({ status: 'error', info, error, details });
    },
  );
}
