/**
 * The node's HTTP front door: one node:http server, a path table, and the transport rules of the
 * two JSON-RPC flavours (method and content-type checks, body limits, CORS, the `node-id` header).
 * WebSocket upgrades are routed through the same table.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AvalancheEndpoint } from './avalanche-endpoint.js';
import { EvmEndpoint } from './evm-endpoint.js';
import { parseJsonBody } from './json-body.js';
import { stringifyJson } from './json-integer.js';
import { DEFAULT_HTTP_READ_TIMEOUT_MS, readTimeoutOptions } from '../../shared/http-timeouts.js';
import type { CallContext } from './types.js';

/** A handler that owns the whole HTTP exchange (health GET, docs). */
export type RawHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
) => void | Promise<void>;
export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

export type Route =
  | { kind: 'avalanche'; endpoint: AvalancheEndpoint; raw?: RawHandler }
  | { kind: 'evm'; endpoint: EvmEndpoint }
  | { kind: 'raw'; handler: RawHandler };

/** Bodies above this are refused with 413 before they are parsed (non-EVM and raw routes). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The EVM endpoints' limit: geth's (and coreth's) defaultBodyLimit, 5 MiB. */
export const EVM_MAX_BODY_BYTES = 5 * 1024 * 1024;

const AVALANCHE_CONTENT_TYPES = new Set(['application/json']);
const EVM_CONTENT_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

export class Router {
  private readonly routes = new Map<string, Route>();
  private readonly upgrades = new Map<string, UpgradeHandler>();

  mount(path: string, route: Route): void {
    this.routes.set(normalise(path), route);
  }

  unmount(path: string): void {
    this.routes.delete(normalise(path));
    this.upgrades.delete(normalise(path));
  }

  /** Mounts a chain's endpoint under every alias: `/ext/bc/<alias>[/suffix]` and legacy `/ext/<alias>[/suffix]`. */
  mountChain(aliases: readonly string[], suffix: string, route: Route): void {
    for (const alias of aliases) {
      const tail = suffix ? `/${suffix}` : '';
      this.mount(`/ext/bc/${alias}${tail}`, route);
      this.mount(`/ext/${alias}${tail}`, route);
    }
  }

  mountChainUpgrade(aliases: readonly string[], suffix: string, handler: UpgradeHandler): void {
    for (const alias of aliases) {
      this.upgrades.set(normalise(`/ext/bc/${alias}/${suffix}`), handler);
      this.upgrades.set(normalise(`/ext/${alias}/${suffix}`), handler);
    }
  }

  lookup(path: string): Route | undefined {
    return this.routes.get(normalise(path));
  }

  lookupUpgrade(path: string): UpgradeHandler | undefined {
    return this.upgrades.get(normalise(path));
  }

  paths(): string[] {
    return [...this.routes.keys()];
  }
}

