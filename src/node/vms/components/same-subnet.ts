/**
 * The check every primary-network chain makes of an atomic tx's peer chain (the ExportTx's
 * destination, the ImportTx's source), in the words of the reference's `verify.SameSubnet`
 * (avalanchego `vms/components/verify/subnet.go`): the peer must be another chain of the same
 * subnet. The subnet of a chain comes from the P-chain's `GetSubnetID` (`problem retrieving
 * blockchain "<id>": not found` for an id no CreateChainTx made, `"<id>" is not a blockchain` for
 * another tx's id), so wallets see the same errors for a wrong chain id as against a real node.
 */
import { PRIMARY_NETWORK_ID } from '../../../shared/networks.js';

/** What a chain knows of the peer chain: its subnet, or why the P-chain could not say. */
export type PeerSubnet = { subnet: string } | { notABlockchain: true } | undefined;

/**
 * Why `peer` is not an atomic peer of `own` (both cb58 chain ids), or undefined when it is.
 * `primaryChains` are the primary network's chains (P, X, C), whose subnet is the primary network;
 * `lookup` finds any other chain (a Subnet-EVM chain on its subnet).
 */
export function sameSubnetFailure(
  own: string,
  peer: string,
  primaryChains: readonly string[],
  lookup: (chainId: string) => PeerSubnet,
): string | undefined {
  if (peer === own) return 'same chainID';
  if (primaryChains.includes(peer)) return undefined;
  const found = lookup(peer);
  if (found === undefined)
    return `failed to get subnet of "${peer}": problem retrieving blockchain "${peer}": not found`;
  if ('notABlockchain' in found) return `failed to get subnet of "${peer}": "${peer}" is not a blockchain`;
  if (found.subnet === PRIMARY_NETWORK_ID) return undefined;
  return `mismatched subnetIDs; expected "${PRIMARY_NETWORK_ID}" got "${found.subnet}"`;
}
