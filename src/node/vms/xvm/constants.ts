/**
 * X-chain (AVM) constants: codec type ids, feature-extension (fx) ids and the limits the
 * reference AVM enforces. Numbers follow the reference's registration order (txs, then the
 * secp256k1, nft and property fxs, then blocks).
 */

import { SECP256K1_FX_ID } from '../components/secp256k1fx.js';

/** Codec version every X-chain object is packed with. */
export const CODEC_VERSION = 0;

export const TYPE_ID = {
  baseTx: 0,
  createAssetTx: 1,
  operationTx: 2,
  importTx: 3,
  exportTx: 4,
  secpTransferInput: 5,
  secpMintOutput: 6,
  secpTransferOutput: 7,
  secpMintOperation: 8,
  secpCredential: 9,
  nftMintOutput: 10,
  nftTransferOutput: 11,
  nftMintOperation: 12,
  nftTransferOperation: 13,
  nftCredential: 14,
  standardBlock: 20,
} as const;

/** Feature extensions in the order the AVM registers them; an asset's initial states name them by index. */
export const FX = {
  secp256k1: 0,
  nft: 1,
  property: 2,
} as const;
export type FxIndex = (typeof FX)[keyof typeof FX];

/** The fxs' well-known ids, as JSON answers show them (`fxID`). */
export const FX_IDS: Record<number, string> = {
  [FX.secp256k1]: SECP256K1_FX_ID,
  [FX.nft]: 'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT',
  [FX.property]: 'rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy',
};
export const NUM_FXS = 3;

export const MAX_MEMO_BYTES = 256;
export const MAX_NFT_PAYLOAD_BYTES = 1024;
export const MIN_ASSET_NAME_LEN = 1;
export const MAX_ASSET_NAME_LEN = 128;
export const MIN_ASSET_SYMBOL_LEN = 1;
export const MAX_ASSET_SYMBOL_LEN = 4;
export const MAX_DENOMINATION = 32;

/** Most UTXOs (and addresses) one getUTXOs call handles. */
export const MAX_UTXOS_TO_FETCH = 1024;
export const MAX_ADDRESSES = 1024;

/** Transactions' bytes one block may carry; the rest wait for the next block. */
export const MAX_BLOCK_TX_BYTES = 2 * 1024 * 1024;

/** The native asset's description on every network. */
export const NATIVE_ASSET = { name: 'Avalanche', symbol: 'AVAX', denomination: 9 } as const;

export const MAX_UINT64 = (1n << 64n) - 1n;
