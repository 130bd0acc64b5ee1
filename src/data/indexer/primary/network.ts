/**
 * Learns which network a node serves, through `info.*` and `avm.*` as any client would, and
 * matches it to a known identity (for names and address prefixes).
 */
import { NETWORKS, type NetworkName } from '../../../shared/networks.js';
import type { NodeClient } from '../../internal/node-client.js';

export interface IndexedNetwork {
  name: NetworkName;
  networkID: number;
  hrp: string;
  pChainID: string;
  xChainID: string;
  cChainID: string;
  avaxAssetID: string;
}

export async function identifyNetwork(node: NodeClient): Promise<IndexedNetwork> {
  const { networkID } = await node.call<{ networkID: string }>('/ext/info', 'info.getNetworkID');
  const id = Number(networkID);
  const known = Object.values(NETWORKS).find((n) => n.networkID === id);
  const chain = async (alias: string) =>
    (await node.call<{ blockchainID: string }>('/ext/info', 'info.getBlockchainID', { alias })).blockchainID;
  const [pChainID, xChainID, cChainID] = await Promise.all([chain('P'), chain('X'), chain('C')]);
  const avax = await node.call<{ assetID: string }>('/ext/bc/X', 'avm.getAssetDescription', {
    assetID: 'AVAX',
  });
  return {
    name: known?.name ?? 'local',
    networkID: id,
    // Networks without a registered prefix use "custom", as the reference node does.
    hrp: known?.hrp ?? 'custom',
    pChainID,
    xChainID,
    cChainID,
    avaxAssetID: avax.assetID,
  };
}
