/**
 * JSON-RPC over HTTP to any node that serves the reference interfaces. The data platform talks
 * to the node only through this client. A node that cannot be reached is UpstreamUnavailable
 * (HTTP 503 when it surfaces in a request); one that answers something that is not a JSON-RPC
 * reply is UpstreamInvalid (502); a JSON-RPC error is a NodeRpcError carrying the node's message.
 */
import { UpstreamInvalidError, UpstreamUnavailableError } from './errors.js';
import { postJson, type PostResult } from './http-post.js';

export class NodeRpcError extends Error {
  override readonly name = 'NodeRpcError';
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

export interface NodeClient {
  readonly url: string;
  /**
   * Calls `method` at `path` (e.g. `/ext/index/X/block`) with named params (or positional ones,
   * as the EVM endpoints take them).
   */
  call<T>(path: string, method: string, params?: Record<string, unknown> | unknown[]): Promise<T>;
}

export function createNodeClient(url: string, timeoutMs = 30_000): NodeClient {
  const base = url.replace(/\/+$/, '');
  let id = 0;
  return {
    url: base,
    async call<T>(
      path: string,
      method: string,
      params: Record<string, unknown> | unknown[] = {},
    ): Promise<T> {
      let res: PostResult;
      try {
        res = await postJson(base + path, JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), {
          timeoutMs,
        });
      } catch (err) {
        throw new UpstreamUnavailableError(
          `node at ${base} is unreachable: ${(err as Error).message}`,
          undefined,
          {
            cause: err,
          },
        );
      }
      const text = res.text;
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        const err = new UpstreamInvalidError(
          `node at ${base} answered ${method} with HTTP ${res.status} and no JSON-RPC body`,
        );
        err.httpStatus = res.status;
        throw err;
      }
      // A JSON-RPC error is an object; a REST service's `{"error": "Not Found", …}` (a --node-url
      // naming the wrong server) is no node's answer and must say so, not "method: undefined".
      if (body && typeof body === 'object' && body.error && typeof body.error === 'object')
        throw new NodeRpcError(method, Number(body.error.code), String(body.error.message));
      if (!body || typeof body !== 'object' || !('result' in body))
        throw new UpstreamInvalidError(
          `node at ${base} answered ${method} with HTTP ${res.status} and no JSON-RPC result; is it an Avalanche node?`,
        );
      return body.result as T;
    },
  };
}
