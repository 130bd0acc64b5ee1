/**
 * What the node and chain are (`web3_`, `net_`, the chain id, the head's number, the chain
 * config): answers that read no block, state or pool.
 */
import { bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { COMPATIBLE_NODE_VERSION } from '../../../../../shared/networks.js';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import { BLACKHOLE_ADDRESS } from '../../block/evm-block.js';
import { chainConfigJson } from '../../chain-config.js';
import type { EvmChain } from '../../evm-chain.js';
import { arity, data } from '../args.js';
import { h, q } from '../format.js';

export function createChainInfoApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    web3_clientVersion: (params) => (arity(params, 0), `Flurry/${COMPATIBLE_NODE_VERSION}`),
    web3_sha3: (params) => (arity(params, 1, 1), bytesToHex(keccak_256(data(params, 0)))),
    net_version: (params) => (arity(params, 0), String(chain.config.chainId)),
    net_listening: (params) => (arity(params, 0), true),
    net_peerCount: (params) => (arity(params, 0), '0x0'),
    eth_chainId: (params) => (arity(params, 0), q(chain.config.chainId)),
    eth_protocolVersion: (params) => (arity(params, 0), '0x41'),
    eth_syncing: (params) => (arity(params, 0), false),
    eth_mining: (params) => (arity(params, 0), false),
    eth_hashrate: (params) => (arity(params, 0), '0x0'),
    // coreth's etherbase: the address blocks pay their fees to (the blackhole on the C-chain),
    // also before the first block, whose genesis names no coinbase.
    eth_coinbase: (params) => (arity(params, 0), h(BLACKHOLE_ADDRESS)),
    eth_etherbase: (params) => (arity(params, 0), h(BLACKHOLE_ADDRESS)),
    eth_blockNumber: (params) => (arity(params, 0), q(chain.latest.number)),
    eth_getChainConfig: (params) => (arity(params, 0), chainConfigJson(chain.config)),
  };
}
