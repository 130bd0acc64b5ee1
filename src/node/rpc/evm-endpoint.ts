/**
 * The geth-style JSON-RPC flavour of the EVM endpoints (`/ext/bc/<chain>/rpc` and `/ws`):
 * positional params, batches (at most 40 items, larger batches are refused whole), -32601 for
 * unknown methods, and `data` only when an error carries some.
 */
import { RpcCode, RpcError } from './errors.js';
import { isObject } from './params.js';
import type { CallContext, RpcResponse } from './types.js';
import { MAX_BATCH_ITEMS } from './avalanche-endpoint.js';
import { stringifyJson } from './json-integer.js';
import { attachRequestText } from './json-literals.js';
import { answerId } from './request-id.js';

/** coreth's `batch-response-max-size` default (25 MB): the most result bytes one batch returns. */
export const BATCH_RESPONSE_MAX_BYTES = 25 * 1000 * 1000;
/** geth's errcodeResponseTooLarge. */
const RESPONSE_TOO_LARGE_CODE = -32003;

export type EvmHandler = (params: unknown[], ctx: CallContext) => unknown;

export class EvmEndpoint {
  private readonly methods = new Map<string, EvmHandler>();

  /** @param batchResponseMaxBytes the batch result cap (0: none), as coreth's `batch-response-max-size` */
  constructor(
    readonly name: string,
    private readonly batchResponseMaxBytes = BATCH_RESPONSE_MAX_BYTES,
  ) {}

  register(method: string, handler: EvmHandler): this {
    this.methods.set(method, handler);
    return this;
  }

  registerAll(handlers: Record<string, EvmHandler>): this {
    for (const [method, handler] of Object.entries(handlers)) this.register(method, handler);
    return this;
  }

  has(method: string): boolean {
    return this.methods.has(method);
  }

  async handle(body: unknown, ctx: CallContext): Promise<RpcResponse | RpcResponse[] | undefined> {
    if (Array.isArray(body)) {
      if (body.length === 0) return errorResponse(null, RpcCode.invalidRequest, 'empty batch');
      if (body.length > MAX_BATCH_ITEMS) {
        // Like geth: one error, carrying the first call's id, and nothing of the batch is run.
        const firstId = isObject(body[0]) ? answerId(body[0], ctx.request) : null;
        return [errorResponse(firstId, RpcCode.invalidRequest, 'batch too large')];
      }
      const answers: RpcResponse[] = [];
      let resultBytes = 0;
      // Sequential, so a batch of dependent calls (send, then read) sees its own effects in order.
      for (let i = 0; i < body.length; i++) {
        const answer = await this.handleOne(body[i], ctx);
        if (!answer) continue;
        answers.push(answer);
        if (answer.result === undefined) continue;
        // geth's BatchResponseMaxSize: once the results passed the cap, every call not run yet is
        // answered -32003 `response too large` instead, so one batch cannot build an unbounded reply.
        resultBytes += Buffer.byteLength(stringifyJson(answer.result));
        if (resultBytes > this.batchResponseMaxBytes) {
          for (const rest of body.slice(i + 1)) {
            if (isObject(rest) && rest.id === undefined) continue;
            const restId = isObject(rest) ? answerId(rest, ctx.request) : null;
            answers.push(errorResponse(restId, RESPONSE_TOO_LARGE_CODE, 'response too large'));
          }
          break;
        }
      }
      // geth writes nothing for a batch of notifications only (not an empty array).
      return answers.length > 0 ? answers : undefined;
    }
    return this.handleOne(body, ctx);
  }

  async handleOne(request: unknown, ctx: CallContext): Promise<RpcResponse | undefined> {
    if (!isObject(request)) return errorResponse(null, RpcCode.invalidRequest, 'invalid request');
    // geth's hasValidID: an object or array id is no id; such a request is invalid, answered
    // with a null id.
    if (typeof request.id === 'object' && request.id !== null)
      return errorResponse(null, RpcCode.invalidRequest, 'invalid request');
    const id = answerId(request, ctx.request);
    const isNotification = request.id === undefined;
    // geth's isResponse: a message shaped as an answer (an id, a result or error, no method or
    // params) is taken for the answer to a call of its own, and one it did not make is dropped
    // without a word.
    if (
      request.jsonrpc === '2.0' &&
      !isNotification &&
      (request.method === undefined || request.method === '') &&
      request.params === undefined &&
      (request.result !== undefined || request.error !== undefined)
    )
      return undefined;
    if (request.jsonrpc !== '2.0' || typeof request.method !== 'string' || request.method === '') {
      return errorResponse(id, RpcCode.invalidRequest, 'invalid request');
    }
    const handler = this.methods.get(request.method);
    // A notification (no id) is never answered, not even to say that it failed (JSON-RPC 2.0;
    // geth runs it and drops whatever came of it).
    if (!handler && isNotification) return undefined;
    if (!handler) {
      return errorResponse(
        id,
        RpcCode.methodNotFound,
        `the method ${request.method} does not exist/is not available`,
      );
    }
    let params: unknown[];
    if (request.params === undefined || request.params === null) {
      // geth reads a subscription's name from the params array itself: where subscriptions are
      // served, `*_subscribe` without that array is refused before its name is looked at.
      if (ctx.connection && request.method.endsWith('_subscribe'))
        return isNotification ? undefined : errorResponse(id, RpcCode.invalidParams, 'non-array args');
      params = [];
    } else if (Array.isArray(request.params)) params = request.params;
    else return isNotification ? undefined : errorResponse(id, RpcCode.invalidParams, 'non-array args');
    // Handlers get the params alone: a decoder finds the request's text through them.
    const detach = attachRequestText(params, ctx.request);
    try {
      const result = await handler(params, ctx);
      if (isNotification) return undefined;
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (err) {
      if (isNotification) return undefined;
      if (err instanceof RpcError) return errorResponse(id, err.code, err.message, err.data);
      return errorResponse(id, RpcCode.server, err instanceof Error ? err.message : String(err));
    } finally {
      detach();
    }
  }
}

function errorResponse(id: RpcResponse['id'], code: number, message: string, data?: unknown): RpcResponse {
  const error = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}
