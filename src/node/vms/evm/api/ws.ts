/**
 * The WebSocket transport of an EVM endpoint (`/ext/bc/<chain>/ws`): the same JSON-RPC methods
 * as HTTP, plus subscriptions, which push `eth_subscription` notifications on the connection.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EvmEndpoint } from '../../../rpc/evm-endpoint.js';
import { parseJsonBody } from '../../../rpc/json-body.js';
import { stringifyJson } from '../../../rpc/json-integer.js';
import type { CallContext } from '../../../rpc/types.js';

/** Larger messages close the connection (geth's default read limit is 32 MB). */
export const WS_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * A connection's subscriptions by id, each with its stop function. Once the connection has
 * closed, a subscription made by a call still running (a batch's `eth_subscribe` behind a slow
 * call) is stopped as it is added, instead of listening to the chain for ever.
 */
class ConnectionSubscriptions extends Map<string, () => void> {
  private closed = false;

  override set(id: string, stop: () => void): this {
    if (this.closed) {
      stop();
      return this;
    }
    return super.set(id, stop);
  }

  close(): void {
    this.closed = true;
    for (const stop of this.values()) stop();
    this.clear();
  }
}

/** geth pings each WebSocket client every 30 s (`wsPingInterval`) and drops one that stays silent. */
export const WS_PING_INTERVAL_MS = 30_000;

/**
 * geth gives each write to a connection 10 s (`defaultWriteTimeout`); a client that has not taken
 * a message by then (it stopped reading, so the socket's buffers are full) loses its connection.
 */
export const WS_WRITE_TIMEOUT_MS = 10_000;

/**
 * Bytes a connection may have waiting to go out before another message is queued. geth blocks
 * its writer on the socket, so what waits is bounded by the kernel's buffers; Node queues in
 * memory, so a client that stops reading could grow the node by whatever its subscriptions
 * produce within the write timeout (logs or full transactions on a busy chain). The bound is
 * checked before a message is queued, so one reply larger than it (a big trace) still goes out.
 */
export const WS_MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

export function createWsUpgrade(
  endpoint: EvmEndpoint,
  options: { pingIntervalMs?: number; writeTimeoutMs?: number; maxBufferedBytes?: number } = {},
): {
  upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  close(): void;
} {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: WS_MAX_MESSAGE_BYTES,
    // coreth's upgrader names no subprotocols, so it picks none of a client's (`ws` would echo
    // the first): a client that requires one fails here as it does against avalanchego.
    handleProtocols: () => false,
    // gorilla hands text frames on unchecked and Go's JSON decoder reads bytes that are not
    // UTF-8 as U+FFFD (as Buffer#toString does), so such a frame is answered, not closed (1007).
    skipUTF8Validation: true,
  });
  // A client whose host vanished (a laptop asleep, a dropped network) never closes its socket: a
  // client that has not answered the previous ping by the next one is dropped, with its
  // subscriptions, as geth does.
  const answered = new WeakSet<WebSocket>();
  const pings = setInterval(() => {
    for (const ws of server.clients) {
      if (!answered.has(ws)) {
        ws.terminate();
        continue;
      }
      answered.delete(ws);
      ws.ping();
    }
  }, options.pingIntervalMs ?? WS_PING_INTERVAL_MS);
  pings.unref();
  server.on('connection', (ws: WebSocket) => {
    answered.add(ws);
    ws.on('pong', () => answered.add(ws));
    const closeListeners: (() => void)[] = [];
    // When each message still queued was sent, oldest first: `ws` calls back in order once a
    // message has been handed to the socket.
    const queuedAt: number[] = [];
    const writeTimeoutMs = options.writeTimeoutMs ?? WS_WRITE_TIMEOUT_MS;
    const maxBuffered = options.maxBufferedBytes ?? WS_MAX_BUFFERED_BYTES;
    const send = (message: unknown) => {
      if (ws.readyState !== ws.OPEN) return;
      const stalled = queuedAt.length > 0 && Date.now() - queuedAt[0] > writeTimeoutMs;
      if (stalled || ws.bufferedAmount > maxBuffered) {
        // A slow reader: drop it (and so its subscriptions) rather than queue for ever.
        ws.terminate();
        return;
      }
      queuedAt.push(Date.now());
      // stringifyJson: an id echoed as the client wrote it (request-id.ts) is a marked string.
      ws.send(stringifyJson(message), () => queuedAt.shift());
    };
    const onClose = (l: () => void) => closeListeners.push(l);
    const subscriptions = new ConnectionSubscriptions();
    onClose(() => subscriptions.close());
    ws.on('close', () => {
      for (const l of closeListeners.splice(0)) l();
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (raw) => {
      const parsed = parseJsonBody(raw.toString());
      if (!parsed.ok) {
        send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
        return;
      }
      const body = parsed.value;
      const replied: (() => void)[] = [];
      const ctx: CallContext = {
        request: { text: parsed.text, body },
        connection: { send, onClose, afterReply: (l) => replied.push(l), subscriptions },
      };
      endpoint
        .handle(body, ctx)
        .then((answer) => {
          if (answer !== undefined) send(answer);
        })
        .catch((err) =>
          send({ jsonrpc: '2.0', id: null, error: { code: -32603, message: (err as Error).message } }),
        )
        .finally(() => {
          for (const l of replied.splice(0)) l();
        });
    });
  });
  return {
    upgrade(req, socket, head) {
      server.handleUpgrade(req, socket, head, (ws) => server.emit('connection', ws, req));
    },
    close() {
      clearInterval(pings);
      for (const c of server.clients) c.terminate();
      server.close();
    },
  };
}
