/**
 * A raw JSON-RPC client over one WebSocket connection (the `ws` package), for tests that need to
 * see exactly what a node pushes and in which order: replies by id, `eth_subscription`
 * notifications and every message as it arrived.
 */
import WebSocket from 'ws';

export interface WsRpc {
  readonly socket: WebSocket;
  /** Sends one call (no `params` member when `params` is undefined) and resolves the whole reply. */
  call(method: string, params?: unknown): Promise<any>;
  /** `eth_subscription` params in arrival order. */
  readonly notes: { subscription: string; result: any }[];
  /** Every message in arrival order, replies and notifications. */
  readonly messages: any[];
}

export async function openWsRpc(url: string): Promise<WsRpc> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const replies = new Map<number, (m: any) => void>();
  const notes: WsRpc['notes'] = [];
  const messages: any[] = [];
  socket.on('message', (raw) => {
    const m = JSON.parse(raw.toString());
    messages.push(m);
    if (m.method === 'eth_subscription') notes.push(m.params);
    else replies.get(m.id)?.(m);
  });
  let next = 0;
  const call = (method: string, params?: unknown) =>
    new Promise<any>((resolve) => {
      const id = ++next;
      replies.set(id, resolve);
      const body: Record<string, unknown> = { jsonrpc: '2.0', id, method };
      if (params !== undefined) body.params = params;
      socket.send(JSON.stringify(body));
    });
  return { socket, call, notes, messages };
}
