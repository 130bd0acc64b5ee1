/** The info API (`/ext/info`): who this node is, what it runs, and its peers. */
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import { fail } from '../rpc/errors.js';
import { parseNodeId, plainHex } from '../../shared/encoding.js';
import { joinHostPort } from '../../shared/host-port.js';
import { ParamsShapeError } from '../rpc/params.js';
import {
  COMPATIBLE_NODE_VERSION,
  RPC_PROTOCOL_VERSION,
  VM_IDS,
  networkNameOf,
} from '../../shared/networks.js';
import type { Chain } from '../chains/chain.js';
import type { NodeConfig } from '../config.js';
import type { Genesis, GenesisValidator } from '../genesis/genesis.js';
import { FLURRY_VERSION } from '../version.js';
import { EPOCH_SECONDS } from '../index/proposer-block.js';
import { FX, FX_IDS } from '../vms/xvm/constants.js';

export interface InfoDeps {
  config: NodeConfig;
  genesis: Genesis;
  self: GenesisValidator;
  /** Port the node's HTTP server listens on (getNodeIP's answer with the host). */
  port(): number;
  chains(): readonly Chain[];
  chain(aliasOrId: string): Chain | undefined;
  /** Ids of the primary-network chains, available even before their VMs run. */
  primaryChainIds: Record<'X' | 'P' | 'C', string>;
  /** `host:port` where a genesis validator answers signature requests. */
  peerAddress(nodeID: string): string | undefined;
  startedAtMs: number;
}

/** Upgrade activation times: every upgrade through Fortuna is active on the devnet. */
const ACTIVE_SINCE = '2020-12-05T05:00:00Z';
const UNSCHEDULED = '9999-12-01T00:00:00Z';

const MILLI_AVAX = 1_000_000n;

/**
 * The pre-Etna fees `info.getTxFee` still reports beside the X-chain's, by network as the
 * reference's mainnet, fuji and default (every other network) tables give them.
 */
function legacyTxFees(networkID: number) {
  const [createSubnet, transformSubnet, createBlockchain] =
    networkID === 1
      ? [1000n * MILLI_AVAX, 10_000n * MILLI_AVAX, 1000n * MILLI_AVAX]
      : networkID === 5
        ? [100n * MILLI_AVAX, 1000n * MILLI_AVAX, 100n * MILLI_AVAX]
        : [100n * MILLI_AVAX, 100n * MILLI_AVAX, 100n * MILLI_AVAX];
  return {
    createSubnetTxFee: createSubnet.toString(),
    transformSubnetTxFee: transformSubnet.toString(),
    createBlockchainTxFee: createBlockchain.toString(),
    addPrimaryNetworkValidatorFee: '0',
    addPrimaryNetworkDelegatorFee: '0',
    addSubnetValidatorFee: MILLI_AVAX.toString(),
    addSubnetDelegatorFee: MILLI_AVAX.toString(),
  };
}

