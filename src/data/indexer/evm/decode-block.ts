/**
 * Turns one block as a standard EVM node serves it (block with transactions, receipts, callTracer
 * traces) into the rows of the EVM tables. Pure: no I/O, so every rule here is unit-testable.
 */
import type { Insertable } from 'kysely';
import type {
  EvmBlockTable,
  EvmInternalTxTable,
  EvmNativeTxTable,
  EvmTokenTransferTable,
} from '../../store/schema-evm.js';
import {
  TOPIC_TRANSFER,
  TOPIC_TRANSFER_BATCH,
  TOPIC_TRANSFER_SINGLE,
  hexToBigInt,
  topicToAddress,
  words,
} from '../../evm/abi.js';
import { decodeIcmLog, type IcmEvent } from './icm-events.js';

export interface RawTx {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  gas: string;
  gasPrice?: string;
  nonce: string;
  type?: string;
  input: string;
  transactionIndex: string;
}

export interface RawBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  gasUsed: string;
  gasLimit?: string;
  baseFeePerGas?: string;
  /** coreth / subnet-evm header field (absent before Apricot Phase 4). */
  blockGasCost?: string;
  transactions: RawTx[];
  /** C-chain only (coreth): the block's atomic txs, codec-encoded. */
  blockExtraData?: string;
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  transactionHash: string;
  removed?: boolean;
}

export interface RawReceipt {
  transactionHash: string;
  transactionIndex: string;
  status?: string;
  gasUsed: string;
  effectiveGasPrice?: string;
  contractAddress?: string | null;
  logs: RawLog[];
}

export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas?: string;
  gasUsed?: string;
  input?: string;
  output?: string;
  error?: string;
  calls?: CallFrame[];
}

export interface Deployment {
  address: string;
  txHash: string;
  blockNumber: number;
  txIndex: number;
  /** 0 for the transaction's own creation, else the frame's depth-first position. */
  traceIndex: number;
  /** The transaction's sender. */
  deployer: string;
  /** The creating contract (factory deployments only). */
  deployerContract: string | null;
}

export interface NftTouch {
  contract: string;
  tokenId: bigint;
  ercType: 'ERC-721' | 'ERC-1155';
  /** ERC-721: owner after this transfer. */
  owner?: string;
}

export interface TxFact {
  from: string;
  to: string | null;
  gasUsed: bigint;
  gasPrice: bigint;
}

/** An ICM messenger event with the transaction and position that emitted it. */
export interface IcmLogFact {
  event: IcmEvent;
  /** The emitting contract (the messenger). */
  contract: string;
  txHash: string;
  /** The transaction's gas used (decimal text). */
  gasUsed: string;
  blockNumber: number;
  timestamp: number;
  logIndex: number;
}

export interface DecodedBlock {
  block: Insertable<EvmBlockTable>;
  nativeTxs: Insertable<EvmNativeTxTable>[];
  tokenTransfers: Insertable<EvmTokenTransferTable>[];
  internalTxs: Insertable<EvmInternalTxTable>[];
  deployments: Deployment[];
  /** Token contracts seen in logs with the standard their events follow. */
  tokens: Map<string, 'ERC-20' | 'ERC-721' | 'ERC-1155'>;
  nfts: NftTouch[];
  txFacts: TxFact[];
  icm: IcmLogFact[];
}

const ZERO = '0x0000000000000000000000000000000000000000';

/** Only these frames are internal transactions (spec: value-moving calls and creations). */
const CREATE_TYPES = new Set(['CREATE', 'CREATE2', 'CREATE3']);
const VALUE_CALL_TYPES = new Set(['CALL', 'CALLCODE']);

function num(hex: string | undefined | null): number {
  return hex ? Number(BigInt(hex)) : 0;
}

function dec(hex: string | undefined | null): string {
  return hexToBigInt(hex ?? '0x0').toString();
}

function lower(a: string | null | undefined): string {
  return (a ?? '').toLowerCase();
}

export function callTypeOf(tx: RawTx): string {
  if (!tx.to) return 'CONTRACT_CREATION';
  return !tx.input || tx.input === '0x' ? 'NATIVE_TRANSFER' : 'CONTRACT_CALL';
}

