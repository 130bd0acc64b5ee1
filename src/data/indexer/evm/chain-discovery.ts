/**
 * Which EVM chains to index, read from the node's public interfaces: the C-chain always
 * (info.getBlockchainID), plus every blockchain of the Subnet-EVM VM that platform.getBlockchains
 * lists and this node serves (its /rpc answers eth_chainId). Each is recorded in evm_chains so
 * the REST process lists them without asking the node.
 */
import { MULTICALL3_ADDRESS } from '../../../shared/multicall3.js';
import type { Kysely } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import { VM_IDS } from '../../../shared/networks.js';
import { createNodeClient } from '../../internal/node-client.js';
import type { DataSchema } from '../../store/schema.js';
import type { EvmChainTable } from '../../store/schema-evm.js';
import { EvmRpcClient } from './rpc-client.js';

const PRIMARY_SUBNET = '11111111111111111111111111111111LpoYY';

export type DiscoveredChain = EvmChainTable;

export async function discoverEvmChains(
  nodeUrl: string,
  network: NetworkIdentity,
): Promise<DiscoveredChain[]> {
  const base = nodeUrl.replace(/\/+$/, '');
  const ws = base.replace(/^http/, 'ws');
  const node = createNodeClient(base, 10_000);
  const testnet = network.name !== 'mainnet' ? 1 : 0;
  // Every indexed chain has its NFT metadata fetched and its ICM (Teleporter) messages indexed.
  const features = JSON.stringify(['nftIndexing', 'teleporter']);
  const now = Date.now();

  const cChainId =
    (await node
      .call<{ blockchainID: string }>('/ext/info', 'info.getBlockchainID', { alias: 'C' })
      .then((r) => r.blockchainID)
      .catch(() => undefined)) ?? network.cChainID;
  const cRpc = `${base}/ext/bc/C/rpc`;
  const cEvmId = Number(BigInt(await new EvmRpcClient(cRpc).call<string>('eth_chainId')));
  /** Multicall3's address where `rpc` has code there; null where not (or the node would not say). */
  const multicallAt = async (rpc: string): Promise<string | null> => {
    const code = await new EvmRpcClient(rpc, { timeoutMs: 5_000 })
      .call<string>('eth_getCode', [MULTICALL3_ADDRESS, 'latest'])
      .catch(() => '0x');
    return code !== '0x' ? MULTICALL3_ADDRESS : null;
  };
  const out: DiscoveredChain[] = [
    {
      blockchain_id: cChainId,
      evm_chain_id: cEvmId,
      name: 'Avalanche (C-Chain)',
      description: 'The Contract Chain of the primary network',
      subnet_id: PRIMARY_SUBNET,
      vm_id: VM_IDS.evm,
      rpc_url: cRpc,
      ws_url: `${ws}/ext/bc/C/ws`,
      token_name: 'Avalanche',
      token_symbol: 'AVAX',
      token_decimals: 18,
      network: network.name,
      is_testnet: testnet,
      features,
      discovered_at: now,
      multicall_address: await multicallAt(cRpc),
    },
  ];

  let listed: { id: string; name: string; subnetID: string; vmID: string }[] = [];
  try {
    listed =
      (await node.call<{ blockchains: typeof listed }>('/ext/bc/P', 'platform.getBlockchains')).blockchains ??
      [];
  } catch {
    // A node without platform.getBlockchains (or without Subnet-EVM chains): the C-chain only.
  }
  for (const chain of listed) {
    if (chain.vmID !== VM_IDS.subnetEvm) continue;
    const rpcUrl = `${base}/ext/bc/${chain.id}/rpc`;
    let evmChainId: number;
    try {
      evmChainId = Number(
        BigInt(await new EvmRpcClient(rpcUrl, { timeoutMs: 5_000 }).call<string>('eth_chainId')),
      );
    } catch {
      continue; // listed on the P-chain but not running on this node
    }
    out.push({
      blockchain_id: chain.id,
      evm_chain_id: evmChainId,
      name: chain.name,
      description: `Subnet-EVM chain ${chain.name}`,
      subnet_id: chain.subnetID,
      vm_id: chain.vmID,
      rpc_url: rpcUrl,
      ws_url: `${ws}/ext/bc/${chain.id}/ws`,
      // The genesis does not name the gas token; Subnet-EVM tooling calls it after the chain.
      token_name: `${chain.name} token`,
      token_symbol:
        chain.name
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 6)
          .toUpperCase() || 'TOKEN',
      token_decimals: 18,
      network: network.name,
      is_testnet: testnet,
      features,
      discovered_at: now,
      multicall_address: await multicallAt(rpcUrl),
    });
  }
  return out;
}

/** Records (or refreshes the URLs of) a chain in evm_chains. */
export async function recordEvmChain(db: Kysely<DataSchema>, chain: DiscoveredChain): Promise<void> {
  const { blockchain_id: _, discovered_at: __, ...update } = chain;
  await db
    .insertInto('evm_chains')
    .values(chain)
    .onConflict((oc) => oc.column('blockchain_id').doUpdateSet(update))
    .execute();
}
