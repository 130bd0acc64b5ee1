/**
 * Turns on Warp for an EVM chain (the C-chain and every Subnet-EVM chain with `warpConfig`):
 * predicates verified before each transaction runs, the chain's signing rule registered with
 * the node's WarpSigner, and the `warp_*` methods on its JSON-RPC endpoint.
 */
import type { VM } from '@ethereumjs/vm';
import type { ChainContext } from '../../../chains/chain.js';
import { fromCb58 } from '../../../../shared/encoding.js';
import type { EvmEndpoint } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { createWarpApi } from './api.js';
import { WarpBackend } from './backend.js';
import { attachWarpPredicates, DEFAULT_QUORUM_NUMERATOR, type WarpConfig } from './precompile.js';
import { WarpMessageVerifier } from './verifier.js';

export function enableWarp(
  ctx: ChainContext,
  chain: EvmChain,
  endpoint: EvmEndpoint,
  config: WarpConfig = { quorumNumerator: DEFAULT_QUORUM_NUMERATOR, requirePrimaryNetworkSigners: false },
): WarpBackend {
  const verifier = new WarpMessageVerifier(ctx, {
    networkID: ctx.config.network.networkID,
    subnetID: fromCb58(chain.subnetID),
    quorumNumerator: config.quorumNumerator,
    requirePrimaryNetworkSigners: config.requirePrimaryNetworkSigners,
  });
  chain.on('vm', (vm: VM) => attachWarpPredicates(vm, (m) => verifier.verify(m)));
  const backend = new WarpBackend(ctx, chain);
  backend.register();
  endpoint.registerAll(createWarpApi(ctx, chain, backend));
  return backend;
}
