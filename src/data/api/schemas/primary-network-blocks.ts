/**
 * Response objects of the primary-network block, vertex, address-activity, network-details,
 * pending-reward, L1-validator and supply routes (shapes of the real service's document).
 */
import { Type } from '@sinclair/typebox';
import { AssetAmount, ChainInfo, L1ValidatorCore, StringEnum } from './common.js';

const opt = Type.Optional;

export const PrimaryNetworkBlock = Type.Object({
  blockNumber: Type.String(),
  blockHash: Type.String(),
  parentHash: Type.String(),
  blockTimestamp: Type.Integer(),
  blockType: Type.String({ description: 'the reference node type name, e.g. BanffStandardBlock' }),
  txCount: Type.Integer(),
  transactions: Type.Array(Type.String()),
  blockSizeBytes: Type.Integer(),
  l1ValidatorsAccruedFees: opt(Type.Number()),
  activeL1Validators: opt(Type.Number()),
  currentSupply: opt(Type.String()),
  proposerDetails: opt(
    Type.Object({
      proposerId: opt(Type.String()),
      proposerParentId: opt(Type.String()),
      proposerNodeId: opt(Type.String()),
      proposerPChainHeight: opt(Type.Number()),
      proposerTimestamp: opt(Type.Number()),
    }),
  ),
});

export const PrimaryNetworkBlockList = Type.Object({
  nextPageToken: opt(Type.String()),
  blocks: Type.Array(PrimaryNetworkBlock),
  chainInfo: ChainInfo,
});

export const XChainVertex = Type.Object({
  vertexHash: Type.String(),
  parentHashes: Type.Array(Type.String()),
  vertexHeight: Type.Integer(),
  vertexIndex: Type.Integer(),
  vertexTimestamp: Type.Integer(),
  txCount: Type.Integer(),
  transactions: Type.Array(Type.String()),
  vertexSizeBytes: Type.Integer(),
});

export const XChainVertexList = Type.Object({
  nextPageToken: opt(Type.String()),
  vertices: Type.Array(XChainVertex),
  chainInfo: ChainInfo,
});

export const ChainIdsOfAddresses = Type.Object({
  addresses: Type.Array(Type.Object({ address: Type.String(), blockchainIds: Type.Array(Type.String()) })),
});

export const LastActivityTimestamp = Type.Object({
  timestamp: Type.Integer(),
  blockNumber: Type.String(),
  txHash: Type.String(),
  utxoId: Type.String(),
  isConsumed: Type.Boolean(),
  chainName: StringEnum(['p-chain', 'x-chain', 'c-chain'] as const),
  network: Type.String(),
});

export const NetworkDetails = Type.Object({
  validatorDetails: Type.Object({
    validatorCount: Type.Integer(),
    totalAmountStaked: Type.String(),
    estimatedAnnualStakingReward: Type.String(),
    stakingDistributionByVersion: Type.Array(
      Type.Object({ version: Type.String(), amountStaked: Type.String(), validatorCount: Type.Integer() }),
    ),
    stakingRatio: Type.String(),
  }),
  delegatorDetails: Type.Object({ delegatorCount: Type.Integer(), totalAmountStaked: Type.String() }),
});

export const PendingRewardList = Type.Object({
  nextPageToken: opt(Type.String()),
  pendingRewards: Type.Array(
    Type.Object({
      addresses: Type.Array(Type.String()),
      txHash: Type.String(),
      amountStaked: Type.String(),
      nodeId: Type.String(),
      startTimestamp: Type.Integer(),
      endTimestamp: Type.Integer(),
      rewardType: StringEnum(['VALIDATOR', 'DELEGATOR', 'VALIDATOR_FEE'] as const),
      progress: Type.Number(),
      estimatedReward: AssetAmount,
    }),
  ),
});

const BalanceOwner = Type.Object({ addresses: Type.Array(Type.String()), threshold: Type.Integer() });

export const L1ValidatorList = Type.Object({
  nextPageToken: opt(Type.String()),
  validators: Type.Array(
    Type.Object({
      ...L1ValidatorCore,
      creationTimestamp: Type.Integer(),
      blsCredentials: Type.Object({ publicKey: opt(Type.String()) }),
      remainingBalanceOwner: BalanceOwner,
      deactivationOwner: BalanceOwner,
    }),
  ),
  blockHeight: Type.String(),
});

export const AvaxSupply = Type.Object({
  circulatingSupply: Type.String(),
  totalSupply: Type.String(),
  totalPBurned: Type.String(),
  totalCBurned: Type.String(),
  totalXBurned: Type.String(),
  totalStaked: Type.String(),
  totalLocked: Type.String(),
  totalRewards: Type.String(),
  lastUpdated: Type.String({ format: 'date-time' }),
  genesisUnlock: Type.String(),
  l1ValidatorFees: Type.String(),
});
