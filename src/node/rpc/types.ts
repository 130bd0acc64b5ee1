/** Shapes shared by the two JSON-RPC flavours. */
import type { JsonNumberText } from './json-integer.js';
import type { RequestText } from './json-literals.js';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcResponse {
  jsonrpc: '2.0';
  /** A number id JSON.parse could not hold exactly is its text as sent (request-id.ts). */
  id: string | number | null | JsonNumberText;
  result?: unknown;
  error?: RpcErrorObject;
}

/** What a handler may know about the call it serves. */
export interface CallContext {
  /** The request as received (its text read again only for a number's literal, json-literals.ts). */
  readonly request?: RequestText;
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
