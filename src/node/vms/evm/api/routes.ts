/**
 * Mounts an EVM chain's endpoints: JSON-RPC at `/rpc` and WebSocket at `/ws` under every alias,
 * with the `debug_` namespace only when the chain's config enables it, and coreth's C-chain extras
 * (the admin API, `eth_suggestPriceOptions`) on the C-chain.
 */
import type { ChainContext } from '../../../chains/chain.js';
import { EvmEndpoint } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { createAccessListApi } from './access-list.js';
import { createAdminApi } from './admin.js';
import { createDebugApi } from './debug.js';
import { createDebugStateApi } from './debug-state.js';
import { createBlockApi } from './eth/blocks.js';
import { createChainInfoApi } from './eth/chain-info.js';
import { createExecutionApi } from './eth/execution.js';
import { createFeeApi } from './eth/fees.js';
import { createLogApi } from './eth/logs.js';
import { createStateApi } from './eth/state.js';
import { createTxPoolApi } from './eth/txpool.js';
import { createFilterApi, createSubscriptionApi } from './filters.js';
import { createPriceOptionsApi } from './price-options.js';
import { createWalletApi, type EthApiOptions } from './wallet.js';
import { createWsUpgrade } from './ws.js';

export function mountEvmRoutes(ctx: ChainContext, chain: EvmChain, options: EthApiOptions): EvmEndpoint {
  const filters = createFilterApi(chain);
  const endpoint = new EvmEndpoint(`${chain.alias}/rpc`, chain.config.batchResponseMaxBytes)
    // The eth_, net_, web3_ and txpool_ namespaces, one table per kind of data they read.
    .registerAll(createChainInfoApi(chain))
    .registerAll(createStateApi(chain))
    .registerAll(createExecutionApi(chain))
    .registerAll(createBlockApi(chain))
    .registerAll(createLogApi(chain))
    .registerAll(createFeeApi(chain))
    .registerAll(createTxPoolApi(chain))
    .registerAll(createWalletApi(chain, options))
    .registerAll(createAccessListApi(chain))
    .registerAll(filters.handlers)
    .registerAll(createSubscriptionApi(chain));
  if (chain.config.debugApi)
    endpoint.registerAll(createDebugApi(chain)).registerAll(createDebugStateApi(chain));
  // coreth's wallet fee choices; Subnet-EVM does not serve them.
  if (chain.config.atomicTxs) endpoint.registerAll(createPriceOptionsApi(chain));
  ctx.router.mountChain(chain.aliases, 'rpc', { kind: 'evm', endpoint });
  const ws = createWsUpgrade(endpoint);
  ctx.router.mountChainUpgrade(chain.aliases, 'ws', ws.upgrade);
  if (chain.config.atomicTxs) {
    const admin = createAdminApi(ctx, chain);
    ctx.router.mountChain(chain.aliases, 'admin', { kind: 'avalanche', endpoint: admin.endpoint });
    chain.once('close', () => admin.close());
  }
  chain.once('close', () => {
    filters.close();
    ws.close();
  });
  return endpoint;
}
