/**
 * Response schemas of the EVM routes, field for field the real service's (chainkit's zod shapes).
 * fastify serializes with them, so a field missing here would be dropped from the wire.
 */
import { Type } from '@sinclair/typebox';
import { Price, StringEnum } from '../../schemas/common.js';

const Opt = Type.Optional;

export const RichAddress = Type.Object({
  name: Opt(Type.String()),
  symbol: Opt(Type.String()),
  decimals: Opt(Type.Integer()),
  logoUri: Opt(Type.String()),
  address: Type.String(),
});

export const NFT_INDEX_STATUSES = [
  'UNKNOWN',
  'MISSING_TOKEN',
  'INVALID_TOKEN_URI',
  'INVALID_TOKEN_URI_SCHEME',
  'UNREACHABLE_TOKEN_URI',
  'THROTTLED_TOKEN_URI',
  'METADATA_CONTENT_TOO_LARGE',
  'INVALID_METADATA',
  'INVALID_METADATA_JSON',
  'INDEXED',
  'UNINDEXED',
] as const;

const metadataCommon = {
  indexStatus: StringEnum(NFT_INDEX_STATUSES),
  metadataLastUpdatedTimestamp: Opt(Type.Integer()),
  name: Opt(Type.String()),
  symbol: Opt(Type.String()),
  imageUri: Opt(Type.String()),
  description: Opt(Type.String()),
  animationUri: Opt(Type.String()),
  externalUrl: Opt(Type.String()),
  background: Opt(Type.String()),
};

export const Erc721Metadata = Type.Object({ ...metadataCommon, attributes: Opt(Type.String()) });
export const Erc1155Metadata = Type.Object({
  ...metadataCommon,
  decimals: Opt(Type.Integer()),
  properties: Opt(Type.String()),
});

export const Erc721Token = Type.Object({
  address: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  ercType: Type.Literal('ERC-721'),
  tokenId: Type.String(),
  tokenUri: Type.String(),
  metadata: Erc721Metadata,
  ownerAddress: Opt(Type.String()),
});

export const Erc1155Token = Type.Object({
  address: Type.String(),
  ercType: Type.Literal('ERC-1155'),
  tokenId: Type.String(),
  tokenUri: Type.String(),
  metadata: Erc1155Metadata,
});

const transferCommon = {
  blockNumber: Type.String(),
  blockTimestamp: Type.Integer(),
  blockHash: Type.String(),
  txHash: Type.String(),
  from: RichAddress,
  to: RichAddress,
};

export const Erc20Transfer = Type.Object({
  ...transferCommon,
  logIndex: Type.Integer(),
  value: Type.String(),
  erc20Token: Type.Object({
    address: Type.String(),
    name: Type.String(),
    symbol: Type.String(),
    decimals: Type.Integer(),
    logoUri: Opt(Type.String()),
    ercType: Type.Literal('ERC-20'),
    price: Opt(Price),
  }),
});

export const Erc721Transfer = Type.Object({
  ...transferCommon,
  logIndex: Type.Integer(),
  erc721Token: Erc721Token,
});

export const Erc1155Transfer = Type.Object({
  ...transferCommon,
  logIndex: Type.Integer(),
  value: Type.String(),
  erc1155Token: Erc1155Token,
});

export const InternalTransaction = Type.Object({
  ...transferCommon,
  internalTxType: StringEnum([
    'UNKNOWN',
    'CALL',
    'CREATE',
    'CREATE2',
    'CREATE3',
    'CALLCODE',
    'DELEGATECALL',
    'STATICCALL',
  ]),
  value: Type.String(),
  isReverted: Type.Boolean(),
  gasUsed: Type.String(),
  gasLimit: Type.String(),
});

export const NativeTransaction = Type.Object({
  ...transferCommon,
  chainId: Type.String(),
  blockIndex: Type.Integer(),
  txStatus: Type.String(),
  txType: Type.Integer(),
  gasLimit: Type.String(),
  gasUsed: Type.String(),
  gasPrice: Type.String(),
  nonce: Type.String(),
  method: Opt(
    Type.Object({
      callType: StringEnum(['NATIVE_TRANSFER', 'CONTRACT_CALL', 'CONTRACT_CREATION']),
      methodHash: Type.String(),
      methodName: Opt(Type.String()),
    }),
  ),
  value: Type.String(),
});

const envelope = <T extends ReturnType<typeof Type.Object>>(key: string, item: T) =>
  Type.Object({ nextPageToken: Opt(Type.String()), [key]: Type.Array(item) });

