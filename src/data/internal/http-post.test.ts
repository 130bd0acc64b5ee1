import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { postJson } from './http-post.js';

describe('postJson', () => {
  let server: http.Server;
  let base: string;
  const clientPorts: number[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      clientPorts.push(req.socket.remotePort ?? 0);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
        res.writeHead(req.url === '/teapot' ? 418 : 200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            method: req.method,
            type: req.headers['content-type'],
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('posts the body as JSON and returns status and text', async () => {
    const res = await postJson(`${base}/echo`, '{"a":1}', { timeoutMs: 1_000 });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.text), { method: 'POST', type: 'application/json', body: '{"a":1}' });
    const teapot = await postJson(`${base}/teapot`, '{}', { timeoutMs: 1_000 });
    assert.equal(teapot.status, 418);
  });

  it('reuses the connection between calls', async () => {
    clientPorts.length = 0;
    await postJson(`${base}/echo`, '{}', { timeoutMs: 1_000 });
    await postJson(`${base}/echo`, '{}', { timeoutMs: 1_000 });
    assert.equal(clientPorts.length, 2);
    assert.equal(clientPorts[0], clientPorts[1]);
  });

  it('rejects when no answer comes within the timeout', async () => {
    await assert.rejects(postJson(`${base}/slow`, '{}', { timeoutMs: 50 }), /no answer within 50 ms/);
  });

  it('rejects when aborted', async () => {
    const controller = new AbortController();
    const pending = postJson(`${base}/slow`, '{}', { timeoutMs: 5_000, signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
  });

  it('rejects for an unreachable address or a malformed URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await assert.rejects(postJson(`http://127.0.0.1:${port}/`, '{}', { timeoutMs: 1_000 }), /ECONNREFUSED/);
    await assert.rejects(postJson('not a url', '{}', { timeoutMs: 1_000 }), /Invalid URL/);
  });
});