function normalise(path: string): string {
  const q = path.indexOf('?');
  let p = q >= 0 ? path.slice(0, q) : path;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

export interface HttpServerOptions {
  router: Router;
  /** Sent as the `node-id` header on every answer, like the reference node. */
  nodeId: string;
  host: string;
  port: number;
  /** `--http-read-timeout`: how long a client may take to send its request (0: no limit). */
  readTimeoutMs?: number;
  onError?: (err: unknown) => void;
}

export class NodeHttpServer {
  private readonly server: http.Server;
  private readonly upgraded = new Set<Duplex>();

  constructor(private readonly options: HttpServerOptions) {
    const timeouts = readTimeoutOptions(options.readTimeoutMs ?? DEFAULT_HTTP_READ_TIMEOUT_MS);
    this.server = http.createServer(timeouts, (req, res) => {
      this.serve(req, res).catch((err) => {
        options.onError?.(err);
        if (!res.headersSent) sendText(res, 500, 'internal error');
        else res.end();
      });
    });
    this.server.keepAliveTimeout = 65_000;
    this.server.on('upgrade', (req, socket, head) => {
      // Upgraded sockets leave the HTTP server's bookkeeping: track them so close() can end them.
      this.upgraded.add(socket);
      socket.once('close', () => this.upgraded.delete(socket));
      const handler = options.router.lookupUpgrade(req.url ?? '/');
      if (handler) return handler(req, socket, head);
      // No WebSocket here: answer as the plain request, as the reference's handlers ignore the
      // Upgrade header (a gorilla endpoint's GET is a 405, an unknown path a 404).
      const res = new http.ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as Socket);
      res.once('finish', () => {
        res.detachSocket(socket as Socket);
        socket.end();
      });
      this.serve(req, res).catch((err) => {
        options.onError?.(err);
        socket.destroy();
      });
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
      for (const socket of this.upgraded) socket.destroy();
      this.upgraded.clear();
    });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader('node-id', this.options.nodeId);
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.setHeader('access-control-allow-credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
      res.setHeader(
        'access-control-allow-headers',
        req.headers['access-control-request-headers'] ?? 'content-type',
      );
      res.writeHead(204).end();
      return;
    }
    const route = this.options.router.lookup(req.url ?? '/');
    if (!route && this.options.router.lookupUpgrade(req.url ?? '/')) {
      // A plain request (no WebSocket handshake) at a WebSocket endpoint: the path exists, and
      // the reference's gorilla upgrader refuses it, whatever its method, with 400 and the version
      // it speaks.
      res.setHeader('sec-websocket-version', '13');
      return sendText(res, 400, 'Bad Request\n');
    }
    if (!route) return sendText(res, 404, '404 page not found\n');

    const limit = route.kind === 'evm' ? EVM_MAX_BODY_BYTES : MAX_BODY_BYTES;
    const body = await readBody(req, limit);
    // The client went away before its request was whole: nothing to answer, nothing wrong here.
    if (body === null) return;
    if (body === undefined) return refuseTooLarge(req, res, route.kind === 'evm', limit);

    if (route.kind === 'raw') return route.handler(req, res, body);
    if (route.kind === 'avalanche') {
      if (req.method !== 'POST') {
        if (route.raw && req.method === 'GET') return route.raw(req, res, body);
        return sendText(res, 405, `rpc: POST method required, received ${req.method}`);
      }
      const contentType = req.headers['content-type'] ?? '';
      if (!AVALANCHE_CONTENT_TYPES.has(mediaType(contentType))) {
        return sendText(res, 415, `rpc: unrecognized Content-Type: ${contentType}`);
      }
      const parsed = parseJsonBody(body);
      if (!parsed.ok) {
        return sendJson(res, {
          jsonrpc: '2.0',
          error: { code: -32700, message: parsed.message, data: null },
          id: null,
        });
      }
      const answer = await route.endpoint.handle(parsed.value, {
        request: { text: parsed.text, body: parsed.value },
      });
      if (answer === undefined) return void res.writeHead(200).end();
      return sendJson(res, answer);
    }
    // EVM flavour
    if (req.method === 'GET' && body.length === 0) return void res.writeHead(200).end();
    if (req.method !== 'POST') return sendText(res, 405, 'method not allowed\n');
    const contentType = req.headers['content-type'] ?? '';
    if (!EVM_CONTENT_TYPES.has(mediaType(contentType))) {
      return sendText(res, 415, 'invalid content type, only application/json is supported\n');
    }
    const parsed = parseJsonBody(body);
    if (!parsed.ok)
      return sendJson(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    const ctx: CallContext = { request: { text: parsed.text, body: parsed.value } };
    const answer = await route.endpoint.handle(parsed.value, ctx);
    if (answer === undefined) return void res.writeHead(200).end();
    return sendJson(res, answer);
  }
}

/** Media type without parameters, lower-cased (`application/json; charset=UTF-8` → `application/json`). */
function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/**
 * The request body; null when the client hung up before sending all of it (not a server error,
 * nothing to answer); or undefined once it passes `limit` bytes: a declared length above the
 * limit is refused before any of it is read, and a streamed body stops being kept (and waited
 * for) at the limit, so neither memory nor the wait grows with what a client sends.
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | undefined | null> {
  if (declaredLength(req) > limit) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}

function declaredLength(req: http.IncomingMessage): number {
  const header = req.headers['content-length'];
  return header === undefined ? 0 : Number(header);
}

/** What is read and dropped of a refused body, so its client can read the 413, before closing. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * 413 for a body over the limit, in geth's words on the EVM endpoints (`content length too large
 * (N>5242880)`; `>5242880` alone for a streamed body, whose length is never known). The rest of
 * the body is read and dropped (the connection is not closed under a client still writing it,
 * which would see a reset instead of the answer), but no more than MAX_DRAIN_BYTES: past that
 * the connection is cut.
 */
function refuseTooLarge(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  evm: boolean,
  limit: number,
): void {
  const length = declaredLength(req);
  const text = evm
    ? `content length too large (${length > limit ? length : ''}>${limit})\n`
    : 'request body too large\n';
  sendText(res, 413, text);
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}

export function sendJson(res: http.ServerResponse, value: unknown, status = 200): void {
  const text = stringify(value) + '\n';
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * JSON with bigints as decimal strings (the node's convention for 64-bit integers), and
 * JsonIntegers as bare numbers where the reference writes Go's uint64 numbers.
 */
export function stringify(value: unknown): string {
  try {
    return stringifyJson(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return stringifyJson(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  }
}
