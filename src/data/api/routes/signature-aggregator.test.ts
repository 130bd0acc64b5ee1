/**
 * The aggregation route around a stand-in aggregator: 201 with the signed message, the real
 * service's execution weight (medium, 20 compute units) and the network names it answers under.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { NETWORKS } from '../../../shared/networks.js';
import type { AggregateRequest, SignatureAggregator } from '../../aggregator/aggregator.js';
import { InvalidParameterError, UpstreamUnavailableError } from '../../internal/errors.js';
import { parseApiAccessConfig } from '../api-keys.js';
import { buildDataApp } from '../app.js';
import { createPageTokens } from '../page-token.js';
import { createRateLimiter } from '../rate-limiter.js';
import type { RouteDeps } from './deps.js';
import { signatureAggregatorRoute } from './signature-aggregator.js';

async function app(seen: AggregateRequest[], network = NETWORKS.fuji) {
  const aggregator: SignatureAggregator = {
    async aggregate(request) {
      seen.push(request);
      return { signedMessage: 'ab', signedWeight: 1n, totalWeight: 1n, signers: 1 };
    },
    async aggregateTx(txID) {
      seen.push({ message: txID });
      return { signedMessage: 'cd', signedWeight: 1n, totalWeight: 1n, signers: 1 };
    },
  };
  const deps = {
    network,
    tokens: createPageTokens(Buffer.alloc(32, 1)),
  } as unknown as RouteDeps;
  return buildDataApp({
    deps,
    access: parseApiAccessConfig(
      { tiers: { tiny: { cuPerMinute: 100 } }, keys: [{ key: 'tiny-key-123456', tier: 'tiny' }] },
      'test',
    ),
    limiter: createRateLimiter(),
    version: 'test',
    extraRoutes: [signatureAggregatorRoute(aggregator)],
  });
}

describe('POST /v1/signatureAggregator/{network}/aggregateSignatures', () => {
  it('answers 201 and costs the real service weight, medium (20 compute units)', async () => {
    const seen: AggregateRequest[] = [];
    const server = await app(seen);
    try {
      const res = await server.inject({
        method: 'POST',
        url: '/v1/signatureAggregator/fuji/aggregateSignatures',
        headers: { 'x-glacier-api-key': 'tiny-key-123456' },
        payload: { message: '0xdead', quorumPercentage: 67 },
      });
      assert.equal(res.statusCode, 201);
      assert.deepEqual(res.json(), { signedMessage: 'ab' });
      assert.equal(res.headers['ratelimit-limit'], '100');
      assert.equal(res.headers['ratelimit-remaining'], '80');
      assert.deepEqual(seen, [{ message: '0xdead', quorumPercentage: 67 }]);
    } finally {
      await server.close();
    }
  });

  it('on a local devnet answers under fuji and testnet (the spec names no local network), not mainnet', async () => {
    const seen: AggregateRequest[] = [];
    const server = await app(seen, NETWORKS.local);
    try {
      const post = (network: string) =>
        server.inject({
          method: 'POST',
          url: `/v1/signatureAggregator/${network}/aggregateSignatures`,
          payload: { message: '0xbeef' },
        });
      for (const network of ['fuji', 'testnet', 'local']) assert.equal((await post(network)).statusCode, 201);
      assert.equal(seen.length, 3);
      const mainnet = await post('mainnet');
      assert.equal(mainnet.statusCode, 404);
      assert.equal(mainnet.json().error, 'Not Found');
      assert.equal((await post('devnet')).statusCode, 400);
    } finally {
      await server.close();
    }
  });

  it('GET …/aggregateSignatures/{txHash} answers 201 for the tx, at the medium weight, under the same network names', async () => {
    const seen: AggregateRequest[] = [];
    const server = await app(seen, NETWORKS.local);
    try {
      const get = (network: string) =>
        server.inject({
          method: 'GET',
          url: `/v1/signatureAggregator/${network}/aggregateSignatures/2Zx3`,
          headers: { 'x-glacier-api-key': 'tiny-key-123456' },
        });
      const ok = await get('fuji');
      assert.equal(ok.statusCode, 201);
      assert.deepEqual(ok.json(), { signedMessage: 'cd' });
      assert.equal(ok.headers['ratelimit-remaining'], '80');
      assert.deepEqual(seen, [{ message: '2Zx3' }]);
      assert.equal((await get('mainnet')).statusCode, 404);
      assert.equal((await get('devnet')).statusCode, 400);
    } finally {
      await server.close();
    }
  });

  it('logs a refused aggregation by whose fault it was: a 4XX a debug line, a 503 a warn line, neither with a stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const failures: Error[] = [
      new InvalidParameterError('message: network id 1 is not this network (12345)'),
      new UpstreamUnavailableError('failed to collect a threshold of signatures: 0 of 5 validators signed'),
      new Error('a bug'),
    ];
    const aggregator: SignatureAggregator = {
      aggregate: () => Promise.reject(failures.shift()),
      aggregateTx: () => Promise.reject(new Error('unused')),
    };
    const server = await buildDataApp({
      deps: { network: NETWORKS.fuji, tokens: createPageTokens(Buffer.alloc(32, 1)) } as unknown as RouteDeps,
      access: parseApiAccessConfig({}, 'test'),
      limiter: createRateLimiter(),
      version: 'test',
      logger,
      extraRoutes: [signatureAggregatorRoute(aggregator)],
    });
    try {
      const post = async () =>
        (
          await server.inject({
            method: 'POST',
            url: '/v1/signatureAggregator/fuji/aggregateSignatures',
            payload: { message: '0xdead' },
          })
        ).statusCode;
      const logged = () =>
        lines.splice(0).map(({ level, msg, err, reason }) => ({ level, msg, err, reason }));
      assert.equal(await post(), 400);
      assert.deepEqual(logged(), [
        {
          level: 20,
          msg: 'request failed',
          err: undefined,
          reason: 'message: network id 1 is not this network (12345)',
        },
      ]);
      assert.equal(await post(), 503);
      assert.deepEqual(logged(), [
        {
          level: 40,
          msg: 'request failed',
          err: undefined,
          reason: 'failed to collect a threshold of signatures: 0 of 5 validators signed',
        },
      ]);
      // A real fault of the server keeps its stack, at error level.
      assert.equal(await post(), 500);
      const [fault, ...more] = lines.splice(0);
      assert.deepEqual(more, []);
      assert.equal(fault.level, 50);
      assert.match((fault.err as { stack: string }).stack, /Error: a bug\n\s+at /);
    } finally {
      await server.close();
    }
  });
});
