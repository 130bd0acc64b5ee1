/** Response objects of the primary-network transaction routes (the real service's shapes). */
import { Type } from '@sinclair/typebox';
import { AssetAmount, ChainInfo, L1ValidatorCore, StringEnum } from './common.js';
import { PChainUtxo, Utxo, UtxoCredential, XChainTransaction } from './primary-network.js';

const opt = Type.Optional;
const Amounts = Type.Array(AssetAmount);

export const PChainTransaction = Type.Object({
  txHash: Type.String(),
  txType: Type.String({ description: 'PChainTransactionType' }),
  blockTimestamp: Type.Integer(),
  blockNumber: Type.String(),
  blockHash: Type.String(),
  consumedUtxos: Type.Array(PChainUtxo),
  emittedUtxos: Type.Array(PChainUtxo),
  sourceChain: opt(Type.String()),
  destinationChain: opt(Type.String()),
  value: Amounts,
  amountBurned: Amounts,
  amountStaked: Amounts,
  amountL1ValidatorBalanceBurned: Amounts,
  startTimestamp: opt(Type.Integer()),
  endTimestamp: opt(Type.Integer()),
  delegationFeePercent: opt(Type.String()),
  nodeId: opt(Type.String()),
  subnetId: opt(Type.String()),
  l1ValidatorDetails: opt(
    Type.Array(
      Type.Object({
        ...L1ValidatorCore,
        balanceChange: opt(Type.Number()),
        blsCredentials: opt(Type.Record(Type.String(), Type.Unknown())),
      }),
    ),
  ),
  l1ValidatorManagerDetails: opt(
    Type.Object({ blockchainId: Type.String(), contractAddress: Type.String() }),
  ),
  estimatedReward: opt(Type.String()),
  rewardTxHash: opt(Type.String()),
  rewardAddresses: opt(Type.Array(Type.String())),
  memo: opt(Type.String()),
  stakingTxHash: opt(Type.String()),
  subnetOwnershipInfo: opt(
    Type.Object({
      locktime: Type.Integer(),
      threshold: Type.Integer(),
      addresses: Type.Array(Type.String()),
    }),
  ),
  blsCredentials: opt(Type.Object({ publicKey: Type.String(), proofOfPossession: Type.String() })),
  blockchainInfo: opt(
    Type.Object({
      chainName: Type.String(),
      vmId: Type.String(),
      genesisData: opt(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()])),
    }),
  ),
});

const CChainAtomicBase = {
  txHash: Type.String(),
  blockHeight: Type.Integer(),
  blockHash: Type.String(),
  timestamp: Type.Integer(),
  memo: Type.String(),
  amountUnlocked: Amounts,
  amountCreated: Amounts,
  sourceChain: Type.String(),
  destinationChain: Type.String(),
};

export const CChainExportTransaction = Type.Object({
  ...CChainAtomicBase,
  txType: StringEnum(['ExportTx'] as const),
  evmInputs: Type.Array(
    Type.Object({ fromAddress: Type.String(), asset: AssetAmount, credentials: Type.Array(UtxoCredential) }),
  ),
  emittedUtxos: Type.Array(Utxo),
});

export const CChainImportTransaction = Type.Object({
  ...CChainAtomicBase,
  txType: StringEnum(['ImportTx'] as const),
  evmOutputs: Type.Array(Type.Object({ toAddress: Type.String(), asset: AssetAmount })),
  consumedUtxos: Type.Array(Utxo),
});

const envelope = (
  item: ReturnType<typeof Type.Union> | typeof PChainTransaction | typeof XChainTransaction,
) => Type.Object({ nextPageToken: opt(Type.String()), transactions: Type.Array(item), chainInfo: ChainInfo });

export const PChainTransactionList = envelope(PChainTransaction);

/** The list answers in the shape of the chain its path names. */
export const PrimaryNetworkTransactionList = Type.Union([
  PChainTransactionList,
  envelope(XChainTransaction),
  envelope(Type.Union([CChainExportTransaction, CChainImportTransaction])),
]);

export const PrimaryNetworkTransaction = Type.Union([
  PChainTransaction,
  XChainTransaction,
  CChainExportTransaction,
  CChainImportTransaction,
]);
