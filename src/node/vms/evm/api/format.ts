/**
 * geth's JSON shapes for blocks, transactions, receipts and logs (hex quantities without
 * leading zeros, 0x data), plus the header extras the reference adds: `blockGasCost` on every
 * Avalanche EVM, `extDataHash` and `extDataGasUsed` on coreth (the C-chain) only.
 */
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import type { Common } from '@ethereumjs/common';
import type { EvmHeader } from '../block/evm-block.js';
import type { LogHexRow, StoredLog, StoredTx } from '../state/chain-store.js';

export const q = (n: bigint | number): string => '0x' + BigInt(n).toString(16);
export const h = (b: Uint8Array): string => bytesToHex(b);

/**
 * `coreth`: the chain is the C-chain, whose headers carry its atomic txs' hash and gas. Subnet-EVM
 * headers have no such fields, so its RPCMarshalHeader does not write them.
 */
export function headerJson(
  header: EvmHeader,
  hash: Uint8Array,
  size: number,
  coreth = true,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    baseFeePerGas: q(header.baseFeePerGas),
    blobGasUsed: q(header.blobGasUsed),
    blockGasCost: q(header.blockGasCost),
    difficulty: q(header.difficulty),
    excessBlobGas: q(header.excessBlobGas),
    extDataGasUsed: q(header.extDataGasUsed),
    extDataHash: h(header.extDataHash),
    extraData: h(header.extraData),
    gasLimit: q(header.gasLimit),
    gasUsed: q(header.gasUsed),
    hash: h(hash),
    logsBloom: h(header.logsBloom),
    miner: h(header.coinbase),
    mixHash: h(header.mixHash),
    nonce: h(header.nonce),
    number: q(header.number),
    parentBeaconBlockRoot: h(header.parentBeaconBlockRoot),
    parentHash: h(header.parentHash),
    receiptsRoot: h(header.receiptsRoot),
    sha3Uncles: h(header.uncleHash),
    size: q(size),
    stateRoot: h(header.stateRoot),
    timestamp: q(header.timestamp),
    totalDifficulty: q(header.number),
    transactionsRoot: h(header.transactionsRoot),
    uncles: [],
  };
  if (!coreth) {
    delete out.extDataGasUsed;
    delete out.extDataHash;
  }
  return out;
}

export function decodeStoredTx(common: Common, stored: Pick<StoredTx, 'raw'>): TypedTransaction {
  return createTxFromRLP(stored.raw, { common });
}

/** Position of `to` in each transaction type's RLP field list (legacy, EIP-2930, EIP-1559). */
const TO_FIELD: Record<number, number> = { 0: 3, 1: 4, 2: 5 };

/**
 * The type and recipient of a stored (already validated) raw transaction, read from its RLP
 * alone: receipts need nothing else, and building the engine's transaction costs far more.
 */
export function txTypeAndTo(raw: Uint8Array): { type: number; to: string | null } {
  const type = raw[0] <= 0x7f ? raw[0] : 0;
  const fields = RLP.decode(type === 0 ? raw : raw.subarray(1)) as Uint8Array[];
  const to = fields[TO_FIELD[type]];
  return { type, to: to && to.length > 0 ? bytesToHex(to) : null };
}

export interface TxPosition {
  blockHash: Uint8Array;
  blockNumber: bigint;
  index: number;
  baseFee: bigint;
}

/** `hash`: the stored hash of an accepted transaction (hashing it again costs a serialisation). */
export function txJson(
  tx: TypedTransaction,
  from: string,
  pos?: TxPosition,
  hash: Uint8Array = tx.hash(),
): Record<string, unknown> {
  const t = tx as any;
  const out: Record<string, unknown> = {
    blockHash: pos ? h(pos.blockHash) : null,
    blockNumber: pos ? q(pos.blockNumber) : null,
    from,
    gas: q(tx.gasLimit),
    hash: h(hash),
    input: h(tx.data),
    nonce: q(tx.nonce),
    to: tx.to ? tx.to.toString() : null,
    transactionIndex: pos ? q(pos.index) : null,
    value: q(tx.value),
    type: q(tx.type),
    v: q(tx.v ?? 0n),
    r: q(tx.r ?? 0n),
    s: q(tx.s ?? 0n),
  };
  if (tx.type === 0) {
    out.gasPrice = q(t.gasPrice);
    if (tx.supports(155 as any) || (tx.v !== undefined && tx.v > 28n)) out.chainId = q(tx.common.chainId());
  } else {
    out.chainId = q(t.chainId);
    out.accessList = (t.accessList as [Uint8Array, Uint8Array[]][]).map(([address, keys]) => ({
      address: h(address),
      storageKeys: keys.map(h),
    }));
    out.yParity = q(tx.v ?? 0n);
    if (tx.type === 1) out.gasPrice = q(t.gasPrice);
    else {
      out.maxFeePerGas = q(t.maxFeePerGas);
      out.maxPriorityFeePerGas = q(t.maxPriorityFeePerGas);
      let price = t.maxFeePerGas as bigint;
      if (pos) {
        const tip =
          (t.maxPriorityFeePerGas as bigint) < price - pos.baseFee
            ? t.maxPriorityFeePerGas
            : price - pos.baseFee;
        price = pos.baseFee + tip;
      }
      out.gasPrice = q(price);
    }
  }
  return out;
}

export function logJson(l: StoredLog, blockHash: Uint8Array, removed = false): Record<string, unknown> {
  return logHexJson(
    {
      blockNumber: l.blockNumber,
      logIndex: l.logIndex,
      txIndex: l.txIndex,
      txHash: h(l.txHash),
      address: h(l.address),
      topics: l.topics.map(h),
      data: h(l.data),
    },
    h(blockHash),
    removed,
  );
}

/** The log object of a log whose byte fields (and `blockHash`) are already `0x` hex. */
export function logHexJson(l: LogHexRow, blockHash: string, removed = false): Record<string, unknown> {
  return {
    address: l.address,
    topics: l.topics,
    data: l.data,
    blockNumber: q(l.blockNumber),
    transactionHash: l.txHash,
    transactionIndex: q(l.txIndex),
    blockHash,
    logIndex: q(l.logIndex),
    removed,
  };
}

export function receiptJson(
  tx: { type: number; to: string | null },
  stored: StoredTx,
  blockHash: Uint8Array,
  logs: StoredLog[],
  bloom: Uint8Array,
): Record<string, unknown> {
  return {
    blockHash: h(blockHash),
    blockNumber: q(stored.blockNumber),
    contractAddress: stored.contractAddress ? h(stored.contractAddress) : null,
    cumulativeGasUsed: q(stored.cumulativeGasUsed),
    effectiveGasPrice: q(stored.effectiveGasPrice),
    from: h(stored.sender),
    gasUsed: q(stored.gasUsed),
    logs: logs.map((l) => logJson(l, blockHash)),
    logsBloom: h(bloom),
    status: q(stored.status),
    to: tx.to,
    transactionHash: h(stored.hash),
    transactionIndex: q(stored.index),
    type: q(tx.type),
  };
}
