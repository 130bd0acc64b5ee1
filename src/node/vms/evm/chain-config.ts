/**
 * What distinguishes one EVM chain from another: the C-chain and every Subnet-EVM chain run the
 * same implementation (`createEvmChain`) with a different `EvmChainConfig` — chain id, genesis
 * allocation, fee rules, stateful precompiles and their activation times, and whether the
 * chain carries atomic transactions (the C-chain only).
 */
import type { PrecompileModule } from './precompiles/registry.js';
import type { TxPoolLimits } from './txpool/limits.js';

export interface GenesisAccount {
  readonly balance: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  readonly storage?: ReadonlyMap<bigint, bigint>;
}

export interface EvmChainConfig {
  /** Short alias the chain is routed under (`C`, or the blockchain id for L1s). */
  readonly alias: string;
  readonly aliases: readonly string[];
  readonly blockchainID: string;
  readonly subnetID: string;
  readonly vmID: string;
  readonly name: string;
  /** EIP-155 chain id (43112 local, 43113 fuji, 43114 mainnet for the C-chain). */
  readonly chainId: number;
  /** The container index accepted blocks are appended to (`C/block`), if any. */
  readonly blockIndex?: string;
  /** Prefix of this chain's SQLite tables. */
  readonly tablePrefix: string;
  readonly genesis: {
    readonly timestamp: number;
    readonly gasLimit: bigint;
    readonly alloc: ReadonlyMap<string, GenesisAccount>;
    /** The genesis header's base fee; without it, the ACP-176 price of the empty fee state. */
    readonly baseFeePerGas?: bigint;
  };
  /** The validators' preferred gas target (gas per second): sets q of ACP-176. */
  readonly gasTargetPerSecond: bigint;
  /** Stateful precompiles with their activation (and optional deactivation) times. */
  readonly precompiles: readonly PrecompileModule[];
  /** Import/export with the primary-network chains through shared memory (C-chain only). */
  readonly atomicTxs: boolean;
  /** 0: a block as soon as transactions arrive; otherwise one block per interval. */
  readonly blockTimeMs: number;
  readonly debugApi: boolean;
  /** geth's RPCEVMTimeout: how long one `eth_call` may run, in ms (0: no limit). */
  readonly rpcEvmTimeoutMs: number;
  /** coreth's `batch-response-max-size`: the result bytes one batch may return (0: no cap). */
  readonly batchResponseMaxBytes: number;
  /** eth_getProof windows (see docs/evm.md). */
  readonly pruning: boolean;
  readonly historicalProofQueryWindow: bigint;
  /** The transaction pool's limits (coreth's `tx-pool-*` settings). */
  readonly txPool: TxPoolLimits;
}

/** What `eth_getChainConfig` reports: the geth-style fork schedule plus Avalanche's upgrades. */
export function chainConfigJson(config: EvmChainConfig): Record<string, unknown> {
  const forks: Record<string, unknown> = {
    chainId: config.chainId,
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    shanghaiTime: 0,
    cancunTime: 0,
  };
  if (config.atomicTxs) {
    for (const name of [
      'apricotPhase1BlockTimestamp',
      'apricotPhase2BlockTimestamp',
      'apricotPhase3BlockTimestamp',
      'apricotPhase4BlockTimestamp',
      'apricotPhase5BlockTimestamp',
      'apricotPhasePre6BlockTimestamp',
      'apricotPhase6BlockTimestamp',
      'apricotPhasePost6BlockTimestamp',
      'banffBlockTimestamp',
      'cortinaBlockTimestamp',
      'durangoBlockTimestamp',
      'etnaTimestamp',
      'fortunaTimestamp',
    ])
      forks[name] = 0;
  } else {
    forks.subnetEVMTimestamp = 0;
    forks.durangoTimestamp = 0;
    forks.etnaTimestamp = 0;
    forks.fortunaTimestamp = 0;
  }
  for (const p of config.precompiles) {
    forks[p.configKey] = { blockTimestamp: p.activation, ...(p.configJson ?? {}) };
  }
  return forks;
}
