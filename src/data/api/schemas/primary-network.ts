/** Response objects of the primary-network routes (fields per the spec; see docs/compatibility.md). */
import { Type } from '@sinclair/typebox';
import { AssetAmount, ChainInfo, Price, StringEnum } from './common.js';

const opt = Type.Optional;

export const PChainUtxo = Type.Object({
  addresses: Type.Array(Type.String()),
  asset: AssetAmount,
  consumedOnChainId: Type.String(),
  consumingTxHash: opt(Type.String()),
  createdOnChainId: Type.String(),
  utxoId: Type.String(),
  utxoBytes: opt(Type.String()),
  amount: Type.String(),
  assetId: Type.String(),
  blockNumber: Type.String(),
  blockTimestamp: Type.Integer(),
  consumingBlockNumber: opt(Type.String()),
  consumingBlockTimestamp: opt(Type.Integer()),
  platformLocktime: opt(Type.Integer()),
  outputIndex: Type.Integer(),
  rewardType: opt(Type.String()),
  stakeableLocktime: opt(Type.Integer()),
  staked: opt(Type.Boolean()),
  threshold: opt(Type.Integer()),
  txHash: Type.String(),
  utxoStartTimestamp: opt(Type.Integer()),
  utxoEndTimestamp: opt(Type.Integer()),
  utxoType: Type.String(),
});

export const UtxoCredential = Type.Object({ signature: opt(Type.String()), publicKey: opt(Type.String()) });

/** X-chain and C-chain (atomic) UTXO, also the UTXO shape inside asset transactions. */
export const Utxo = Type.Object({
  addresses: Type.Array(Type.String()),
  asset: AssetAmount,
  consumedOnChainId: Type.String(),
  consumingTxHash: opt(Type.String()),
  createdOnChainId: Type.String(),
  utxoId: Type.String(),
  utxoBytes: opt(Type.String()),
  consumingTxTimestamp: opt(Type.Integer()),
  creationTxHash: Type.String(),
  credentials: opt(Type.Array(UtxoCredential)),
  groupId: opt(Type.Integer()),
  locktime: Type.Integer(),
  outputIndex: Type.String(),
  payload: opt(Type.String()),
  threshold: Type.Integer(),
  timestamp: Type.Integer(),
  utxoType: Type.String(),
  // In UTXO lists only: the spec's UTXO resource names these on every chain.
  amount: opt(Type.String()),
  assetId: opt(Type.String()),
  txHash: opt(Type.String()),
  blockNumber: opt(Type.String()),
  blockTimestamp: opt(Type.Integer()),
  consumingBlockNumber: opt(Type.String()),
  consumingBlockTimestamp: opt(Type.Integer()),
});

export const UtxoList = Type.Object({
  nextPageToken: opt(Type.String()),
  utxos: Type.Array(Type.Union([PChainUtxo, Utxo])),
  chainInfo: ChainInfo,
});

export const AggregatedAssetAmount = Type.Object({
  ...AssetAmount.properties,
  utxoCount: Type.Integer(),
});
export const SharedAssetAmount = Type.Object({
  ...AggregatedAssetAmount.properties,
  sharedWithChainId: Type.String(),
  status: opt(Type.String()),
});

const list = Type.Array(AggregatedAssetAmount);
const shared = Type.Array(SharedAssetAmount);
export const Balances = Type.Object({
  balances: Type.Object({
    unlockedUnstaked: opt(list),
    unlockedStaked: opt(list),
    lockedPlatform: opt(list),
    lockedStakeable: opt(list),
    lockedStaked: opt(list),
    pendingStaked: opt(list),
    locked: opt(list),
    unlocked: opt(list),
    atomicMemoryUnlocked: shared,
    atomicMemoryLocked: shared,
  }),
  chainInfo: ChainInfo,
});

export const AssetCreated = Type.Object({
  assetId: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  denomination: Type.Integer(),
  type: Type.String(),
  createdAtTimestamp: Type.Integer(),
  cap: Type.String(),
});

export const XChainTransaction = Type.Object({
  txHash: Type.String(),
  chainFormat: Type.String(),
  timestamp: Type.Integer(),
  txType: Type.String(),
  memo: Type.String(),
  consumedUtxos: Type.Array(Utxo),
  emittedUtxos: Type.Array(Utxo),
  amountUnlocked: Type.Array(AssetAmount),
  amountCreated: Type.Array(AssetAmount),
  sourceChain: opt(Type.String()),
  destinationChain: opt(Type.String()),
  assetCreated: opt(AssetCreated),
  blockHeight: Type.Integer(),
  blockHash: Type.String(),
  vertices: Type.Array(
    Type.Object({ hash: Type.String(), height: Type.Integer(), timestamp: Type.Integer() }),
  ),
});

export const AssetTransactionList = Type.Object({
  nextPageToken: opt(Type.String()),
  transactions: Type.Array(XChainTransaction),
  chainInfo: ChainInfo,
});

