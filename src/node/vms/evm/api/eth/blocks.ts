/**
 * Accepted blocks and what they hold: blocks and headers, their transactions (pooled ones too,
 * by hash), raw transactions, receipts, and the uncles no block has.
 */
import type { Common } from '@ethereumjs/common';
import { bytesToHex } from '@ethereumjs/util';
import { Bloom } from '@ethereumjs/vm';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import { blockExtData, decodeHeader, type EvmHeader } from '../../block/evm-block.js';
import type { EvmChain } from '../../evm-chain.js';
import type { StoredLog, StoredTx } from '../../state/chain-store.js';
import { arity, blockNumberRef, blockRefOrNeither, bool, hash, uintIndex } from '../args.js';
import { h, headerJson, q, receiptJson, txJson, txTypeAndTo } from '../format.js';
import { storedTxJson } from '../stored-tx-json.js';
import { resolveBlockNumber, stateBlockOf } from './block-ref.js';

export function txBloom(common: Common, logs: { address: Uint8Array; topics: Uint8Array[] }[]): Uint8Array {
  const bloom = new Bloom(undefined, common);
  for (const l of logs) {
    bloom.add(l.address);
    for (const t of l.topics) bloom.add(t);
  }
  return bloom.bitvector;
}

/**
 * The bytes of an accepted or pooled transaction, "0x" for one neither holds (geth's nil
 * hexutil.Bytes), as eth_getRawTransactionByHash and debug_getRawTransaction answer.
 */
export function rawTxByHash(chain: EvmChain, hash: Uint8Array): string {
  const stored = chain.store.txByHash(hash);
  if (stored) return h(stored.raw);
  const pooled = chain.pool.get(bytesToHex(hash));
  return pooled ? h(pooled.tx.serialize()) : '0x';
}

