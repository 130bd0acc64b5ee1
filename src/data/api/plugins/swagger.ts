/**
 * An OpenAPI document generated from a service's route schemas (the same TypeBox definitions
 * fastify validates with), served at `/openapi.json`, with a browsable page at `/docs`. The
 * chain-data REST service and the metrics service each publish their own, as the real services do.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** The service takes API keys (`x-data-api-key`, or the real SDKs' `x-glacier-api-key`). */
  apiKeys?: boolean;
}

/** Paths the document and its page are served under: a service may leave them unmetered. */
export const isOpenApiPath = (routeUrl: string | undefined): boolean =>
  routeUrl !== undefined &&
  (routeUrl === '/openapi.json' || routeUrl === '/docs' || routeUrl.startsWith('/docs/'));

export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  const keys = info.apiKeys
    ? {
        components: {
          securitySchemes: {
            dataApiKey: { type: 'apiKey' as const, in: 'header' as const, name: 'x-data-api-key' },
            glacierApiKey: { type: 'apiKey' as const, in: 'header' as const, name: 'x-glacier-api-key' },
          },
        },
        security: [{}, { dataApiKey: [] }, { glacierApiKey: [] }] as Record<string, string[]>[],
      }
    : {};
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      ...keys,
    },
    transformObject: (docs) =>
      optionalDefaults('openapiObject' in docs ? docs.openapiObject : docs.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

type Document = Record<string, any>;

/**
 * A query or header parameter with a default is optional to the caller. The route schemas list it
 * as required (fastify fills the default in before validating), and @fastify/swagger copies that
 * list, so the document told generated clients to always send `pageSize`, `sortOrder`, … where the
 * real documents (and the service) leave them out.
 */
function optionalDefaults(doc: Document): Document {
  for (const item of Object.values<Document>(doc.paths ?? {}))
    for (const op of Object.values<Document>(item))
      for (const param of Array.isArray(op?.parameters) ? op.parameters : [])
        if (param.in !== 'path' && param.required && param.schema?.default !== undefined)
          param.required = false;
  return doc;
}