export function decodeBlock(
  chain: number,
  block: RawBlock,
  receipts: RawReceipt[],
  traces: (CallFrame | null)[] | null,
): DecodedBlock {
  const number = num(block.number);
  const ts = num(block.timestamp);
  const blockHash = lower(block.hash);
  const out: DecodedBlock = {
    block: {
      chain,
      number,
      hash: blockHash,
      parent_hash: lower(block.parentHash),
      timestamp: ts,
      tx_count: block.transactions.length,
      gas_used: num(block.gasUsed),
      base_fee: dec(block.baseFeePerGas),
      gas_limit: dec(block.gasLimit),
      gas_cost: dec(block.blockGasCost),
      fees_spent: '0',
      // Filled by the batch writer, which knows the chain's count before this block.
      cumulative_txs: 0,
    },
    nativeTxs: [],
    tokenTransfers: [],
    internalTxs: [],
    deployments: [],
    tokens: new Map(),
    nfts: [],
    txFacts: [],
    icm: [],
  };
  const receiptByHash = new Map(receipts.map((r) => [lower(r.transactionHash), r]));

  block.transactions.forEach((tx, position) => {
    const hash = lower(tx.hash);
    const receipt = receiptByHash.get(hash);
    if (!receipt) throw new Error(`block ${number}: no receipt for ${hash}`);
    const txIndex = tx.transactionIndex !== undefined ? num(tx.transactionIndex) : position;
    const from = lower(tx.from);
    const created = receipt.contractAddress ? lower(receipt.contractAddress) : null;
    const to = tx.to ? lower(tx.to) : (created ?? '');
    const status = receipt.status === undefined ? 1 : num(receipt.status);
    const gasUsed = hexToBigInt(receipt.gasUsed);
    const gasPrice = hexToBigInt(receipt.effectiveGasPrice ?? tx.gasPrice ?? '0x0');
    const base = {
      chain,
      block_number: number,
      tx_index: txIndex,
      tx_hash: hash,
      block_hash: blockHash,
      block_ts: ts,
      from_addr: from,
      to_addr: to,
      value: dec(tx.value),
      gas_limit: dec(tx.gas),
      gas_used: gasUsed.toString(),
      gas_price: gasPrice.toString(),
      nonce: dec(tx.nonce),
      tx_type: num(tx.type ?? '0x0'),
      status,
      method_hash: tx.input && tx.input.length >= 10 ? tx.input.slice(0, 10).toLowerCase() : '0x',
      call_type: callTypeOf(tx),
    };
    for (const address of new Set([from, to].filter((a) => a !== '')))
      out.nativeTxs.push({ ...base, address });
    out.txFacts.push({ from, to: to || null, gasUsed, gasPrice });
    out.block.fees_spent = (BigInt(out.block.fees_spent!) + gasUsed * gasPrice).toString();

    if (created && status === 1)
      out.deployments.push({
        address: created,
        txHash: hash,
        blockNumber: number,
        txIndex,
        traceIndex: 0,
        deployer: from,
        deployerContract: null,
      });

    if (status === 1)
      for (const log of receipt.logs) {
        decodeLog(out, chain, ts, blockHash, number, log);
        const event = log.removed ? undefined : decodeIcmLog(log.topics, log.data);
        if (event)
          out.icm.push({
            event,
            contract: lower(log.address),
            txHash: hash,
            gasUsed: gasUsed.toString(),
            blockNumber: number,
            timestamp: ts,
            logIndex: num(log.logIndex),
          });
      }

    const trace = traces?.[position];
    if (trace) walkTrace(out, chain, ts, blockHash, number, txIndex, hash, from, trace);
  });
  return out;
}

