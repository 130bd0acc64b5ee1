/**
 * The P-chain as the node runs it: the PlatformVM, its `platform.*` endpoint mounted at
 * /ext/bc/P (aliases P, platform and the id; legacy /ext/P), and the `onChainCreated` hook other
 * VMs use to start blockchains the P-chain creates (e.g. Subnet-EVM chains).
 */
import { VM_IDS } from '../../../shared/networks.js';
import type { Chain, ChainContext } from '../../chains/chain.js';
import { primaryGenesisChains } from '../../chains/genesis-chains.js';
import { createPlatformEndpoint } from './api/service.js';
import { platformConfig, type PlatformConfig } from './config.js';
import { PlatformVM, type ChainCreatedListener } from './vm.js';
import { platformWarpRule } from './warp/signing-rule.js';

export interface PlatformChain extends Chain {
  readonly vm: PlatformVM;
  /**
   * Calls `listener` for every blockchain a CreateChainTx creates, after its block commits
   * (`chain.vmId` tells the VM, e.g. Subnet-EVM). Blockchains created before the listener was
   * added are in `vm.state.chains()`.
   */
  onChainCreated(listener: ChainCreatedListener): void;
}

export async function createPlatformChain(
  ctx: ChainContext,
  config?: PlatformConfig,
): Promise<PlatformChain> {
  const settings =
    config ??
    platformConfig(ctx.config.network, (ctx.config as { minStakeDuration?: number }).minStakeDuration);
  const vm = new PlatformVM(ctx, settings, () => primaryGenesisChains(ctx));
  const network = ctx.config.network;
  const aliases = ['P', 'platform', network.pChainID];
  ctx.router.mountChain(aliases, '', { kind: 'avalanche', endpoint: createPlatformEndpoint(vm, ctx) });
  ctx.warp.register(network.pChainID, platformWarpRule(vm));
  vm.start();
  return {
    alias: 'P',
    aliases,
    blockchainID: network.pChainID,
    subnetID: network.pChainID,
    vmID: VM_IDS.platform,
    name: 'P-Chain',
    vm,
    onChainCreated: (listener) => vm.onChainCreated(listener),
    isBootstrapped: () => true,
    isAcceptedBlock: (blockID) => vm.state.blockById(blockID) !== undefined,
    height: () => vm.height(),
    async close() {
      vm.stop();
    },
  };
}
