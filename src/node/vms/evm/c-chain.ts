/**
 * The C-chain: the EVM chain of the primary network, with the network identity's EVM chain id,
 * the genesis C allocations, Avalanche's fee rules, atomic transactions with X and P, and the
 * reference routes (`/rpc`, `/ws`, `/avax`, `/admin`) under `C`, `evm` and its cb58 id.
 */
import { fromCb58 } from '../../../shared/encoding.js';
import { enableWarp } from './warp/enable.js';
import { DEFAULT_QUORUM_NUMERATOR, warpPrecompile } from './warp/precompile.js';
import type { Chain, ChainContext } from '../../chains/chain.js';
import { PRIMARY_NETWORK_ID, VM_IDS } from '../../../shared/networks.js';
import type { EvmChainConfig, GenesisAccount } from './chain-config.js';
import { createEvmChain } from './evm-chain.js';
import { mountEvmRoutes } from './api/routes.js';
import { DEFAULT_PROOF_WINDOW } from './api/eth/state.js';
import { DEFAULT_RPC_EVM_TIMEOUT_MS } from './api/call-deadline.js';
import { BATCH_RESPONSE_MAX_BYTES } from '../../rpc/evm-endpoint.js';
import { DEFAULT_TX_POOL_LIMITS } from './txpool/limits.js';
import { createAvaxApi } from './api/avax.js';
import { AtomicMempool } from './atomic/atomic-txs.js';
import { MULTICALL3_ADDRESS, MULTICALL3_RUNTIME } from './multicall3.js';

/** The reference local C-chain genesis gas limit (0x5f5e100). */
export const C_GENESIS_GAS_LIMIT = 100_000_000n;
/**
 * The devnet validators' preferred gas target: 10M gas/s gives a 100M-gas bucket, the same as the
 * genesis gas limit (the reference lets each validator set `gas-target`; see docs/evm.md).
 */
export const DEVNET_GAS_TARGET = 10_000_000n;

export function cChainConfig(ctx: ChainContext): EvmChainConfig {
  const network = ctx.config.network;
  const alloc = new Map<string, GenesisAccount>();
  for (const a of ctx.genesis.cAllocations) alloc.set(a.evmAddress.toLowerCase(), { balance: a.balanceWei });
  // Multicall3, where fuji and mainnet have it (multicall3.ts).
  const multicall = MULTICALL3_ADDRESS.toLowerCase();
  alloc.set(multicall, { balance: alloc.get(multicall)?.balance ?? 0n, code: MULTICALL3_RUNTIME });
  return {
    alias: 'C',
    aliases: ['C', 'evm', network.cChainID],
    blockchainID: network.cChainID,
    subnetID: PRIMARY_NETWORK_ID,
    vmID: VM_IDS.evm,
    name: 'C-Chain',
    chainId: network.evmChainID,
    blockIndex: 'C/block',
    tablePrefix: 'evm_c',
    genesis: { timestamp: ctx.genesis.startTime, gasLimit: C_GENESIS_GAS_LIMIT, alloc },
    gasTargetPerSecond: DEVNET_GAS_TARGET,
    // Warp (ICM) is active on the C-chain since Durango: send and receive through 0x0200…0005.
    precompiles: [
      warpPrecompile({
        networkID: network.networkID,
        blockchainID: fromCb58(network.cChainID),
        activation: 0,
        config: { quorumNumerator: DEFAULT_QUORUM_NUMERATOR, requirePrimaryNetworkSigners: false },
      }),
    ],
    atomicTxs: true,
    blockTimeMs: ctx.config.blockTimeMs,
    debugApi: ctx.config.debugApi,
    rpcEvmTimeoutMs: ctx.config.rpcEvmTimeoutMs ?? DEFAULT_RPC_EVM_TIMEOUT_MS,
    batchResponseMaxBytes: ctx.config.batchResponseMaxBytes ?? BATCH_RESPONSE_MAX_BYTES,
    txPool: ctx.config.txPool ?? DEFAULT_TX_POOL_LIMITS,
    pruning: ctx.config.pruningEnabled === true,
    historicalProofQueryWindow: BigInt(ctx.config.historicalProofQueryWindow ?? DEFAULT_PROOF_WINDOW),
  };
}

export async function createCChain(ctx: ChainContext): Promise<Chain> {
  const chain = await createEvmChain(ctx, cChainConfig(ctx));
  const network = ctx.config.network;
  const mempool = new AtomicMempool(
    {
      networkID: network.networkID,
      cChainID: network.cChainID,
      avaxAssetID: network.avaxAssetID,
      peers: [network.xChainID, network.pChainID],
      peerSubnet: (id) => {
        const other = ctx.chain(id);
        return other ? { subnet: other.subnetID } : undefined;
      },
      sharedMemory: ctx.sharedMemory,
      now: () => BigInt(ctx.clock.nowSeconds()),
    },
    {
      latestState: () => chain.stateAt(),
      baseFee: () => chain.nextBaseFee(),
      requestBlock: () => chain.requestBlock(),
    },
  );
  chain.extraBuilder = mempool;
  const endpoint = mountEvmRoutes(ctx, chain, { unlocked: ctx.genesis.prefunded });
  enableWarp(ctx, chain, endpoint);
  ctx.router.mountChain(chain.aliases, 'avax', {
    kind: 'avalanche',
    endpoint: createAvaxApi(ctx, chain, mempool),
  });
  return chain;
}
