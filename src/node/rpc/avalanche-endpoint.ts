/**
 * The JSON-RPC flavour of the node's non-EVM endpoints (X, P, info, health, index, admin,
 * validators, the C-chain's atomic API). It reproduces the reference node's wire conventions:
 * errors travel with HTTP 200 as code -32000 with `data: null`, method names are
 * `service.method`, params may be missing, null, {}, [] or [{}], and `id: 0` is a real id.
 */
import { RpcCode, RpcError } from './errors.js';
import { attachRequestText } from './json-literals.js';
import { Params, ParamsShapeError, isObject } from './params.js';
import { answerId } from './request-id.js';
import type { CallContext, RpcResponse } from './types.js';

export type AvalancheHandler = (params: Params, ctx: CallContext) => unknown;

/** The largest batch accepted; the spec's limit for the public node. */
export const MAX_BATCH_ITEMS = 40;

export class AvalancheEndpoint {
  private readonly methods = new Map<string, AvalancheHandler>();
  private readonly serviceAliases = new Map<string, string>();
  private underscoreNames = false;

  /**
   * @param name a label for logs
   */
  constructor(readonly name: string) {}

  /** Registers `service.method`. */
  register(service: string, method: string, handler: AvalancheHandler): this {
    this.methods.set(`${service}.${method}`, handler);
    return this;
  }

  registerAll(service: string, handlers: Record<string, AvalancheHandler>): this {
    for (const [method, handler] of Object.entries(handlers)) this.register(service, method, handler);
    return this;
  }

  /** Makes `alias.x` call `service.x` (the spec's `xvm.` for the real `avm.`, and the reverse). */
  aliasService(alias: string, service: string): this {
    this.serviceAliases.set(alias, service);
    return this;
  }

  /**
   * Also answers `service_method` as `service.method`: the spec writes the C-chain admin methods
   * geth-style (`admin_startCPUProfiler`), the reference serves them as `admin.startCPUProfiler`.
   */
  acceptUnderscoreNames(): this {
    this.underscoreNames = true;
    return this;
  }

  hasService(service: string): boolean {
    const real = this.serviceAliases.get(service) ?? service;
    for (const key of this.methods.keys()) if (key.startsWith(real + '.')) return true;
    return false;
  }

  /** Answers a decoded request body: one request or a batch. `undefined` means no body. */
  async handle(body: unknown, ctx: CallContext): Promise<RpcResponse | RpcResponse[] | undefined> {
    if (Array.isArray(body)) {
      if (body.length === 0) return errorResponse(null, RpcCode.invalidRequest, 'empty batch');
      if (body.length > MAX_BATCH_ITEMS) {
        return errorResponse(
          null,
          RpcCode.invalidRequest,
          `batch too large: ${body.length} items, at most ${MAX_BATCH_ITEMS}`,
        );
      }
      const answers = await Promise.all(body.map((item) => this.handleOne(item, ctx)));
      const replies = answers.filter((a): a is RpcResponse => a !== undefined);
      // JSON-RPC 2.0: a batch of notifications only gets no reply at all, not an empty array.
      return replies.length > 0 ? replies : undefined;
    }
    return this.handleOne(body, ctx);
  }

  private async handleOne(request: unknown, ctx: CallContext): Promise<RpcResponse | undefined> {
    if (!isObject(request)) return errorResponse(null, RpcCode.parseError, 'invalid request object');
    // The id as the client wrote it: the reference keeps it as raw JSON text and echoes it.
    const id = answerId(request, ctx.request);
    if (request.jsonrpc !== '2.0')
      return errorResponse(id, RpcCode.invalidRequest, 'jsonrpc must be 2.0', request);
    const isNotification = request.id === undefined || request.id === null;
    const answer = await this.call(request, id, ctx);
    return isNotification ? undefined : answer;
  }

  private async call(
    request: Record<string, unknown>,
    id: RpcResponse['id'],
    ctx: CallContext,
  ): Promise<RpcResponse> {
    let method = typeof request.method === 'string' ? request.method : '';
    if (this.underscoreNames && !method.includes('.')) method = method.replace('_', '.');
    const dot = method.indexOf('.');
    if (dot < 0)
      return errorResponse(id, RpcCode.server, `rpc: service/method request ill-formed: "${method}"`);
    const service = method.slice(0, dot);
    const name = method.slice(dot + 1);
    if (name.length > 0 && name[0] !== name[0].toLowerCase()) {
      return errorResponse(id, RpcCode.server, 'method must start with a non-uppercase letter');
    }
    const realService = this.serviceAliases.get(service) ?? service;
    const capitalised = `${service}.${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    if (!this.hasService(service))
      return errorResponse(id, RpcCode.server, `rpc: can't find service "${capitalised}"`);
    const handler = this.methods.get(`${realService}.${name}`);
    if (!handler) return errorResponse(id, RpcCode.server, `rpc: can't find method "${capitalised}"`);
    // As on the EVM side: an integer param is read from the literal the client wrote.
    const detach = isContainer(request.params) ? attachRequestText(request.params, ctx.request) : undefined;
    try {
      const params = Params.from(request.params);
      const result = await handler(params, ctx);
      return { jsonrpc: '2.0', result: result ?? {}, id };
    } catch (err) {
      return errorResponse(id, RpcCode.server, messageOf(err));
    } finally {
      detach?.();
    }
  }
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

export function messageOf(err: unknown): string {
  if (err instanceof RpcError || err instanceof ParamsShapeError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

function errorResponse(
  id: RpcResponse['id'],
  code: number,
  message: string,
  data: unknown = null,
): RpcResponse {
  return { jsonrpc: '2.0', error: { code, message, data }, id };
}
