/**
 * The chains the P-chain genesis creates, as the reference's `genesis.FromConfig` lists them: the
 * X-chain (AVM, with the secp256k1, nft and property fxs, its avm genesis) and the C-chain (EVM,
 * no fxs, its genesis JSON). Each genesis is what this node's VM actually starts from — the
 * X-chain's genesis asset and allocations, the C-chain's chain id, forks, allocations and gas
 * limit — so `platform.getTx` of a chain id describes the chain the node runs.
 */
import { fromCb58 } from '../../shared/encoding.js';
import { VM_IDS } from '../../shared/networks.js';
import { cChainConfig } from '../vms/evm/c-chain.js';
import { evmGenesisJson } from '../vms/evm/genesis-json.js';
import type { GenesisChain } from '../vms/platformvm/state/genesis.js';
import { FX, FX_IDS } from '../vms/xvm/constants.js';
import { avmGenesisBytes } from '../vms/xvm/genesis.js';
import type { ChainContext } from './chain.js';

export function primaryGenesisChains(ctx: ChainContext): GenesisChain[] {
  const network = ctx.config.network;
  return [
    {
      id: fromCb58(network.xChainID),
      name: 'X-Chain',
      vmId: VM_IDS.avm,
      fxIds: [FX_IDS[FX.secp256k1], FX_IDS[FX.nft], FX_IDS[FX.property]],
      genesisData: avmGenesisBytes(network.networkID, ctx.genesis.xAllocations),
    },
    {
      id: fromCb58(network.cChainID),
      name: 'C-Chain',
      vmId: VM_IDS.evm,
      fxIds: [],
      genesisData: new TextEncoder().encode(evmGenesisJson(cChainConfig(ctx))),
    },
  ];
}
