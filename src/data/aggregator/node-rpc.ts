/**
 * The aggregator's view of the node: plain JSON-RPC over HTTP to the public endpoints (P-chain
 * validator sets and chains, info.peers, each validator's signature endpoint), as against any node.
 */
import { UpstreamInvalidError, UpstreamUnavailableError } from '../internal/errors.js';

export class NodeRpcError extends Error {
  override readonly name = 'NodeRpcError';
}

export async function jsonRpc<T>(
  url: string,
  method: string,
  params: unknown,
  timeoutMs: number,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new UpstreamUnavailableError(`${url} is unreachable: ${(err as Error).message}`);
  }
  let body: { result?: T; error?: { message: string } };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new UpstreamInvalidError(`${url} answered ${method} with a body that is not JSON`);
  }
  if (body.error) throw new NodeRpcError(body.error.message);
  if (body.result === undefined) throw new UpstreamInvalidError(`${url} answered ${method} without a result`);
  return body.result;
}
