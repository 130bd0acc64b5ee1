/**
 * Reads a route makes from an indexed chain's own node (what the store does not keep), with one
 * client per node URL. A JSON-RPC error is the caller's input (400); no answer is a 503.
 */
import { InvalidParameterError, UpstreamUnavailableError } from '../../../internal/errors.js';
import type { ChainRow } from '../../../evm/read-model.js';
import { EvmRpcClient, RpcCallError } from '../../../indexer/evm/rpc-client.js';

const clients = new Map<string, EvmRpcClient>();

function clientFor(chain: ChainRow): EvmRpcClient {
  let rpc = clients.get(chain.rpc_url);
  if (!rpc) clients.set(chain.rpc_url, (rpc = new EvmRpcClient(chain.rpc_url, { timeoutMs: 10_000 })));
  return rpc;
}

/** `balanceOf(holder)` */
const BALANCE_OF = '0x70a08231';

/**
 * `balanceOf(holder)` of each token at `blockTag`, in batches; a token whose call fails or
 * answers no uint256 is left out. No answer from the node is a 503.
 */
export async function erc20BalancesAt(
  chain: ChainRow,
  holder: string,
  tokens: string[],
  blockTag: string,
): Promise<Map<string, bigint>> {
  const data = BALANCE_OF + holder.slice(2).toLowerCase().padStart(64, '0');
  let outcomes;
  try {
    outcomes = await clientFor(chain).batch<string>(
      tokens.map((to) => ({ method: 'eth_call', params: [{ to, data }, blockTag] })),
    );
  } catch (err) {
    throw err instanceof UpstreamUnavailableError ? err : new UpstreamUnavailableError(String(err));
  }
  const out = new Map<string, bigint>();
  tokens.forEach((token, i) => {
    const o = outcomes[i];
    if (o.ok && typeof o.value === 'string' && /^0x[0-9a-fA-F]{64}/.test(o.value))
      out.set(token, BigInt(o.value.slice(0, 66)));
  });
  return out;
}

export async function callChainNode<T>(
  chain: ChainRow,
  method: string,
  params: unknown[],
  what: string,
): Promise<T> {
  try {
    return await clientFor(chain).call<T>(method, params);
  } catch (err) {
    if (err instanceof RpcCallError) throw new InvalidParameterError(`cannot read ${what}: ${err.message}`);
    throw err instanceof UpstreamUnavailableError ? err : new UpstreamUnavailableError(String(err));
  }
}
