/**
 * A small Ethereum JSON-RPC client over HTTP: single calls and batches (split to the node's batch
 * limit), with the node's error object surfaced as an RpcCallError. The indexer reads the node
 * only through this, so it works against any standard EVM node.
 */
import { UpstreamInvalidError, UpstreamUnavailableError } from '../../internal/errors.js';

export class RpcCallError extends Error {
  override readonly name = 'RpcCallError';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message} (${code})`);
  }
}

export interface RpcRequest {
  method: string;
  params: unknown[];
}

/** One result per request, in order: either the value or the node's error. */
export type RpcOutcome<T = any> = { ok: true; value: T } | { ok: false; error: RpcCallError };

export interface EvmRpcClientOptions {
  /** Largest batch the node accepts (Flurry answers at most 40 calls per batch). */
  maxBatch?: number;
  timeoutMs?: number;
}

export class EvmRpcClient {
  private nextId = 1;
  private readonly maxBatch: number;
  private readonly timeoutMs: number;

  constructor(
    readonly url: string,
    options: EvmRpcClientOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 40;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async call<T = any>(method: string, params: unknown[] = []): Promise<T> {
    const [outcome] = await this.batch<T>([{ method, params }]);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Sends the requests in batches of at most maxBatch, all batches concurrently. */
  async batch<T = any>(requests: RpcRequest[]): Promise<RpcOutcome<T>[]> {
    if (requests.length === 0) return [];
    const parts: RpcRequest[][] = [];
    for (let i = 0; i < requests.length; i += this.maxBatch) parts.push(requests.slice(i, i + this.maxBatch));
    const answers = await Promise.all(parts.map((p) => this.send<T>(p)));
    return answers.flat();
  }

  private async send<T>(requests: RpcRequest[]): Promise<RpcOutcome<T>[]> {
    const first = this.nextId;
    this.nextId += requests.length;
    const single = requests.length === 1;
    const payload = requests.map((r, i) => ({
      jsonrpc: '2.0',
      id: first + i,
      method: r.method,
      params: r.params,
    }));
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(single ? payload[0] : payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new UpstreamUnavailableError(`cannot reach ${this.url}: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UpstreamInvalidError(`${this.url} answered HTTP ${res.status} with a non-JSON body`);
    }
    const replies: any[] = Array.isArray(body) ? body : [body];
    if (!Array.isArray(body) && !single) {
      // A whole-batch error (e.g. batch too large) comes back as one error object.
      const err = body?.error;
      const e = new RpcCallError('batch', err?.code ?? -32603, err?.message ?? 'invalid batch reply');
      return requests.map(() => ({ ok: false, error: e }));
    }
    const byId = new Map<number, any>(replies.map((r) => [r?.id, r]));
    return requests.map((r, i) => {
      const reply = byId.get(first + i);
      if (!reply) return { ok: false, error: new RpcCallError(r.method, -32603, 'no reply in batch') };
      if (reply.error)
        return {
          ok: false,
          error: new RpcCallError(
            r.method,
            reply.error.code ?? -32603,
            String(reply.error.message),
            reply.error.data,
          ),
        };
      return { ok: true, value: reply.result as T };
    });
  }
}

/** Unwraps batch outcomes, throwing the first error. */
export function unwrapAll<T>(outcomes: RpcOutcome<T>[]): T[] {
  return outcomes.map((o) => {
    if (!o.ok) throw o.error;
    return o.value;
  });
}