export function createInfoEndpoint(deps: InfoDeps): AvalancheEndpoint {
  const { config, genesis } = deps;
  const endpoint = new AvalancheEndpoint('info');
  const fees = {
    txFee: config.network.xTxFee.toString(),
    createAssetTxFee: config.network.xCreateAssetTxFee.toString(),
    ...legacyTxFees(config.network.networkID),
  };
  const resolveChain = (alias: string): string | undefined => {
    const byAlias: Record<string, string> = {
      X: deps.primaryChainIds.X,
      avm: deps.primaryChainIds.X,
      P: deps.primaryChainIds.P,
      platform: deps.primaryChainIds.P,
      C: deps.primaryChainIds.C,
      evm: deps.primaryChainIds.C,
    };
    return byAlias[alias] ?? deps.chain(alias)?.blockchainID;
  };
  endpoint.registerAll('info', {
    getNetworkID: () => ({ networkID: String(config.network.networkID) }),
    getNetworkName: () => ({ networkName: networkNameOf(config.network.networkID) }),
    getBlockchainID: (params) => {
      const alias = params.string('alias');
      const id = resolveChain(alias);
      // The reference's chain aliaser words it so (isBootstrapped words its own refusal).
      if (!id) fail(`there is no ID with alias: ${alias}`);
      return { blockchainID: id };
    },
    getNodeID: () => ({
      nodeID: deps.self.nodeID,
      nodePOP: {
        publicKey: plainHex(deps.self.blsPublicKey),
        proofOfPossession: plainHex(deps.self.blsProofOfPossession),
      },
    }),
    // The reference answers its staking address, where its peers reach it. The devnet has no
    // staking port: its validators are reached over HTTP (`info.peers`' `ip`, ACP-118 requests),
    // so this node's address is the node port's, written as Go writes a netip.AddrPort.
    getNodeIP: () => ({ ip: joinHostPort(config.host, deps.port()) }),
    getNodeVersion: () => ({
      version: COMPATIBLE_NODE_VERSION,
      databaseVersion: 'v1.4.5',
      rpcProtocolVersion: RPC_PROTOCOL_VERSION,
      gitCommit: `flurry-${FLURRY_VERSION}`,
      vmVersions: { avm: 'v1.14.0', evm: 'v0.15.0', platform: 'v1.14.0', subnetevm: 'v0.8.0' },
    }),
    getVMs: () => ({
      vms: {
        [VM_IDS.avm]: ['avm'],
        [VM_IDS.evm]: ['evm'],
        [VM_IDS.platform]: ['platform'],
        [VM_IDS.subnetEvm]: ['subnetevm'],
      },
      // The reference lists the three feature extensions it installs beside the VMs.
      fxs: {
        [FX_IDS[FX.secp256k1]!]: 'secp256k1fx',
        [FX_IDS[FX.nft]!]: 'nftfx',
        [FX_IDS[FX.property]!]: 'propertyfx',
      },
    }),
    isBootstrapped: (params) => {
      if (!params.has('chain')) fail("argument 'chain' not given");
      const alias = params.string('chain');
      const id = resolveChain(alias);
      if (!id) fail(`there is no chain with alias/ID '${alias}'`);
      const chain = deps.chain(id);
      return { isBootstrapped: chain ? chain.isBootstrapped() : true };
    },
    peers: (params) => {
      const wanted = new Set(params.strings('nodeIDs'));
      for (const text of wanted) {
        try {
          parseNodeId(text);
        } catch (err) {
          // The reference's typed []ids.NodeID refuses these; a filter that matched nothing would hide the typo.
          throw new ParamsShapeError(`nodeIDs: ${(err as Error).message}`);
        }
      }
      const now = new Date().toISOString();
      const peers = genesis.validators
        .filter((v) => v.nodeID !== deps.self.nodeID)
        .filter((v) => wanted.size === 0 || wanted.has(v.nodeID))
        .map((v) => ({
          ip: deps.peerAddress(v.nodeID) ?? '',
          publicIP: deps.peerAddress(v.nodeID) ?? '',
          nodeID: v.nodeID,
          version: COMPATIBLE_NODE_VERSION,
          lastSent: now,
          lastReceived: now,
          observedUptime: '100',
          trackedSubnets: [],
          supportedACPs: [],
          objectedACPs: [],
          benched: [],
        }));
      return { numPeers: String(peers.length), peers };
    },
    getTxFee: () => fees,
    upgrades: () => ({
      apricotPhase1Time: ACTIVE_SINCE,
      apricotPhase2Time: ACTIVE_SINCE,
      apricotPhase3Time: ACTIVE_SINCE,
      apricotPhase4Time: ACTIVE_SINCE,
      apricotPhase4MinPChainHeight: 0,
      apricotPhase5Time: ACTIVE_SINCE,
      apricotPhasePre6Time: ACTIVE_SINCE,
      apricotPhase6Time: ACTIVE_SINCE,
      apricotPhasePost6Time: ACTIVE_SINCE,
      banffTime: ACTIVE_SINCE,
      cortinaTime: ACTIVE_SINCE,
      cortinaXChainStopVertexID: '11111111111111111111111111111111LpoYY',
      durangoTime: ACTIVE_SINCE,
      etnaTime: ACTIVE_SINCE,
      fortunaTime: ACTIVE_SINCE,
      graniteTime: UNSCHEDULED,
      // Go marshals the time.Duration in nanoseconds; the devnet's ACP-181 epochs last this long.
      graniteEpochDuration: EPOCH_SECONDS * 1_000_000_000,
    }),
    uptime: () => ({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' }),
    acps: () => ({ acps: {} }),
  });
  return endpoint;
}
