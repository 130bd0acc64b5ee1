/**
 * The X-chain factory: builds the VM over the node's database, mounts the `avm`/`xvm` service
 * under every alias of the chain (`/ext/bc/X`, `/ext/bc/avm`, `/ext/bc/<id>`, legacy `/ext/X`)
 * and appends to the `X/tx` and `X/block` indexes as blocks are accepted.
 */
import { toCb58 } from '../../../shared/encoding.js';
import { PRIMARY_NETWORK_ID, VM_IDS } from '../../../shared/networks.js';
import type { Chain, ChainContext } from '../../chains/chain.js';
import { pChainHeightAt, proposerWrapAt } from '../../api/proposervm.js';
import { createXService } from './api/service.js';
import { XVM } from './vm.js';

export async function createXChain(ctx: ChainContext): Promise<Chain> {
  const network = ctx.config.network;
  const chainId = network.xChainID;
  const aliases = ['X', 'avm', chainId];
  const vm = new XVM({
    db: ctx.db,
    chainId,
    networkId: network.networkID,
    avaxAssetId: network.avaxAssetID,
    txFee: network.xTxFee,
    createAssetTxFee: network.xCreateAssetTxFee,
    atomicPeers: [network.pChainID, network.cChainID],
    peerSubnet: (id) => {
      const chain = ctx.chain(id);
      return chain ? { subnet: chain.subnetID } : undefined;
    },
    sharedMemory: ctx.sharedMemory,
    clock: ctx.clock,
    logger: ctx.logger,
    blockTimeMs: ctx.config.blockTimeMs,
    txIndex: ctx.config.indexEnabled ? ctx.index('X/tx') : undefined,
    blockIndex: ctx.config.indexEnabled ? ctx.index('X/block') : undefined,
    proposerWrap: (time, past) => proposerWrapAt(ctx, time, past ? pChainHeightAt(ctx, time) : undefined),
    genesisTime: ctx.genesis.startTime,
    allocations: ctx.genesis.xAllocations,
  });
  vm.catchUpIndexes();

  const knownChains: Record<string, string> = {
    X: chainId,
    avm: chainId,
    P: network.pChainID,
    platform: network.pChainID,
    C: network.cChainID,
    evm: network.cChainID,
  };
  // The reference's chain lookup: the aliases and ids of the chains the node runs, nothing else.
  const lookupChain = (alias: string): string | undefined =>
    knownChains[alias] ?? ctx.chain(alias)?.blockchainID;
  const endpoint = createXService({
    vm,
    book: { hrp: network.hrp, chainId, aliases, lookupChain },
    avaxAssetId: network.avaxAssetID,
    txFee: network.xTxFee,
    createAssetTxFee: network.xCreateAssetTxFee,
    sharedMemory: ctx.sharedMemory,
    clock: ctx.clock,
    resolveChain: lookupChain,
  });
  ctx.router.mountChain(aliases, '', { kind: 'avalanche', endpoint });

  return {
    alias: 'X',
    aliases,
    blockchainID: chainId,
    subnetID: PRIMARY_NETWORK_ID,
    vmID: VM_IDS.avm,
    name: 'X-Chain',
    isBootstrapped: () => true,
    isAcceptedBlock: (blockID) => vm.state.blockById(toCb58(blockID)) !== undefined,
    height: () => vm.lastAccepted().height,
    close: async () => vm.close(),
  };
}
