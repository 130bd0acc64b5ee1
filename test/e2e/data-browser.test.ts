/**
 * The chain-data and metrics services seen from a web page: a browser asks first (a CORS
 * preflight) before it sends a key header or a JSON body, and shows the page an answer only when
 * the answer names the page's origin as allowed. Here the requests carry an `Origin` as a browser
 * would send it, against the real `flurry start` binary.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDevnet, type Devnet } from '../helpers/devnet.js';

const ORIGIN = 'http://localhost:5173';

/** A browser's preflight for `method` with the headers it is about to send. */
function preflight(url: string, method: string, headers: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': method,
      'access-control-request-headers': headers,
    },
  });
}

/** What the browser checks before it lets the page send `method` with `headers`. */
function assertPreflightAllows(res: Response, method: string, headers: string[]) {
  assert.equal(res.status, 204);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.ok(res.headers.get('access-control-allow-methods')!.split(/,\s*/).includes(method));
  const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
  for (const h of headers) assert.ok(allowed.includes(h), `${h} is allowed`);
}

/** What the browser checks before it shows the page an answer, rate-limit headers included. */
function assertReadable(res: Response, rateLimited = true) {
  assert.equal(res.headers.get('access-control-allow-origin'), '*', `${res.url} ${res.status}`);
  if (!rateLimited) return;
  const exposed = res.headers.get('access-control-expose-headers')!.split(/,\s*/);
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'retry-after'])
    assert.ok(exposed.includes(h), h);
}

describe('the chain-data and metrics services from a web page', () => {
  let net: Devnet;
  let data: string;
  let metrics: string;
  const address = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

  before(async () => {
    net = await startDevnet();
    data = net.facts.urls.data;
    metrics = net.facts.urls.metrics;
  });
  after(async () => {
    await net?.stop();
  });

  it('answers the preflights of the SDKs’ requests: a key header, a JSON body', async () => {
    const utxos = `${data}/v1/networks/local/blockchains/x-chain/utxos?pageSize=10`;
    assertPreflightAllows(await preflight(utxos, 'POST', 'content-type,x-glacier-api-key'), 'POST', [
      'content-type',
      'x-glacier-api-key',
    ]);
    const aggregate = `${data}/v1/signatureAggregator/local/aggregateSignatures`;
    assertPreflightAllows(await preflight(aggregate, 'POST', 'content-type'), 'POST', ['content-type']);
    assertPreflightAllows(await preflight(`${data}/v1/chains`, 'GET', 'x-data-api-key'), 'GET', [
      'x-data-api-key',
    ]);

    // The page may then read the answer and its rate-limit headers.
    const res = await fetch(utxos, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ addresses: address }),
    });
    assert.equal(res.status, 200);
    assertReadable(res);
    assert.ok(((await res.json()) as any).utxos.length > 0);
  });

  it('lets the page read error answers: bad input, unknown route, unknown key', async () => {
    const badSize = await fetch(`${data}/v1/networks/local/subnets?pageSize=0`, {
      headers: { origin: ORIGIN },
    });
    assert.equal(badSize.status, 400);
    assertReadable(badSize);
    const unknown = await fetch(`${data}/v1/nowhere`, { headers: { origin: ORIGIN } });
    assert.equal(unknown.status, 404);
    assertReadable(unknown, false);
    const badKey = await fetch(`${data}/v1/chains`, {
      headers: { origin: ORIGIN, 'x-glacier-api-key': 'not-a-key-of-this-service' },
    });
    assert.equal(badKey.status, 401);
    assertReadable(badKey, false);
    assert.equal(((await badKey.json()) as any).statusCode, 401);
  });

  it('charges nothing for a preflight', async () => {
    const remaining = async () =>
      Number(
        (await fetch(`${data}/v1/chains`, { headers: { origin: ORIGIN } })).headers.get(
          'ratelimit-remaining',
        ),
      );
    const first = await remaining();
    const second = await remaining();
    const perCall = first - second;
    assert.ok(perCall > 0);
    for (let i = 0; i < 3; i++) await preflight(`${data}/v1/chains`, 'GET', 'x-glacier-api-key');
    assert.equal(second - (await remaining()), perCall, 'only the GET was charged');
  });

  it('serves the metrics API to pages too, preflight free of charge', async () => {
    const chainId = net.facts.chains.C.evmChainId;
    const series = `${metrics}/v2/chains/${chainId}/metrics/txCount?timeInterval=day`;
    assertPreflightAllows(await preflight(series, 'GET', 'x-glacier-api-key'), 'GET', ['x-glacier-api-key']);
    const first = await fetch(series, { headers: { origin: ORIGIN } });
    assert.equal(first.status, 200);
    assertReadable(first);
    await preflight(series, 'GET', 'x-glacier-api-key');
    const second = await fetch(`${metrics}/v1/avg_tps/${chainId}`, { headers: { origin: ORIGIN } });
    assertReadable(second);
    // Two charged requests of the same weight: the preflight between them cost nothing.
    const cost =
      Number(first.headers.get('ratelimit-limit')) - Number(first.headers.get('ratelimit-remaining'));
    assert.equal(
      Number(first.headers.get('ratelimit-remaining')) - Number(second.headers.get('ratelimit-remaining')),
      cost,
    );
    const missing = await fetch(`${metrics}/v2/chains/999999/metrics/txCount`, {
      headers: { origin: ORIGIN },
    });
    assert.equal(missing.status, 404);
    assertReadable(missing);
    assert.deepEqual(((await missing.json()) as any).error, 'Not Found');
  });
});
