/** Shapes shared by the two JSON-RPC flavours. */

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: RpcErrorObject;
}

/** What a handler may know about the call it serves. */
export interface CallContext {
  /** Present when the call arrived over a WebSocket connection (subscriptions need it). */
  readonly connection?: { send(message: unknown): void; onClose(listener: () => void): void };
}
