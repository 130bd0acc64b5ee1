/**
 * `devnet.getGenesis`: what the devnet's genesis put on the X- and P-chains, for indexers. No
 * standard method lists genesis UTXOs (the reference's P-chain genesis UTXOs are reachable only
 * through platform.getUTXOs while unspent), so a data service that wants every balance from
 * height 0 asks this Flurry-only method. UTXOs are hex with checksum, as getUTXOs serves them;
 * validator txs are the signed genesis AddPermissionlessValidatorTxs (platform.getTx serves
 * them too).
 */
import { fromCb58, toCheckedHex } from '../../shared/encoding.js';
import type { Genesis } from '../genesis/genesis.js';
import type { AvalancheHandler } from '../rpc/avalanche-endpoint.js';
import type { NodeDatabase } from '../storage/database.js';
import { packStruct } from '../vms/platformvm/codec.js';
import {
  genesisUtxos as pGenesisUtxos,
  genesisUtxoTxId,
  genesisValidatorTxs,
} from '../vms/platformvm/state/genesis.js';
import { packUtxo as packXUtxo } from '../vms/xvm/codec.js';
import { genesisUtxos as xGenesisUtxos } from '../vms/xvm/genesis.js';

export function createGenesisApi(genesis: Genesis, db: NodeDatabase): Record<string, AvalancheHandler> {
  const network = genesis.network;
  const ids = {
    p: fromCb58(network.pChainID),
    x: fromCb58(network.xChainID),
    c: fromCb58(network.cChainID),
    avax: fromCb58(network.avaxAssetID),
  };
  let answer: Record<string, unknown> | undefined;
  return {
    getGenesis: () => {
      answer ??= {
        networkID: network.networkID,
        startTime: genesis.startTime,
        xChain: {
          blockchainID: network.xChainID,
          genesisTxID: network.avaxAssetID,
          utxos: xGenesisUtxos(ids.avax, genesis.xAllocations).map((u) => toCheckedHex(packXUtxo(u))),
        },
        pChain: {
          blockchainID: network.pChainID,
          utxos: pGenesisUtxos(genesis, ids.avax, genesisUtxoTxId(db, genesis)).map((u) =>
            toCheckedHex(packStruct(u)),
          ),
          validatorTxs: genesisValidatorTxs(genesis, ids).map(toCheckedHex),
        },
        encoding: 'hex',
      };
      return answer;
    },
  };
}
