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
  readonly connection?: {
    send(message: unknown): void;
    onClose(listener: () => void): void;
    /**
     * Runs the listener once the reply to this call (or to the batch holding it) has been sent:
     * a subscription's notifications wait for it, as geth's notifier does, so a client never
     * sees a notification for an id it has not been given yet.
     */
    afterReply(listener: () => void): void;
    /** This connection's subscriptions by id, each with its stop function (stopped on close). */
    readonly subscriptions: Map<string, () => void>;
  };
}