export const Erc20List = envelope('transactions', Erc20Transfer);
export const Erc721List = envelope('transactions', Erc721Transfer);
export const Erc1155List = envelope('transactions', Erc1155Transfer);
/** A token contract's transfers: each item is of the contract's standard. */
export const TransferList = Type.Object({
  nextPageToken: Opt(Type.String()),
  transfers: Type.Array(Type.Union([Erc20Transfer, Erc721Transfer, Erc1155Transfer])),
});
export const InternalList = envelope('transactions', InternalTransaction);
export const NativeList = envelope('transactions', NativeTransaction);

export const NativeTokenBalance = Type.Object({
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
  logoUri: Opt(Type.String()),
  chainId: Type.String(),
  price: Opt(Price),
  balance: Type.String(),
  balanceValue: Opt(Price),
});

export const Erc1155Balance = Type.Object({
  address: Type.String(),
  ercType: Type.Literal('ERC-1155'),
  tokenId: Type.String(),
  tokenUri: Type.String(),
  metadata: Erc1155Metadata,
  chainId: Type.String(),
  balance: Type.String(),
});

export const Erc1155BalanceList = Type.Object({
  nextPageToken: Opt(Type.String()),
  nativeTokenBalance: NativeTokenBalance,
  erc1155TokenBalances: Type.Array(Erc1155Balance),
});

export const Erc721BalanceList = Type.Object({
  nextPageToken: Opt(Type.String()),
  nativeTokenBalance: NativeTokenBalance,
  erc721TokenBalances: Type.Array(Type.Object({ ...Erc721Token.properties, chainId: Type.String() })),
});

/** ERC-721 tokens held and ERC-1155 balances in one list (`balances:listCollectibles`). */
export const CollectibleBalanceList = Type.Object({
  nextPageToken: Opt(Type.String()),
  collectibleBalances: Type.Array(
    Type.Union([Erc721BalanceList.properties.erc721TokenBalances.items, Erc1155Balance]),
  ),
});

export const NativeBalanceResponse = Type.Object({ nativeTokenBalance: NativeTokenBalance });

export const Contract = Type.Object({
  name: Opt(Type.String()),
  address: Type.String(),
  deploymentDetails: Opt(
    Type.Object({
      txHash: Type.String(),
      deployerAddress: Type.String(),
      deployerContractAddress: Opt(Type.String()),
    }),
  ),
  ercType: StringEnum(['ERC-20', 'ERC-721', 'ERC-1155', 'UNKNOWN']),
  symbol: Opt(Type.String()),
  decimals: Opt(Type.Integer()),
});

export const ContractList = envelope('contracts', Contract);

export const NftToken = Type.Object({
  address: Type.String(),
  name: Opt(Type.String()),
  symbol: Opt(Type.String()),
  ercType: StringEnum(['ERC-721', 'ERC-1155']),
  tokenId: Type.String(),
  tokenUri: Type.String(),
  metadata: Type.Object({
    ...metadataCommon,
    attributes: Opt(Type.String()),
    decimals: Opt(Type.Integer()),
    properties: Opt(Type.String()),
  }),
  ownerAddress: Opt(Type.String()),
});

export const NftTokenList = envelope('tokens', NftToken);

export const ChainInfo = Type.Object({
  chainId: Type.String(),
  status: StringEnum(['OK', 'UNAVAILABLE']),
  chainName: Type.String(),
  description: Type.String(),
  platformChainId: Opt(Type.String()),
  subnetId: Opt(Type.String()),
  vmId: Opt(Type.String()),
  vmName: StringEnum(['EVM', 'BITCOIN', 'ETHEREUM']),
  explorerUrl: Opt(Type.String()),
  rpcUrl: Type.String(),
  wsUrl: Opt(Type.String()),
  isTestnet: Type.Boolean(),
  utilityAddresses: Opt(Type.Object({ multicall: Opt(Type.String()) })),
  networkToken: Type.Object({
    name: Type.String(),
    symbol: Type.String(),
    decimals: Type.Integer(),
    logoUri: Opt(Type.String()),
    description: Opt(Type.String()),
  }),
  chainLogoUri: Opt(Type.String()),
  private: Opt(Type.Boolean()),
  enabledFeatures: Opt(Type.Array(StringEnum(['nftIndexing', 'webhooks', 'teleporter']))),
});

export const ChainList = Type.Object({ chains: Type.Array(ChainInfo) });

