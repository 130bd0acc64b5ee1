/**
 * Mounts an EVM chain's endpoints: JSON-RPC at `/rpc` and WebSocket at `/ws` under every alias.
 */
import type { ChainContext } from '../../../chains/chain.js';
import { EvmEndpoint } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { createEthApi, type EthApiOptions } from './eth.js';

export function mountEvmRoutes(ctx: ChainContext, chain: EvmChain, options: EthApiOptions): EvmEndpoint {
  const endpoint = new EvmEndpoint(`${chain.alias}/rpc`).registerAll(createEthApi(chain, options));
  ctx.router.mountChain(chain.aliases, 'rpc', { kind: 'evm', endpoint });
  return endpoint;
}