export const Blockchain = Type.Object({
  createBlockTimestamp: Type.Integer(),
  createBlockNumber: Type.String(),
  blockchainId: Type.String(),
  vmId: Type.String(),
  subnetId: Type.String(),
  blockchainName: Type.String(),
  evmChainId: opt(Type.Integer()),
  genesisData: opt(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()])),
});

const Ownership = Type.Object({
  locktime: Type.Integer(),
  threshold: Type.Integer(),
  addresses: Type.Array(Type.String()),
});

export const Subnet = Type.Object({
  createBlockTimestamp: Type.Integer(),
  createBlockIndex: Type.String(),
  subnetId: Type.String(),
  ownerAddresses: Type.Array(Type.String()),
  threshold: Type.Integer(),
  locktime: Type.Integer(),
  subnetOwnershipInfo: Ownership,
  isL1: Type.Boolean(),
  l1ConversionTransactionHash: opt(Type.String()),
  l1ValidatorManagerDetails: opt(
    Type.Object({ blockchainId: Type.String(), contractAddress: Type.String() }),
  ),
  blockchains: Type.Array(Blockchain),
});

export const BlockchainList = Type.Object({
  nextPageToken: opt(Type.String()),
  blockchains: Type.Array(Blockchain),
});

export const XChainAssetDetails = Type.Object({
  assetId: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  denomination: Type.Integer(),
  type: StringEnum(['secp256k1', 'nft']),
  createdAtTimestamp: Type.Integer(),
  cap: StringEnum(['fixed', 'variable']),
});

export const SubnetList = Type.Object({ nextPageToken: opt(Type.String()), subnets: Type.Array(Subnet) });

export const HistoricalReward = Type.Object({
  addresses: Type.Array(Type.String()),
  txHash: Type.String(),
  amountStaked: Type.String(),
  nodeId: Type.String(),
  startTimestamp: Type.Integer(),
  endTimestamp: Type.Integer(),
  rewardType: Type.String(),
  utxoId: Type.String(),
  outputIndex: Type.Integer(),
  reward: Type.Object({ ...AssetAmount.properties, historicalPrice: opt(Price) }),
  rewardTxHash: Type.String(),
});

export const RewardList = Type.Object({
  nextPageToken: opt(Type.String()),
  historicalRewards: Type.Array(HistoricalReward),
});

const Rewards = Type.Object({
  validationRewardAmount: Type.String(),
  delegationRewardAmount: Type.String(),
  rewardAddresses: opt(Type.Array(Type.String())),
  rewardTxHash: opt(Type.String()),
});

/** One schema holding the union of the four validationStatus shapes' fields. */
export const ValidatorDetails = Type.Object({
  txHash: Type.String(),
  nodeId: Type.String(),
  subnetId: Type.String(),
  amountStaked: Type.String(),
  delegationFee: opt(Type.String()),
  startTimestamp: Type.Integer(),
  endTimestamp: Type.Integer(),
  blsCredentials: opt(Type.Object({ publicKey: Type.String(), proofOfPossession: Type.String() })),
  validationStatus: Type.String(),
  delegatorCount: opt(Type.Integer()),
  amountDelegated: opt(Type.String()),
  rewards: opt(Rewards),
  potentialRewards: opt(Rewards),
  stakePercentage: opt(Type.Number()),
  uptimePerformance: opt(Type.Number()),
  avalancheGoVersion: opt(Type.String()),
  delegationCapacity: opt(Type.String()),
  validatorHealth: opt(
    Type.Object({
      reachabilityPercent: Type.Number(),
      benchedPChainRequestsPercent: Type.Number(),
      benchedXChainRequestsPercent: Type.Number(),
      benchedCChainRequestsPercent: Type.Number(),
    }),
  ),
  geolocation: opt(Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })])),
  removeTxHash: opt(Type.String()),
  removeTimestamp: opt(Type.Integer()),
});

export const ValidatorList = Type.Object({
  nextPageToken: opt(Type.String()),
  validators: Type.Array(ValidatorDetails),
});

/** One schema holding the union of the three delegationStatus shapes' fields. */
export const DelegatorDetails = Type.Object({
  txHash: Type.String(),
  nodeId: Type.String(),
  rewardAddresses: Type.Array(Type.String()),
  amountDelegated: Type.String(),
  delegationFee: Type.String(),
  startTimestamp: Type.Integer(),
  endTimestamp: Type.Integer(),
  grossReward: opt(Type.String()),
  netReward: opt(Type.String()),
  estimatedGrossReward: opt(Type.String()),
  estimatedNetReward: opt(Type.String()),
  delegationStatus: Type.String(),
});

export const DelegatorList = Type.Object({
  nextPageToken: opt(Type.String()),
  delegators: Type.Array(DelegatorDetails),
});
