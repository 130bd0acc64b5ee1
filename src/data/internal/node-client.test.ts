import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { UpstreamInvalidError } from './errors.js';
import { createNodeClient, NodeRpcError } from './node-client.js';

describe('createNodeClient', () => {
  let server: http.Server;
  let url: string;
  let answer: { status: number; body: string };

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads results and JSON-RPC errors', async () => {
    const node = createNodeClient(url);
    answer = { status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{"networkID":"12345"}}' };
    assert.deepEqual(await node.call('/ext/info', 'info.getNetworkID'), { networkID: '12345' });
    answer = {
      status: 200,
      body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method"}}',
    };
    await assert.rejects(node.call('/ext/info', 'info.x'), NodeRpcError);
  });

  it('says a server that is no node is no node (a REST 404 body is no JSON-RPC error)', async () => {
    answer = {
      status: 404,
      body: '{"message":"Route POST:/ext/info not found","statusCode":404,"error":"Not Found"}',
    };
    await assert.rejects(createNodeClient(url).call('/ext/info', 'info.getNetworkID'), (err: Error) => {
      assert.ok(err instanceof UpstreamInvalidError, err.message);
      assert.match(err.message, /answered info\.getNetworkID with HTTP 404 and no JSON-RPC result/);
      return true;
    });
  });
});