function decodeLog(
  out: DecodedBlock,
  chain: number,
  ts: number,
  blockHash: string,
  number: number,
  log: RawLog,
): void {
  if (log.removed) return;
  const topic0 = lower(log.topics[0]);
  const token = lower(log.address);
  const logIndex = num(log.logIndex);
  const common = {
    chain,
    block_number: number,
    log_index: logIndex,
    tx_hash: lower(log.transactionHash),
    block_hash: blockHash,
    block_ts: ts,
    token,
  };
  const push = (kind: string, sub: number, from: string, to: string, value: bigint, tokenId: string) => {
    for (const address of new Set([from, to]))
      out.tokenTransfers.push({
        ...common,
        address,
        kind,
        sub_index: sub,
        from_addr: from,
        to_addr: to,
        value: value.toString(),
        token_id: tokenId,
      });
  };
  if (topic0 === TOPIC_TRANSFER) {
    if (log.topics.length === 3) {
      const w = words(log.data);
      if (w.length < 1) return;
      out.tokens.set(token, out.tokens.get(token) ?? 'ERC-20');
      push('erc20', 0, topicToAddress(log.topics[1]), topicToAddress(log.topics[2]), BigInt('0x' + w[0]), '');
    } else if (log.topics.length === 4) {
      const to = topicToAddress(log.topics[2]);
      const tokenId = BigInt(log.topics[3]);
      out.tokens.set(token, 'ERC-721');
      push('erc721', 0, topicToAddress(log.topics[1]), to, 1n, tokenId.toString());
      out.nfts.push({ contract: token, tokenId, ercType: 'ERC-721', owner: to });
    }
  } else if (topic0 === TOPIC_TRANSFER_SINGLE && log.topics.length === 4) {
    const w = words(log.data);
    if (w.length < 2) return;
    const tokenId = BigInt('0x' + w[0]);
    out.tokens.set(token, 'ERC-1155');
    push(
      'erc1155',
      0,
      topicToAddress(log.topics[2]),
      topicToAddress(log.topics[3]),
      BigInt('0x' + w[1]),
      tokenId.toString(),
    );
    out.nfts.push({ contract: token, tokenId, ercType: 'ERC-1155' });
  } else if (topic0 === TOPIC_TRANSFER_BATCH && log.topics.length === 4) {
    const pairs = decodeBatch(log.data);
    if (!pairs) return;
    out.tokens.set(token, 'ERC-1155');
    const from = topicToAddress(log.topics[2]);
    const to = topicToAddress(log.topics[3]);
    pairs.forEach(([tokenId, value], i) => {
      push('erc1155', i, from, to, value, tokenId.toString());
      out.nfts.push({ contract: token, tokenId, ercType: 'ERC-1155' });
    });
  }
}

/** TransferBatch data: (uint256[] ids, uint256[] values); undefined when malformed. */
export function decodeBatch(data: string): [bigint, bigint][] | undefined {
  const w = words(data);
  const at = (i: number) => (i < w.length ? BigInt('0x' + w[i]) : undefined);
  const idsOff = at(0);
  const valsOff = at(1);
  if (idsOff === undefined || valsOff === undefined || idsOff % 32n || valsOff % 32n) return undefined;
  const idsAt = Number(idsOff / 32n);
  const valsAt = Number(valsOff / 32n);
  const n = at(idsAt);
  const m = at(valsAt);
  if (n === undefined || n !== m || n > 10_000n) return undefined;
  const out: [bigint, bigint][] = [];
  for (let i = 0; i < Number(n); i++) {
    const id = at(idsAt + 1 + i);
    const v = at(valsAt + 1 + i);
    if (id === undefined || v === undefined) return undefined;
    out.push([id, v]);
  }
  return out;
}

function walkTrace(
  out: DecodedBlock,
  chain: number,
  ts: number,
  blockHash: string,
  number: number,
  txIndex: number,
  txHash: string,
  sender: string,
  root: CallFrame,
): void {
  let counter = 0;
  // The root frame is the transaction itself; internal transactions are the frames below it.
  const visit = (frame: CallFrame, reverted: boolean) => {
    const index = counter++;
    const type = (frame.type ?? '').toUpperCase();
    const failed = reverted || !!frame.error;
    if (index > 0) {
      const value = hexToBigInt(frame.value);
      const from = lower(frame.from);
      const to = lower(frame.to ?? ZERO);
      const isCreate = CREATE_TYPES.has(type);
      if (isCreate || (VALUE_CALL_TYPES.has(type) && value > 0n)) {
        const row = {
          chain,
          block_number: number,
          tx_index: txIndex,
          trace_index: index,
          tx_hash: txHash,
          block_hash: blockHash,
          block_ts: ts,
          from_addr: from,
          to_addr: to,
          call_type: type,
          value: value.toString(),
          gas_limit: dec(frame.gas),
          gas_used: dec(frame.gasUsed),
          is_reverted: failed ? 1 : 0,
        };
        for (const address of new Set([from, to])) out.internalTxs.push({ ...row, address });
      }
      if (isCreate && !failed && frame.to)
        out.deployments.push({
          address: to,
          txHash,
          blockNumber: number,
          txIndex,
          traceIndex: index,
          deployer: sender,
          deployerContract: from,
        });
    }
    for (const child of frame.calls ?? []) visit(child, failed);
  };
  visit(root, false);
}
