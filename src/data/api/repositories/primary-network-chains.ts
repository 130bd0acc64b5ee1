/**
 * The Primary Network as a subnet record, and its X- and C-chains as blockchain records. No
 * CreateSubnetTx or CreateChainTx the indexer could read created them: the P-chain's genesis did,
 * and the node's `platform.getBlockchains` lists the two chains under the Primary Network. Their
 * ids are the network identity's; the creation time is the P-chain's genesis block's.
 */
import type { Kysely } from 'kysely';
import { PRIMARY_NETWORK_ID, VM_IDS, type NetworkIdentity } from '../../../shared/networks.js';
import { NotFoundError } from '../../internal/errors.js';
import type { DataSchema } from '../../store/schema.js';

export function createPrimaryNetworkChains(db: Kysely<DataSchema>, network: NetworkIdentity) {
  /** The P-chain genesis block's time, or undefined before the indexer has written it. */
  async function genesisTime(): Promise<number | undefined> {
    const row = await db
      .selectFrom('blocks')
      .select('timestamp')
      .where('chain_id', '=', network.pChainID)
      .where('height', '=', 0)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.timestamp);
  }

  async function createdAt(what: string): Promise<number> {
    const t = await genesisTime();
    if (t === undefined) throw new NotFoundError(`${what}: the P-chain genesis is not indexed yet`);
    return t;
  }

  function chainRecord(blockchainId: string, t: number) {
    const common = {
      createBlockTimestamp: t,
      createBlockNumber: '0',
      blockchainId,
      subnetId: PRIMARY_NETWORK_ID,
    };
    return blockchainId === network.xChainID
      ? { ...common, vmId: VM_IDS.avm, blockchainName: 'X-Chain' }
      : { ...common, vmId: VM_IDS.evm, blockchainName: 'C-Chain', evmChainId: network.evmChainID };
  }

  return {
    isPrimaryNetwork: (subnetId: string) => subnetId === PRIMARY_NETWORK_ID,
    isGenesisChain: (blockchainId: string) =>
      blockchainId === network.xChainID || blockchainId === network.cChainID,

    /** The Primary Network in the subnet record's shape: no owners, never converted to an L1. */
    async subnet() {
      const t = await createdAt(`subnet ${PRIMARY_NETWORK_ID}`);
      return {
        createBlockTimestamp: t,
        createBlockIndex: '0',
        subnetId: PRIMARY_NETWORK_ID,
        ownerAddresses: [],
        threshold: 0,
        locktime: 0,
        subnetOwnershipInfo: { locktime: 0, threshold: 0, addresses: [] },
        isL1: false,
        blockchains: [network.xChainID, network.cChainID].map((id) => chainRecord(id, t)),
      };
    },

    /** The X- or C-chain in the blockchain record's shape. */
    async blockchain(blockchainId: string) {
      return chainRecord(blockchainId, await createdAt(`blockchain ${blockchainId}`));
    },
  };
}
