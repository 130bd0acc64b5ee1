/**
 * Reads a route makes from an indexed chain's own node (what the store does not keep), with one
 * client per node URL. A JSON-RPC error is the caller's input (400); no answer is a 503.
 */
import { InvalidParameterError, UpstreamUnavailableError } from '../../../internal/errors.js';
import type { ChainRow } from '../../../evm/read-model.js';
import { EvmRpcClient, RpcCallError } from '../../../indexer/evm/rpc-client.js';

const clients = new Map<string, EvmRpcClient>();

export async function callChainNode<T>(
  chain: ChainRow,
  method: string,
  params: unknown[],
  what: string,
): Promise<T> {
  let rpc = clients.get(chain.rpc_url);
  if (!rpc) clients.set(chain.rpc_url, (rpc = new EvmRpcClient(chain.rpc_url, { timeoutMs: 10_000 })));
  try {
    return await rpc.call<T>(method, params);
  } catch (err) {
    if (err instanceof RpcCallError) throw new InvalidParameterError(`cannot read ${what}: ${err.message}`);
    throw err instanceof UpstreamUnavailableError ? err : new UpstreamUnavailableError(String(err));
  }
}
