/**
 * Slow clients on every port of `flurry start`: a request whose headers or body never finish
 * arriving is cut off after `--http-read-timeout` (AvalancheGo's `http-read-timeout`), with a
 * 408, on the node's JSON-RPC, the chain-data REST service and the metrics service alike. The
 * REST and metrics services waited for a body for ever.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startDevnet, type Devnet } from '../helpers/devnet.js';

/** Sends `head` on a raw connection and never finishes the request; resolves what came back. */
function stall(base: string, head: string): Promise<{ ms: number; answer: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    socket.on('data', (d) => (answer += d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ ms: Date.now() - started, answer }));
    // Far past the timeout under test: a connection still open by then was never cut.
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

const partialBody = (path: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`;
const partialHeaders = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n`;

describe('slow clients', () => {
  let net: Devnet;
  before(async () => {
    net = await startDevnet({ args: ['--http-read-timeout', '1000'] });
  });
  after(async () => {
    await net?.stop();
  });

  it('cuts off a request that never finishes arriving on every port', async () => {
    const { node, data, metrics } = net.facts.urls as { node: string; data: string; metrics: string };
    const cases = [
      stall(node, partialBody('/ext/bc/C/rpc')),
      stall(node, partialHeaders('/ext/info')),
      stall(data!, partialBody('/v1/networks/fuji/blockchains/p-chain/utxos')),
      stall(data!, partialHeaders('/v1/chains')),
      stall(metrics!, partialBody('/v2/chains')),
      stall(metrics!, partialHeaders('/v2/chains')),
    ];
    for (const { ms, answer } of await Promise.all(cases)) {
      assert.match(answer, /^HTTP\/1\.1 408 /, `answered ${JSON.stringify(answer)} after ${ms} ms`);
      assert.ok(ms < 10_000, `cut off after ${ms} ms`);
    }
    // The servers still answer.
    assert.equal((await fetch(`${data}/v1/chains`)).status, 200);
    assert.equal((await fetch(`${metrics}/v2/chains`)).status, 200);
  });
});
