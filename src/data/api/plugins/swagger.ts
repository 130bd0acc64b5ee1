/**
 * The OpenAPI document, generated from the route schemas (the same TypeBox definitions fastify
 * validates with), served at `/openapi.json`, with a browsable page at `/docs`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Flurry chain-data API',
        version,
        description:
          'Primary-network UTXOs, balances, asset transactions, subnets, validators and rewards, indexed from an Avalanche-compatible node.',
      },
      components: {
        securitySchemes: {
          dataApiKey: { type: 'apiKey', in: 'header', name: 'x-data-api-key' },
          glacierApiKey: { type: 'apiKey', in: 'header', name: 'x-glacier-api-key' },
        },
      },
      security: [{}, { dataApiKey: [] }, { glacierApiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
