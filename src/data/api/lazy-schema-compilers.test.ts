import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';

function app() {
  return Fastify({
    logger: false,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true } },
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
}

describe('lazy schema compilers', () => {
  it('validate, coerce, default and serialize as fastify does', async () => {
    const server = app();
    server.post(
      '/items/:id',
      {
        schema: {
          params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
          querystring: {
            type: 'object',
            properties: {
              tags: { type: 'array', items: { type: 'string' } },
              limit: { type: 'integer', default: 10 },
            },
          },
          body: {
            type: 'object',
            properties: { name: { type: 'string', minLength: 2 } },
            required: ['name'],
            additionalProperties: false,
          },
          response: { 200: { type: 'object', properties: { id: { type: 'integer' }, echo: {} } } },
        },
      },
      async (req) => ({
        id: (req.params as { id: number }).id,
        echo: { query: req.query, body: req.body },
        secret: 1,
      }),
    );
    server.post(
      '/numbers',
      { schema: { body: { type: 'array', items: { type: 'integer' } } } },
      async (req) => ({
        body: req.body,
      }),
    );
    const ok = await server.inject({
      method: 'POST',
      url: '/items/7?tags=a',
      payload: { name: 'ab', extra: true },
    });
    assert.equal(ok.statusCode, 200);
    // params coerced to a number, a lone query value to an array, the default filled in, the
    // extra body field removed, and the field outside the response schema not serialized.
    assert.deepEqual(ok.json(), { id: 7, echo: { query: { tags: ['a'], limit: 10 }, body: { name: 'ab' } } });

    const numbers = await server.inject({ method: 'POST', url: '/numbers', payload: [5, 6] });
    assert.deepEqual(numbers.json(), { body: [5, 6] });
    // A JSON body keeps its types: no string-to-number nor value-to-array coercion.
    const root = await server.inject({
      method: 'POST',
      url: '/numbers',
      payload: '5',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(root.statusCode, 400);
    const text = await server.inject({ method: 'POST', url: '/numbers', payload: ['5'] });
    assert.equal(text.statusCode, 400);
    assert.match(text.json().message, /^body\/0 must be integer$/);
    const wrongType = await server.inject({ method: 'POST', url: '/items/7', payload: { name: 12 } });
    assert.equal(wrongType.statusCode, 400);

    const bad = await server.inject({ method: 'POST', url: '/items/7', payload: { name: 'a' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /^body\/name must NOT have fewer than 2 characters$/);
    const badParam = await server.inject({ method: 'POST', url: '/items/x', payload: { name: 'ab' } });
    assert.equal(badParam.statusCode, 400);
    assert.match(badParam.json().message, /^params\/id must be integer$/);
    await server.close();
  });

  it('compiles on first use: a broken schema fails its route, not the startup', async () => {
    const server = app();
    server.get('/fine', async () => 'fine');
    server.get('/broken', { schema: { querystring: { type: 'no-such-type' } } }, async () => 'never');
    await server.ready();
    assert.equal((await server.inject('/fine')).statusCode, 200);
    assert.equal((await server.inject('/broken')).statusCode, 500);
    await server.close();
  });

  it('refuses header schemas (fastify would not lower-case them)', async () => {
    const server = app();
    server.get('/h', { schema: { headers: { type: 'object' } } }, async () => 'h');
    await assert.rejects(async () => {
      await server.ready();
    }, /header schemas are not supported/);
  });
  it('refuses numbers that are not finite, which Ajv coerces from text and lets past its range checks', async () => {
    const server = app();
    server.get(
      '/page',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: {
              pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
              min: { type: 'number', minimum: 0 },
            },
          },
        },
      },
      async (req) => ({ query: String((req.query as { pageSize: number }).pageSize) }),
    );
    for (const bad of ['pageSize=Infinity', 'pageSize=-Infinity', 'pageSize=1e400', 'min=Infinity']) {
      const res = await server.inject({ url: `/page?${bad}` });
      assert.equal(res.statusCode, 400, bad);
      assert.match(res.json().message, /must be a finite number/, bad);
    }
    const ok = await server.inject({ url: '/page?pageSize=100&min=0' });
    assert.equal(ok.statusCode, 200);
    assert.equal((await server.inject({ url: '/page?pageSize=101' })).statusCode, 400);
  });
});
