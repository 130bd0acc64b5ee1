import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createMetadataResolver, isPrivate, substituteTokenId } from './metadata-resolver.js';

describe('NFT metadata resolver', () => {
  let server: http.Server;
  let base: string;
  before(async () => {
    server = http.createServer((req, res) => {
      switch (req.url) {
        case '/good.json':
          res.end(
            JSON.stringify({
              name: 'Token #1',
              image: 'ipfs://img',
              attributes: [{ trait_type: 'eyes', value: 'blue' }],
              background_color: 'ffffff',
            }),
          );
          return;
        case '/slow.json':
          setTimeout(() => res.end('{}'), 2_000).unref();
          return;
        case '/huge.json':
          res.end('{"name":"' + 'x'.repeat(5_000) + '"}');
          return;
        case '/malformed.json':
          res.end('{name: ');
          return;
        case '/array.json':
          res.end('[1,2]');
          return;
        case '/throttled.json':
          res.writeHead(429).end();
          return;
        case '/redirect':
          res.writeHead(302, { location: '/good.json' }).end();
          return;
        default:
          res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const resolver = () =>
    createMetadataResolver({ allowHosts: ['127.0.0.1'], timeoutMs: 300, maxBytes: 1_000 });

  it('indexes good metadata, following redirects', async () => {
    for (const path of ['/good.json', '/redirect']) {
      const r = await resolver().resolve(base + path);
      assert.equal(r.indexStatus, 'INDEXED');
      assert.equal(r.metadata.name, 'Token #1');
      assert.equal(r.metadata.imageUri, 'ipfs://img');
      assert.equal(r.metadata.background, 'ffffff');
      assert.deepEqual(JSON.parse(r.metadata.attributes!), [{ trait_type: 'eyes', value: 'blue' }]);
    }
  });

  it('gives each failure its own status', async () => {
    const cases: [string | undefined, string][] = [
      [base + '/slow.json', 'UNREACHABLE_TOKEN_URI'],
      [base + '/huge.json', 'METADATA_CONTENT_TOO_LARGE'],
      [base + '/malformed.json', 'INVALID_METADATA_JSON'],
      [base + '/array.json', 'INVALID_METADATA'],
      [base + '/missing.json', 'UNREACHABLE_TOKEN_URI'],
      [base + '/throttled.json', 'THROTTLED_TOKEN_URI'],
      ['ftp://example.com/x.json', 'INVALID_TOKEN_URI_SCHEME'],
      ['not a uri', 'INVALID_TOKEN_URI'],
      ['', 'INVALID_TOKEN_URI'],
      [undefined, 'MISSING_TOKEN'],
    ];
    for (const [uri, status] of cases)
      assert.equal((await resolver().resolve(uri)).indexStatus, status, String(uri));
  });

  it('refuses private addresses the operator did not allow', async () => {
    const strict = createMetadataResolver({ timeoutMs: 300 });
    assert.equal((await strict.resolve(base + '/good.json')).indexStatus, 'UNREACHABLE_TOKEN_URI');
    assert.equal(isPrivate('10.1.2.3'), true);
    assert.equal(isPrivate('192.168.0.1'), true);
    assert.equal(isPrivate('::1'), true);
    assert.equal(isPrivate('8.8.8.8'), false);
  });

  it('decodes data: URIs, base64 and percent-encoded', async () => {
    const json = JSON.stringify({ name: 'On-chain', decimals: 2, properties: { a: 1 } });
    const b64 = await resolver().resolve(
      'data:application/json;base64,' + Buffer.from(json).toString('base64'),
    );
    assert.equal(b64.indexStatus, 'INDEXED');
    assert.equal(b64.metadata.decimals, 2);
    assert.equal(b64.metadata.properties, '{"a":1}');
    const plain = await resolver().resolve('data:application/json,' + encodeURIComponent(json));
    assert.equal(plain.metadata.name, 'On-chain');
  });

  it('substitutes {id} as 64 hex digits', () => {
    assert.equal(substituteTokenId('https://x/{id}.json', 255n), `https://x/${'0'.repeat(62)}ff.json`);
  });
});
