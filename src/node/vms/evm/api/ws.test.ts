import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { EvmEndpoint } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { createSubscriptionApi } from './filters.js';
import { createWsUpgrade } from './ws.js';

/** Stands in for the chain: subscriptions only listen to its events. */
const chain = new EventEmitter() as EventEmitter & { config: { atomicTxs: boolean } };
chain.config = { atomicTxs: false };

describe('EVM WebSocket connections', () => {
  let server: http.Server;
  let url: string;
  let release: () => void = () => {};
  before(async () => {
    const endpoint = new EvmEndpoint('test')
      .registerAll(createSubscriptionApi(chain as unknown as EvmChain))
      // A call that answers only when the test lets it.
      .register('test_wait', () => new Promise<boolean>((resolve) => (release = () => resolve(true))));
    const ws = createWsUpgrade(endpoint, { pingIntervalMs: 100 });
    server = http.createServer();
    server.on('upgrade', ws.upgrade);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  async function open(): Promise<WebSocket> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return socket;
  }
  const settle = () => new Promise((r) => setTimeout(r, 100));

  it(
    'keeps a client that answers pings and drops one that does not, with its subscriptions',
    { timeout: 5_000 },
    async () => {
      const live = await open();
      const silent = new WebSocket(url, { autoPong: false });
      await new Promise((resolve, reject) => silent.once('open', resolve).once('error', reject));
      silent.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      await settle();
      assert.equal(chain.listenerCount('block'), 1, 'the silent client subscribed');
      const closed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
      await closed;
      await settle();
      assert.equal(chain.listenerCount('block'), 0, 'its subscription stopped with it');
      assert.equal(live.readyState, WebSocket.OPEN, 'the client answering pings stays');
      live.close();
    },
  );

  it('stops its subscriptions when it closes', async () => {
    const socket = await open();
    const replies: unknown[] = [];
    socket.on('message', (m) => replies.push(JSON.parse(m.toString())));
    for (let id = 1; id <= 3; id++)
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] }));
    while (replies.length < 3) await settle();
    assert.equal(chain.listenerCount('block'), 3);
    socket.close();
    await settle();
    assert.equal(chain.listenerCount('block'), 0);
  });

  it('stops a subscription that a batch makes after the connection has closed', async () => {
    const socket = await open();
    socket.send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'test_wait' },
        { jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['newHeads'] },
      ]),
    );
    await settle();
    socket.close();
    await settle();
    release(); // the batch goes on to eth_subscribe on a closed connection
    await settle();
    assert.equal(chain.listenerCount('block'), 0);
  });

  it(
    'drops a client that stops reading, as geth does after its write timeout, instead of queueing for ever',
    { timeout: 10_000 },
    async () => {
      for (const options of [{ writeTimeoutMs: 200 }, { maxBufferedBytes: 4 * 1024 * 1024 }]) {
        const endpoint = new EvmEndpoint('test').registerAll(
          createSubscriptionApi(chain as unknown as EvmChain),
        );
        const ws = createWsUpgrade(endpoint, options);
        const slowServer = http.createServer();
        slowServer.on('upgrade', ws.upgrade);
        await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
        const socket = new WebSocket(`ws://127.0.0.1:${(slowServer.address() as AddressInfo).port}`);
        await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
        const replied = new Promise((resolve) => socket.once('message', resolve));
        socket.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'eth_subscribe',
            params: ['newPendingTransactions'],
          }),
        );
        await replied;
        // The client stops reading; the node goes on notifying, far more than socket buffers hold.
        (socket as unknown as { _socket: { pause(): void } })._socket.pause();
        const big = '0x' + 'ab'.repeat(512 * 1024);
        for (let i = 0; i < 80 && chain.listenerCount('pendingTx') > 0; i++) {
          chain.emit('pendingTx', big);
          await new Promise((r) => setTimeout(r, 10));
        }
        assert.equal(
          chain.listenerCount('pendingTx'),
          0,
          `dropped with its subscription (${JSON.stringify(options)})`,
        );
        socket.terminate();
        ws.close();
        slowServer.close();
      }
    },
  );
});