export function createBlockApi(chain: EvmChain): Record<string, EvmHandler> {
  const common = chain.common;

  function blockJson(n: bigint, full: boolean): Record<string, unknown> | null {
    const block = chain.store.blockByNumber(n);
    if (!block) return null;
    const header = decodeHeader(block.header);
    const out = headerJson(header, block.hash, block.bytes.length, chain.config.atomicTxs);
    // coreth serves the block's atomic txs (codec-encoded, as in the body) as `blockExtraData`.
    if (chain.config.atomicTxs) out.blockExtraData = h(blockExtData(block.bytes));
    const txs = chain.store.txsOfBlock(n);
    out.transactions = full
      ? txs.map((t) => storedTxJson(common, t, pos(t, block.hash, header)))
      : txs.map((t) => h(t.hash));
    return out;
  }

  function pos(t: StoredTx, blockHash: Uint8Array, header: EvmHeader) {
    return { blockHash, blockNumber: t.blockNumber, index: t.index, baseFee: header.baseFeePerGas };
  }

  function txByStored(t: StoredTx | undefined): Record<string, unknown> | null {
    if (!t) return null;
    const found = chain.headerAt(t.blockNumber)!;
    return storedTxJson(common, t, pos(t, found.hash, found.header));
  }

  function receiptOf(t: StoredTx): Record<string, unknown> {
    const found = chain.headerAt(t.blockNumber)!;
    return receiptWith(t, found.hash, chain.store.logsOfTx(t.blockNumber, t.index));
  }

  function receiptWith(t: StoredTx, blockHash: Uint8Array, logs: StoredLog[]): Record<string, unknown> {
    return receiptJson(txTypeAndTo(t.raw), t, blockHash, logs, txBloom(common, logs));
  }

  /** A block's receipts with one header and one log query (indexers ask for every block). */
  function receiptsOfBlock(n: bigint): Record<string, unknown>[] {
    const txs = chain.store.txsOfBlock(n);
    if (txs.length === 0) return [];
    const found = chain.headerAt(n)!;
    const logsByTx = new Map<number, StoredLog[]>();
    for (const l of chain.store.logsOfBlock(n)) {
      const list = logsByTx.get(l.txIndex);
      if (list) list.push(l);
      else logsByTx.set(l.txIndex, [l]);
    }
    return txs.map((t) => receiptWith(t, found.hash, logsByTx.get(t.index) ?? []));
  }

  /** coreth's rpcMarshalHeader: the block's fields without size, uncles and transactions. */
  function headerOnly(n: bigint): Record<string, unknown> | null {
    const block = chain.store.blockByNumber(n);
    if (!block) return null;
    const out = headerJson(decodeHeader(block.header), block.hash, 0, chain.config.atomicTxs);
    delete out.size;
    delete out.uncles;
    return out;
  }

  /** The block an rpc.BlockNumber names (an unknown one is undefined). */
  function blockFromNumber(params: unknown[], i: number): bigint | undefined {
    return resolveBlockNumber(chain, blockNumberRef(params, i));
  }

  return {
    // A block number is an rpc.BlockNumber: a JSON null is hex text to it, not a missing value.
    eth_getBlockByNumber: (params) => {
      arity(params, 2, 1);
      // coreth's BlockByNumber refuses a number past the last accepted block.
      const n = stateBlockOf(chain, blockNumberRef(params, 0));
      return blockJson(n, bool(params, 1));
    },
    eth_getHeaderByNumber: (params) => {
      arity(params, 1, 1);
      return headerOnly(stateBlockOf(chain, blockNumberRef(params, 0)));
    },
    eth_getHeaderByHash: (params) => {
      arity(params, 1, 1);
      const n = chain.store.numberOfHash(hash(params, 0));
      return n === undefined ? null : headerOnly(n);
    },
    eth_getBlockByHash: (params) => {
      arity(params, 2, 1);
      const n = chain.store.numberOfHash(hash(params, 0));
      return n === undefined ? null : blockJson(n, bool(params, 1));
    },
    eth_getBlockTransactionCountByNumber: (params) => {
      arity(params, 1, 1);
      const n = blockFromNumber(params, 0);
      const b = n === undefined ? undefined : chain.store.blockByNumber(n);
      return b ? q(b.txCount) : null;
    },
    eth_getBlockTransactionCountByHash: (params) => {
      arity(params, 1, 1);
      const b = chain.store.blockByHash(hash(params, 0));
      return b ? q(b.txCount) : null;
    },
    // No block has uncles: a known block counts 0 and has none at any index; an unknown one is null.
    eth_getUncleCountByBlockNumber: (params) => {
      arity(params, 1, 1);
      return blockFromNumber(params, 0) === undefined ? null : '0x0';
    },
    eth_getUncleCountByBlockHash: (params) => {
      arity(params, 1, 1);
      return chain.store.numberOfHash(hash(params, 0)) === undefined ? null : '0x0';
    },
    eth_getUncleByBlockNumberAndIndex: (params) => {
      arity(params, 2, 2);
      blockNumberRef(params, 0);
      uintIndex(params, 1);
      return null;
    },
    eth_getUncleByBlockHashAndIndex: (params) => {
      arity(params, 2, 2);
      hash(params, 0);
      uintIndex(params, 1);
      return null;
    },
    eth_getTransactionByHash: (params) => {
      arity(params, 1, 1);
      const txHash = hash(params, 0);
      const stored = chain.store.txByHash(txHash);
      if (stored) return txByStored(stored);
      const pooled = chain.pool.get(bytesToHex(txHash));
      return pooled ? txJson(pooled.tx, pooled.sender) : null;
    },
    eth_getTransactionByBlockNumberAndIndex: (params) => {
      arity(params, 2, 2);
      const n = blockFromNumber(params, 0);
      return n === undefined ? null : txByStored(chain.store.txByPosition(n, Number(uintIndex(params, 1))));
    },
    eth_getTransactionByBlockHashAndIndex: (params) => {
      arity(params, 2, 2);
      const n = chain.store.numberOfHash(hash(params, 0));
      return n === undefined ? null : txByStored(chain.store.txByPosition(n, Number(uintIndex(params, 1))));
    },
    eth_getRawTransactionByHash: (params) => {
      arity(params, 1, 1);
      return rawTxByHash(chain, hash(params, 0));
    },
    // geth's raw-transaction methods answer "0x" for a transaction they do not find (their nil
    // hexutil.Bytes marshals so).
    eth_getRawTransactionByBlockNumberAndIndex: (params) => {
      arity(params, 2, 2);
      const n = blockFromNumber(params, 0);
      const t = n === undefined ? undefined : chain.store.txByPosition(n, Number(uintIndex(params, 1)));
      return t ? h(t.raw) : '0x';
    },
    eth_getRawTransactionByBlockHashAndIndex: (params) => {
      arity(params, 2, 2);
      const n = chain.store.numberOfHash(hash(params, 0));
      const t = n === undefined ? undefined : chain.store.txByPosition(n, Number(uintIndex(params, 1)));
      return t ? h(t.raw) : '0x';
    },
    eth_getTransactionReceipt: (params) => {
      arity(params, 1, 1);
      const stored = chain.store.txByHash(hash(params, 0));
      return stored ? receiptOf(stored) : null;
    },
    eth_getBlockReceipts: (params) => {
      arity(params, 1, 1);
      // coreth answers null for any block it cannot find, one named by neither number nor hash
      // (a JSON null, or `{}`) included.
      const ref = blockRefOrNeither(params, 0);
      const n = ref && resolveBlockNumber(chain, ref);
      return n === undefined ? null : receiptsOfBlock(n);
    },
    /** coreth serves the bad blocks it met; a devnet's node builds every block it accepts. */
    eth_getBadBlocks: (params) => (arity(params, 0), []),
  };
}
