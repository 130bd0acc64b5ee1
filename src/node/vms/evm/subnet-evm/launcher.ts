/**
 * Starts a Subnet-EVM chain for every blockchain the P-chain creates with the Subnet-EVM VM id —
 * those created before this node start, then each new one as its CreateChainTx is accepted:
 * genesis from the tx, routes `/ext/bc/<id>/rpc`, `/ws` and `/validators`, Warp when configured.
 * A chain whose genesis is refused is logged and not served (the reference node fails it too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { mountProposerVm } from '../../../api/proposervm.js';
import type { Chain, ChainContext } from '../../../chains/chain.js';
import { fromCb58, toCb58 } from '../../../../shared/encoding.js';
import { VM_IDS } from '../../../../shared/networks.js';
import { acceptedBlockRule } from '../../../warp/accepted-block-rule.js';
import type { PlatformChain } from '../../platformvm/chain.js';
import type { ChainRecord } from '../../platformvm/state/platform-state.js';
import { mountEvmRoutes } from '../api/routes.js';
import { DEFAULT_PROOF_WINDOW } from '../api/eth/state.js';
import { DEFAULT_RPC_EVM_TIMEOUT_MS } from '../api/call-deadline.js';
import { BATCH_RESPONSE_MAX_BYTES } from '../../../rpc/evm-endpoint.js';
import { DEFAULT_TX_POOL_LIMITS } from '../txpool/limits.js';
import type { EvmChainConfig } from '../chain-config.js';
import { enableWarp } from '../warp/enable.js';
import { createSubnetEvmApi } from './api.js';
import {
  applyPrecompileUpgrades,
  parseSubnetEvmGenesis,
  SubnetEvmGenesisError,
  type SubnetEvmGenesis,
} from './genesis.js';
import { SubnetEvmChain } from './subnet-evm-chain.js';
import { UptimeTracker, type Connectivity } from './uptime.js';
import { createValidatorsEndpoint, subnetValidators } from './validators-api.js';

/** A Subnet-EVM chain's validators' preferred gas target (unused by its fee rules, kept for the engine). */
const GAS_TARGET = 10_000_000n;

/** Where a chain's upgrade file lives, as the reference's chain-config dir lays it out. */
export function upgradeFilePath(ctx: ChainContext, blockchainID: string): string {
  return path.join(ctx.config.dataDir, 'configs', 'chains', blockchainID, 'upgrade.json');
}

/** Appends the upgrade file's `precompileUpgrades` (read at every start) to the genesis ones. */
function withUpgradeFile(
  genesis: SubnetEvmGenesis,
  file: string,
  moduleContext: { networkID: number; blockchainID: Uint8Array },
): SubnetEvmGenesis {
  if (!fs.existsSync(file)) return genesis;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new SubnetEvmGenesisError(`${file} is not valid JSON`);
  }
  const extra = (json as { precompileUpgrades?: unknown } | null)?.precompileUpgrades;
  if (!Array.isArray(extra)) throw new SubnetEvmGenesisError(`${file}: precompileUpgrades must be an array`);
  return {
    ...genesis,
    precompiles: applyPrecompileUpgrades(genesis.precompiles, extra, moduleContext),
    upgrades: { precompileUpgrades: [...genesis.upgrades.precompileUpgrades, ...extra] },
  };
}