/** The chains an address has activity on (`GET /v1/address/{address}/chains`). */
export const AddressChainList = Type.Object({
  indexedChains: Opt(Type.Array(ChainInfo)),
  unindexedChains: Opt(Type.Array(Type.String())),
});

/** The transfers and frames of one transaction (no block fields: the native transaction has them). */
const detailParties = { from: RichAddress, to: RichAddress, logIndex: Type.Integer() };

export const TransactionDetail = Type.Object({
  erc20Transfers: Opt(
    Type.Array(
      Type.Object({
        ...detailParties,
        value: Type.String(),
        erc20Token: Erc20Transfer.properties.erc20Token,
      }),
    ),
  ),
  erc721Transfers: Opt(Type.Array(Type.Object({ ...detailParties, erc721Token: Erc721Token }))),
  erc1155Transfers: Opt(
    Type.Array(Type.Object({ ...detailParties, value: Type.String(), erc1155Token: Erc1155Token })),
  ),
  internalTransactions: Opt(
    Type.Array(Type.Omit(InternalTransaction, ['blockNumber', 'blockTimestamp', 'blockHash', 'txHash'])),
  ),
  teleporterMessageInfo: Opt(
    Type.Object({
      teleporterMessageId: Type.String(),
      direction: StringEnum(['SOURCE_TRANSACTION', 'DESTINATION_TRANSACTION'] as const),
      sourceChainId: Opt(Type.String()),
      destinationChainId: Opt(Type.String()),
    }),
  ),
  networkTokenDetails: Type.Object({
    networkToken: Type.Object({
      name: Type.String(),
      symbol: Type.String(),
      decimals: Type.Integer(),
      logoUri: Opt(Type.String()),
    }),
    currentPrice: Opt(Price),
    historicalPrice: Opt(Price),
  }),
  nativeTransaction: Type.Object({
    ...NativeTransaction.properties,
    input: Type.String(),
    baseFeePerGas: Type.String(),
    maxFeePerGas: Opt(Type.String()),
    maxPriorityFeePerGas: Opt(Type.String()),
  }),
});

/** One item of an address's `transactions` list: its native transaction and its parts. */
export const TransactionDetailsList = envelope(
  'transactions',
  Type.Object({
    nativeTransaction: NativeTransaction,
    erc20Transfers: TransactionDetail.properties.erc20Transfers,
    erc721Transfers: TransactionDetail.properties.erc721Transfers,
    erc1155Transfers: TransactionDetail.properties.erc1155Transfers,
    internalTransactions: TransactionDetail.properties.internalTransactions,
  }),
);

/**
 * listTransactionsV2's items: the v1 items, each ERC-20 token with `tokenReputation` (null on a
 * devnet: no security analysis rates its tokens).
 */
export const TransactionDetailsListV2 = envelope(
  'transactions',
  Type.Object({
    ...TransactionDetailsList.properties.transactions.items.properties,
    erc20Transfers: Opt(
      Type.Array(
        Type.Object({
          ...detailParties,
          value: Type.String(),
          erc20Token: Type.Object({
            ...Erc20Transfer.properties.erc20Token.properties,
            tokenReputation: Type.Union([Type.Literal('Malicious'), Type.Literal('Benign'), Type.Null()]),
          }),
        }),
      ),
    ),
  }),
);

export const EvmBlock = Type.Object({
  chainId: Type.String(),
  blockNumber: Type.String(),
  blockTimestamp: Type.Integer(),
  blockTimestampMilliseconds: Opt(Type.Integer()),
  blockMinDelayExcess: Opt(Type.Integer()),
  blockHash: Type.String(),
  txCount: Type.Integer(),
  baseFee: Type.String(),
  gasUsed: Type.String(),
  gasLimit: Type.String(),
  gasCost: Type.String(),
  parentHash: Type.String(),
  feesSpent: Type.String(),
  cumulativeTransactions: Type.String(),
});

export const EvmBlockList = envelope('blocks', EvmBlock);

export const Erc20Balance = Type.Object({
  ...Erc20Transfer.properties.erc20Token.properties,
  chainId: Type.String(),
  balance: Type.String(),
  balanceValue: Opt(Price),
  tokenReputation: Type.Union([StringEnum(['Malicious', 'Benign']), Type.Null()]),
});

export const Erc20BalanceList = Type.Object({
  nextPageToken: Opt(Type.String()),
  nativeTokenBalance: NativeTokenBalance,
  erc20TokenBalances: Type.Array(Erc20Balance),
});