export async function startSubnetEvmChain(
  ctx: ChainContext,
  record: ChainRecord,
  connectivity: Connectivity,
): Promise<SubnetEvmChain> {
  const blockchainID = toCb58(record.id);
  const subnetID = toCb58(record.subnet);
  const moduleContext = { networkID: ctx.config.network.networkID, blockchainID: record.id };
  const genesis = withUpgradeFile(
    parseSubnetEvmGenesis(record.genesis, moduleContext),
    upgradeFilePath(ctx, blockchainID),
    moduleContext,
  );
  const config: EvmChainConfig = {
    alias: blockchainID,
    aliases: [blockchainID],
    blockchainID,
    subnetID,
    vmID: VM_IDS.subnetEvm,
    name: record.name,
    chainId: genesis.chainId,
    tablePrefix: `sevm_${Buffer.from(record.id).toString('hex').slice(0, 16)}`,
    genesis: {
      timestamp: genesis.timestamp,
      gasLimit: genesis.gasLimit,
      alloc: genesis.alloc,
      baseFeePerGas: genesis.baseFeePerGas,
    },
    gasTargetPerSecond: GAS_TARGET,
    precompiles: genesis.precompiles,
    atomicTxs: false,
    blockTimeMs: ctx.config.blockTimeMs,
    debugApi: ctx.config.debugApi,
    rpcEvmTimeoutMs: ctx.config.rpcEvmTimeoutMs ?? DEFAULT_RPC_EVM_TIMEOUT_MS,
    batchResponseMaxBytes: ctx.config.batchResponseMaxBytes ?? BATCH_RESPONSE_MAX_BYTES,
    txPool: ctx.config.txPool ?? DEFAULT_TX_POOL_LIMITS,
    pruning: false,
    historicalProofQueryWindow: DEFAULT_PROOF_WINDOW,
  };
  const chain = new SubnetEvmChain(ctx, config, genesis);
  await chain.open();
  const endpoint = mountEvmRoutes(ctx, chain, { unlocked: [] });
  endpoint.registerAll(createSubnetEvmApi(chain));
  const warp = genesis.precompiles.some((m) => m.configKey === 'warpConfig')
    ? enableWarp(ctx, chain, endpoint, genesis.warp)
    : undefined;
  // Without the Warp precompile the chain still attests its accepted blocks.
  if (!warp)
    ctx.warp.register(
      blockchainID,
      acceptedBlockRule((hash) => chain.store.numberOfHash(hash) !== undefined),
    );
  await chain.configureLegacyGenesis();
  const uptime = new UptimeTracker(ctx, blockchainID, () =>
    subnetValidators(ctx, subnetID).map((v) => v.nodeID),
  );
  uptime.start(connectivity);
  // Its validators sign ValidatorUptime messages from this node's view of their uptime.
  warp?.signUptimesFrom((validationID) => {
    const id = toCb58(validationID);
    const v = subnetValidators(ctx, subnetID).find((x) => x.validationID === id);
    return v ? uptime.uptimeOf(v.nodeID).seconds : undefined;
  });
  chain.once('close', () => uptime.stop());
  ctx.router.mountChain(chain.aliases, 'validators', {
    kind: 'avalanche',
    endpoint: createValidatorsEndpoint(ctx, subnetID, uptime),
  });
  mountProposerVm(ctx, chain.aliases);
  ctx.logger.info(
    { chain: blockchainID, subnet: subnetID, chain_id: genesis.chainId },
    'Subnet-EVM chain started',
  );
  return chain;
}

/** Starts the existing Subnet-EVM chains and follows the P-chain for new ones; they join `chains`. */
export async function startSubnetEvmChains(
  ctx: ChainContext,
  chains: Chain[],
  connectivity: Connectivity,
): Promise<void> {
  const platform = ctx.chain('P') as PlatformChain | undefined;
  if (!platform) return;
  const started = new Set<string>();
  const subnetEvm = Buffer.from(fromCb58(VM_IDS.subnetEvm));
  const start = async (record: ChainRecord) => {
    const id = toCb58(record.id);
    if (started.has(id) || !subnetEvm.equals(Buffer.from(record.vmId))) return;
    started.add(id);
    try {
      chains.push(await startSubnetEvmChain(ctx, record, connectivity));
    } catch (err) {
      ctx.logger.error({ err, chain: id }, 'Subnet-EVM chain failed to start');
    }
  };
  for (const record of platform.vm.state.chains()) await start(record);
  platform.onChainCreated((record) => void start(record));
}
