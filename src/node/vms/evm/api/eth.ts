/**
 * The `eth_`, `net_`, `web3_`, `personal_` and `txpool_` namespaces of an EVM chain, with the
 * reference C-chain's extras (`eth_baseFee`, `eth_maxPriorityFeePerGas`, `eth_getChainConfig`).
 * Handlers only translate: parse positional args, ask the chain, format geth's JSON.
 */
import { CallTimeout } from './call-deadline.js';
import type { TypedTransaction } from '@ethereumjs/tx';
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import {
  Address,
  bytesToBigInt,
  bytesToHex,
  createAddressFromString,
  equalsBytes,
  KECCAK256_RLP,
  setLengthLeft,
} from '@ethereumjs/util';
import { Bloom } from '@ethereumjs/vm';
import type { Common } from '@ethereumjs/common';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toChecksumAddress, type AccountKey } from '../../../../shared/crypto/keys.js';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import { chainConfigJson } from '../chain-config.js';
import { BLACKHOLE_ADDRESS, blockExtData, decodeHeader, type EvmHeader } from '../block/evm-block.js';
import type { EvmChain } from '../evm-chain.js';
import { EvmTxError } from '../vm-errors.js';
import type { StoredLog, StoredTx } from '../state/chain-store.js';
import { feeCaps } from '../txpool/txpool.js';
import { COMPATIBLE_NODE_VERSION } from '../../../../shared/networks.js';
import {
  address,
  arity,
  bad,
  blockRef,
  bool,
  data,
  jsonKind,
  quantity,
  quantityValue,
  type BlockRef,
} from './args.js';
import {
  CALL_GAS_CAP,
  callGas,
  TX_GAS,
  callFailure,
  callOutput,
  estimateGas,
  parseBlockOverrides,
  parseCallArgs,
  parseStateOverrides,
  prepareCall,
  gethTxError,
} from './call.js';
import { h, headerJson, logHexJson, logJson, q, receiptJson, txJson, txTypeAndTo } from './format.js';
import { storedTxJson } from './stored-tx-json.js';
import { checkTxFee } from './wallet.js';
import { suggestedTip } from './tip-oracle.js';

/** The most logs one eth_getLogs answer may hold, and the widest block range (coreth's defaults). */
export const MAX_LOGS = 10_000;
export const MAX_LOG_BLOCK_RANGE = 100_000n;
/** The reference's archival default window of eth_getProof, in blocks (24 h of 2 s blocks). */
export const DEFAULT_PROOF_WINDOW = 43_200n;
export const PRUNING_PROOF_WINDOW = 32n;

export interface EthApiOptions {
  /** Keys `eth_sendTransaction` and `personal_sign` may use (the devnet's prefunded keys). */
  unlocked: readonly AccountKey[];
}

export function resolveBlockNumber(chain: EvmChain, ref: BlockRef): bigint | undefined {
  const head = chain.latest.number;
  if (ref.kind === 'tag') return ref.tag === 'earliest' ? 0n : head;
  if (ref.kind === 'number') return ref.number <= head ? ref.number : undefined;
  return chain.store.numberOfHash(ref.hash);
}

/**
 * The block whose state a read uses, refused as coreth's StateAndHeaderByNumberOrHash refuses it
 * (without allow-unfinalized-queries): a number past the last accepted block is `cannot query
 * unfinalized data`, an unknown hash `header for hash not found`.
 */
export function stateBlockOf(chain: EvmChain, ref: BlockRef): bigint {
  const n = resolveBlockNumber(chain, ref);
  if (n !== undefined) return n;
  throw new RpcError(
    RpcCode.server,
    ref.kind === 'hash' ? 'header for hash not found' : 'cannot query unfinalized data',
  );
}

function stateBlock(chain: EvmChain, params: unknown[], i: number): bigint {
  return stateBlockOf(chain, blockRef(params, i));
}

/**
 * A storage key as coreth's decodeHash reads it (0x optional, odd lengths padded, at most 32
 * bytes), with the byte length it was given; its errors are the handler's (-32000).
 */
function storageKey(v: unknown, i: number, prefix = ''): { key: Uint8Array; length: number } {
  if (typeof v !== 'string') bad(i, 'json: cannot unmarshal non-string into Go value of type string');
  let hex = /^0[xX]/.test(v) ? v.slice(2) : v;
  if (hex.length % 2) hex = '0' + hex;
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new RpcError(RpcCode.server, `${prefix}hex string invalid`);
  const length = hex.length / 2;
  if (length > 32) throw new RpcError(RpcCode.server, `${prefix}hex string too long, want at most 32 bytes`);
  return { key: setLengthLeft(Uint8Array.from(Buffer.from(hex, 'hex')), 32), length };
}

export function txBloom(common: Common, logs: { address: Uint8Array; topics: Uint8Array[] }[]): Uint8Array {
  const bloom = new Bloom(undefined, common);
  for (const l of logs) {
    bloom.add(l.address);
    for (const t of l.topics) bloom.add(t);
  }
  return bloom.bitvector;
}

/** Pools a signed transaction as coreth's SubmitTransaction: the fee cap first, then the pool's checks. */
export async function submitTx(chain: EvmChain, tx: TypedTransaction): Promise<string> {
  checkTxFee(tx);
  try {
    return await chain.submit(tx);
  } catch (err) {
    if (err instanceof EvmTxError || err instanceof Error) throw new RpcError(RpcCode.server, err.message);
    throw err;
  }
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

/** coreth's fee history bounds: blocks per call, and how far below the head it reaches. */
const FEE_HISTORY_MAX_BLOCKS = 2048n;
const FEE_HISTORY_DEPTH = 25_000n;

/**
 * The blocks eth_feeHistory covers, as coreth's resolveBlockRange picks them: `pending` is the
 * head with one block fewer, tags are the head, a number past the head or deeper than the
 * history is refused; undefined when no block is left.
 */
function feeHistoryRange(
  chain: EvmChain,
  ref: BlockRef,
  count: bigint,
): { oldest: bigint; newest: bigint } | undefined {
  let blocks = count > FEE_HISTORY_MAX_BLOCKS ? FEE_HISTORY_MAX_BLOCKS : count;
  if (ref.kind === 'tag' && ref.tag === 'pending') blocks--;
  if (blocks <= 0n) return undefined;
  const head = chain.latest.number;
  const depth = FEE_HISTORY_DEPTH - 1n;
  let newest: bigint;
  // A block number (rpc.BlockNumber): a hash is a number too wide, an EIP-1898 object no hex at all.
  if (ref.kind === 'hash') bad(1, 'hex number > 64 bits');
  if (ref.kind === 'tag') newest = ref.tag === 'earliest' ? 0n : head;
  else if (head > depth && head - depth > ref.number)
    throw new RpcError(
      RpcCode.server,
      `request beyond historical limit: requested ${ref.number}, head ${head}`,
    );
  else if (ref.number > head)
    throw new RpcError(RpcCode.server, `request beyond head block: requested ${ref.number}, head ${head}`);
  else newest = ref.number;
  if (blocks > newest! + 1n) blocks = newest! + 1n;
  const oldest = newest! - blocks + 1n;
  const overage = head - oldest - depth;
  return { oldest: overage > 0n ? oldest + overage : oldest, newest: newest! };
}

/** A block's reward percentiles as coreth's processPercentiles: tips by gas used, thresholds truncated. */
function rewardPercentiles(chain: EvmChain, n: bigint, header: EvmHeader, percentiles: number[]): string[] {
  const txs = chain.store
    .txsOfBlock(n)
    .map((t) => ({ tip: t.effectiveGasPrice - header.baseFeePerGas, gas: t.gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  if (txs.length === 0) return percentiles.map(() => '0x0');
  let i = 0;
  let sum = txs[0].gas;
  return percentiles.map((p) => {
    const threshold = BigInt(Math.trunc((Number(header.gasUsed) * p) / 100));
    while (sum < threshold && i < txs.length - 1) sum += txs[++i].gas;
    return q(txs[i].tip);
  });
}

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

export function createEthApi(chain: EvmChain): Record<string, EvmHandler> {
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

  function blockFromRef(params: unknown[], i: number): bigint | undefined {
    const ref = blockRef(params, i);
    return resolveBlockNumber(chain, ref);
  }

  /** geth's DoCall for eth_call and eth_callDetailed: args, block, state overrides, block overrides. */
  const runCall = async (params: unknown[], overrides: ReturnType<typeof parseBlockOverrides>) => {
    const args = parseCallArgs(params[0], 0);
    const ref = blockRef(params, 1);
    const n = stateBlockOf(chain, ref);
    // coreth's DoCall runs a `pending` call as the next block would: the number after the
    // head's, the time now, the next base fee; block overrides apply on top.
    const pending =
      ref.kind === 'tag' && ref.tag === 'pending'
        ? {
            number: n + 1n,
            time: maxBig(BigInt(chain.ctx.clock.nowSeconds()), chain.latest.header.timestamp),
            baseFee: chain.nextBaseFee(),
            coinbase: chain.executionCoinbase().bytes,
          }
        : undefined;
    const call = await prepareCall(
      chain,
      args,
      n,
      parseStateOverrides(params[2], 2),
      pending || overrides ? { ...pending, ...overrides } : undefined,
      true,
    );
    const gas = callGas(args);
    // geth's doCall wraps a refused call this way.
    return call.run(gas, chain.config.rpcEvmTimeoutMs).catch((err: Error) => {
      // geth's DoCall: `execution aborted (timeout = 5s)` for a call cut off by RPCEVMTimeout.
      if (err instanceof CallTimeout) throw new RpcError(RpcCode.server, err.message);
      throw new RpcError(RpcCode.server, `err: ${gethTxError(err, args.from)} (supplied gas ${gas})`);
    });
  };
  return {
    web3_clientVersion: (params) => (arity(params, 0), `Flurry/${COMPATIBLE_NODE_VERSION}`),
    web3_sha3: (params) => (arity(params, 1, 1), bytesToHex(keccak_256(data(params, 0)))),
    net_version: (params) => (arity(params, 0), String(chain.config.chainId)),
    net_listening: (params) => (arity(params, 0), true),
    net_peerCount: (params) => (arity(params, 0), '0x0'),
    eth_chainId: (params) => (arity(params, 0), q(chain.config.chainId)),
    eth_protocolVersion: (params) => (arity(params, 0), '0x41'),
    eth_syncing: (params) => (arity(params, 0), false),
    eth_mining: (params) => (arity(params, 0), false),
    eth_hashrate: (params) => (arity(params, 0), '0x0'),
    // coreth's etherbase: the address blocks pay their fees to (the blackhole on the C-chain),
    // also before the first block, whose genesis names no coinbase.
    eth_coinbase: (params) => (arity(params, 0), h(BLACKHOLE_ADDRESS)),
    eth_etherbase: (params) => (arity(params, 0), h(BLACKHOLE_ADDRESS)),
    eth_blockNumber: (params) => (arity(params, 0), q(chain.latest.number)),

    eth_getBalance: async (params) => {
      arity(params, 2, 2);
      const addr = new Address(address(params, 0));
      const acct = await chain.stateAt(stateBlock(chain, params, 1)).getAccount(addr);
      return q(acct?.balance ?? 0n);
    },
    eth_getTransactionCount: async (params) => {
      arity(params, 2, 2);
      const addr = new Address(address(params, 0));
      const ref = blockRef(params, 1);
      const n = stateBlock(chain, params, 1);
      const nonce = (await chain.stateAt(n).getAccount(addr))?.nonce ?? 0n;
      if (ref.kind === 'tag' && ref.tag === 'pending') return q(chain.pool.nextNonce(addr.toString(), nonce));
      return q(nonce);
    },
    eth_getCode: async (params) => {
      arity(params, 2, 2);
      const addr = new Address(address(params, 0));
      return h(await chain.stateAt(stateBlock(chain, params, 1)).getCode(addr));
    },
    eth_getStorageAt: async (params) => {
      arity(params, 3, 3);
      const addr = new Address(address(params, 0));
      if (typeof params[1] !== 'string')
        bad(1, 'json: cannot unmarshal non-string into Go value of type string');
      const n = stateBlock(chain, params, 2);
      const slot = storageKey(params[1], 1, 'unable to decode storage key: ').key;
      const value = await chain.stateAt(n).getStorage(addr, slot);
      return h(setLengthLeft(value, 32));
    },

    eth_call: async (params) => {
      arity(params, 4, 1);
      return h(callOutput(await runCall(params, parseBlockOverrides(params[3], 3))));
    },
    /**
     * coreth's (and subnet-evm's) eth_call with the whole outcome: the gas used, and a failure as
     * `errCode`/`err` beside the return data instead of a JSON-RPC error (code 3 for a revert with
     * data, else 0). A call refused before running is still an error, as in eth_call.
     */
    eth_callDetailed: async (params) => {
      arity(params, 3, 1);
      const result = await runCall(params, undefined);
      // A failure that is not a revert with data has no code of its own here (coreth: 0).
      const failure = callFailure(result);
      return {
        gas: Number(result.totalGasSpent),
        errCode: failure?.code === RpcCode.executionReverted ? failure.code : 0,
        err: failure?.message ?? '',
        returnData: h(result.execResult.returnValue),
      };
    },
    /** coreth serves the bad blocks it met; a devnet's node builds every block it accepts. */
    eth_getBadBlocks: (params) => (arity(params, 0), []),
    eth_estimateGas: async (params) => {
      arity(params, 3, 1);
      const args = parseCallArgs(params[0], 0);
      const n = stateBlock(chain, params, 1);
      const call = await prepareCall(chain, args, n, parseStateOverrides(params[2], 2), undefined, true);
      // geth's bound: the gas given (a limit below a transfer's is ignored), else the block's
      // gas limit, never above the call gas cap.
      const given = args.gas !== undefined && args.gas >= TX_GAS ? args.gas : chain.maxBlockGas();
      const cap = given < CALL_GAS_CAP ? given : CALL_GAS_CAP;
      return q(await estimateGas(call, cap, TX_GAS));
    },
    eth_sendRawTransaction: async (params) => {
      arity(params, 1, 1);
      return submitTx(chain, chain.decodeRawTx(data(params, 0)));
    },

    eth_getBlockByNumber: (params) => {
      arity(params, 2, 1);
      // coreth's BlockByNumber refuses a number past the last accepted block.
      const n = stateBlock(chain, params, 0);
      return blockJson(n, bool(params, 1));
    },
    eth_getHeaderByNumber: (params) => {
      arity(params, 1, 1);
      return headerOnly(stateBlock(chain, params, 0));
    },
    eth_getHeaderByHash: (params) => {
      arity(params, 1, 1);
      const n = chain.store.numberOfHash(data(params, 0, 32));
      return n === undefined ? null : headerOnly(n);
    },
    eth_getBlockByHash: (params) => {
      arity(params, 2, 1);
      const n = chain.store.numberOfHash(data(params, 0, 32));
      return n === undefined ? null : blockJson(n, bool(params, 1));
    },
    eth_getBlockTransactionCountByNumber: (params) => {
      arity(params, 1, 1);
      const n = blockFromRef(params, 0);
      const b = n === undefined ? undefined : chain.store.blockByNumber(n);
      return b ? q(b.txCount) : null;
    },
    eth_getBlockTransactionCountByHash: (params) => {
      arity(params, 1, 1);
      const b = chain.store.blockByHash(data(params, 0, 32));
      return b ? q(b.txCount) : null;
    },
    // No block has uncles: a known block counts 0 and has none at any index; an unknown one is null.
    eth_getUncleCountByBlockNumber: (params) => {
      arity(params, 1, 1);
      return blockFromRef(params, 0) === undefined ? null : '0x0';
    },
    eth_getUncleCountByBlockHash: (params) => {
      arity(params, 1, 1);
      return chain.store.numberOfHash(data(params, 0, 32)) === undefined ? null : '0x0';
    },
    eth_getUncleByBlockNumberAndIndex: (params) => {
      arity(params, 2, 2);
      blockRef(params, 0);
      quantity(params, 1);
      return null;
    },
    eth_getUncleByBlockHashAndIndex: (params) => {
      arity(params, 2, 2);
      data(params, 0, 32);
      quantity(params, 1);
      return null;
    },
    eth_getTransactionByHash: (params) => {
      arity(params, 1, 1);
      const hash = data(params, 0, 32);
      const stored = chain.store.txByHash(hash);
      if (stored) return txByStored(stored);
      const pooled = chain.pool.get(bytesToHex(hash));
      return pooled ? txJson(pooled.tx, pooled.sender) : null;
    },
    eth_getTransactionByBlockNumberAndIndex: (params) => {
      arity(params, 2, 2);
      const n = blockFromRef(params, 0);
      return n === undefined ? null : txByStored(chain.store.txByPosition(n, Number(quantity(params, 1))));
    },
    eth_getTransactionByBlockHashAndIndex: (params) => {
      arity(params, 2, 2);
      const n = chain.store.numberOfHash(data(params, 0, 32));
      return n === undefined ? null : txByStored(chain.store.txByPosition(n, Number(quantity(params, 1))));
    },
    eth_getRawTransactionByHash: (params) => {
      arity(params, 1, 1);
      return rawTxByHash(chain, data(params, 0, 32));
    },
    // geth's raw-transaction methods answer "0x" for a transaction they do not find (their nil
    // hexutil.Bytes marshals so).
    eth_getRawTransactionByBlockNumberAndIndex: (params) => {
      arity(params, 2, 2);
      const n = blockFromRef(params, 0);
      const t = n === undefined ? undefined : chain.store.txByPosition(n, Number(quantity(params, 1)));
      return t ? h(t.raw) : '0x';
    },
    eth_getRawTransactionByBlockHashAndIndex: (params) => {
      arity(params, 2, 2);
      const n = chain.store.numberOfHash(data(params, 0, 32));
      const t = n === undefined ? undefined : chain.store.txByPosition(n, Number(quantity(params, 1)));
      return t ? h(t.raw) : '0x';
    },
    eth_getTransactionReceipt: (params) => {
      arity(params, 1, 1);
      const stored = chain.store.txByHash(data(params, 0, 32));
      return stored ? receiptOf(stored) : null;
    },
    eth_getBlockReceipts: (params) => {
      arity(params, 1, 1);
      const n = blockFromRef(params, 0);
      return n === undefined ? null : receiptsOfBlock(n);
    },

    eth_getLogs: (params) => {
      arity(params, 1, 1);
      return queryLogs(chain, parseLogFilter(params[0], 0));
    },

    eth_gasPrice: (params) => (arity(params, 0), q(chain.nextBaseFee() + suggestedTip(chain))),
    eth_baseFee: (params) => (arity(params, 0), q(chain.nextBaseFee())),
    eth_maxPriorityFeePerGas: (params) => (arity(params, 0), q(suggestedTip(chain))),
    eth_feeHistory: (params) => {
      arity(params, 3, 2);
      const count = quantityValue(params[0], 0, 'blockCount', 64);
      if (typeof params[1] === 'object') bad(1, 'hex string without 0x prefix');
      const ref = blockRef(params, 1);
      const percentiles = (params[2] ?? []) as number[];
      if (!Array.isArray(percentiles) || percentiles.some((p) => typeof p !== 'number'))
        bad(2, 'json: cannot unmarshal into Go value of type []float64');
      // coreth's checks, in its order and words (-32000, percentiles as Go's %f writes them).
      if (count === 0n) return { oldestBlock: '0x0', gasUsedRatio: null };
      const f = (p: number) => p.toFixed(6);
      if (percentiles.length > 100)
        throw new RpcError(RpcCode.server, 'invalid reward percentile: over the query limit 100');
      percentiles.forEach((p, i) => {
        if (p < 0 || p > 100) throw new RpcError(RpcCode.server, `invalid reward percentile: ${f(p)}`);
        if (i > 0 && p <= percentiles[i - 1])
          throw new RpcError(
            RpcCode.server,
            `invalid reward percentile: #${i - 1}:${f(percentiles[i - 1])} >= #${i}:${f(p)}`,
          );
      });
      const range = feeHistoryRange(chain, ref, count);
      if (!range) return { oldestBlock: '0x0', gasUsedRatio: null };
      const { oldest, newest } = range;
      const baseFees: string[] = [];
      const ratios: number[] = [];
      const rewards: string[][] = [];
      for (let n = oldest; n <= newest; n++) {
        const header = chain.headerAt(n)!.header;
        baseFees.push(q(header.baseFeePerGas));
        ratios.push(header.gasLimit > 0n ? Number(header.gasUsed) / Number(header.gasLimit) : 0);
        if (percentiles.length) rewards.push(rewardPercentiles(chain, n, header, percentiles));
      }
      // coreth's history has one base fee per block: it does not add the next block's, as geth does.
      const out: Record<string, unknown> = {
        oldestBlock: q(oldest),
        baseFeePerGas: baseFees,
        gasUsedRatio: ratios,
      };
      if (percentiles.length) out.reward = rewards;
      return out;
    },
    eth_getChainConfig: (params) => (arity(params, 0), chainConfigJson(chain.config)),

    eth_getProof: async (params) => {
      arity(params, 3, 3);
      const addr = new Address(address(params, 0));
      if (!Array.isArray(params[1]))
        bad(1, 'json: cannot unmarshal non-array into Go value of type []string');
      const ref = blockRef(params, 2);
      // coreth's order: the window, then the keys, then the state.
      checkProofWindow(chain, ref);
      const keys = (params[1] as unknown[]).map((k) => storageKey(k, 1));
      const n = stateBlockOf(chain, ref);
      const state = chain.scratchStateAt(n);
      const account = await state.getAccount(addr);
      const proof = await getMerkleStateProof(
        state,
        addr,
        keys.map((k) => k.key),
      );
      const hasStorage = account !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP);
      const zero = h(new Uint8Array(32));
      // geth's AccountResult, field for field: a 32-byte key is echoed, a shorter one written as a
      // quantity; a key of an account without storage answers 0 with an empty proof; an account
      // that does not exist has zero code and storage hashes.
      return {
        address: proof.address,
        accountProof: proof.accountProof,
        balance: proof.balance,
        codeHash: account ? proof.codeHash : zero,
        nonce: proof.nonce,
        storageHash: account ? proof.storageHash : zero,
        storageProof: keys.map((k, i) => ({
          key: k.length === 32 ? h(k.key) : q(bytesToBigInt(k.key)),
          value: hasStorage ? proof.storageProof[i].value : '0x0',
          proof: hasStorage ? proof.storageProof[i].proof : [],
        })),
      };
    },

    txpool_status: async (params) => {
      arity(params, 0);
      const { pending, queued } = await classifyPool(chain);
      return { pending: q(pending.length), queued: q(queued.length) };
    },
    txpool_content: async (params) => {
      arity(params, 0);
      const { pending, queued } = await classifyPool(chain);
      const group = (list: typeof pending) => {
        const out: Record<string, Record<string, unknown>> = {};
        for (const p of list) (out[checksum(p.sender)] ??= {})[p.nonce.toString()] = txJson(p.tx, p.sender);
        return out;
      };
      return { pending: group(pending), queued: group(queued) };
    },
    txpool_contentFrom: async (params) => {
      arity(params, 1, 1);
      const who = bytesToHex(address(params, 0));
      const { pending, queued } = await classifyPool(chain);
      const group = (list: typeof pending) => {
        const out: Record<string, unknown> = {};
        for (const p of list) if (p.sender === who) out[p.nonce.toString()] = txJson(p.tx, p.sender);
        return out;
      };
      return { pending: group(pending), queued: group(queued) };
    },
    txpool_inspect: async (params) => {
      arity(params, 0);
      const { pending, queued } = await classifyPool(chain);
      const group = (list: typeof pending) => {
        const out: Record<string, Record<string, string>> = {};
        for (const p of list) {
          const { maxFee } = feeCaps(p.tx);
          // geth writes the recipient as To().Hex(): EIP-55 checksummed.
          const to = p.tx.to ? checksum(p.tx.to.toString()) : 'contract creation';
          (out[checksum(p.sender)] ??= {})[p.nonce.toString()] =
            `${to}: ${p.tx.value} wei + ${p.tx.gasLimit} gas × ${maxFee} wei`;
        }
        return out;
      };
      return { pending: group(pending), queued: group(queued) };
    },
  };
}

function checksum(addr: string): string {
  return toChecksumAddress(addr.slice(2));
}

export async function classifyPool(chain: EvmChain) {
  const nonces = new Map<string, bigint>();
  for (const s of chain.pool.senders()) nonces.set(s, await chain.nonceOf(createAddressFromString(s)));
  return chain.pool.classify((s) => nonces.get(s) ?? 0n);
}

/**
 * coreth's stateQueryBlockNumberAllowed: an archival node takes any block when the window is 0;
 * otherwise (and always when pruning, with its 32-block state history) a block more than the
 * window below the last accepted one is refused. Tags other than `earliest` always pass.
 */
export function checkProofWindow(chain: EvmChain, ref: BlockRef): void {
  const window = chain.config.pruning ? PRUNING_PROOF_WINDOW : chain.config.historicalProofQueryWindow;
  if (!chain.config.pruning && window === 0n) return;
  const refuse = (reason: string): never => {
    throw new RpcError(RpcCode.server, `historical proof query not allowed: ${reason}`);
  };
  let number: bigint;
  if (ref.kind === 'tag') {
    if (ref.tag !== 'earliest') return;
    number = 0n;
  } else if (ref.kind === 'number') number = ref.number;
  else number = chain.store.numberOfHash(ref.hash) ?? refuse(`block from hash ${h(ref.hash)} doesn't exist`);
  const head = chain.latest.number;
  const oldest = head > window ? head - window : 0n;
  if (number >= oldest) return;
  refuse(
    `block number ${number} is before the oldest allowed block number ${oldest} (window of ${window} blocks)`,
  );
}

/**
 * A filter's block bound as coreth's `rpc.BlockNumber`: a block number, or one of these tags
 * (negative, so that `>= 0` tells a number). `accepted` reads as `finalized`, as in coreth.
 */
export const BLOCK_TAG = { safe: -4n, finalized: -3n, latest: -2n, pending: -1n } as const;

/** What an eth_getLogs / eth_newFilter / logs-subscription object asks for (coreth's FilterCriteria). */
export interface LogFilter {
  /** Absent: `latest`. */
  fromBlock?: bigint;
  toBlock?: bigint;
  addresses: Uint8Array[];
  /** Per position: null or empty = any. */
  topics: (Uint8Array[] | null)[];
  blockHash?: Uint8Array;
}

/** coreth's `hexutil.Decode` and its errors. */
function hexBytes(s: string): Uint8Array | string {
  if (s.length === 0) return 'empty hex string';
  if (!/^0[xX]/.test(s)) return 'hex string without 0x prefix';
  if (!/^[0-9a-fA-F]*$/.test(s.slice(2))) return 'invalid hex string';
  if (s.length % 2 !== 0) return 'hex string of odd length';
  return Uint8Array.from(Buffer.from(s.slice(2), 'hex'));
}

function filterAddress(s: string): Uint8Array | string {
  const b = hexBytes(s);
  if (typeof b === 'string') return b;
  return b.length === 20 ? b : `hex has invalid length ${b.length} after decoding; expected 20 for address`;
}

function filterTopic(s: string, i: number): Uint8Array {
  const b = hexBytes(s);
  if (typeof b === 'string') bad(i, b);
  if (b.length !== 32) bad(i, `hex has invalid length ${b.length} after decoding; expected 32 for topic`);
  return b;
}

function filterBlock(v: unknown, i: number): bigint {
  if (v === 'accepted' || v === 'finalized') return BLOCK_TAG.finalized;
  if (v === 'safe' || v === 'latest' || v === 'pending') return BLOCK_TAG[v];
  if (v === 'earliest') return 0n;
  const ref = blockRef([v], 0);
  if (ref.kind !== 'number') bad(i, 'invalid block number');
  return ref.number;
}

/**
 * Parses an eth_getLogs / eth_newFilter / logs-subscription object as coreth's
 * `FilterCriteria.UnmarshalJSON` does (its errors are `invalid argument N: …`). Tags stay tags:
 * each query resolves them against the chain as it is then.
 */
export function parseLogFilter(v: unknown, i: number): LogFilter {
  if (v === null) return { addresses: [], topics: [] }; // JSON null leaves the struct empty
  if (typeof v !== 'object' || Array.isArray(v))
    bad(i, `json: cannot unmarshal ${jsonKind(v)} into Go value of type filters.input`);
  const o = v as Record<string, unknown>;
  const addresses: Uint8Array[] = [];
  if (o.address != null) {
    if (typeof o.address === 'string') {
      const a = filterAddress(o.address);
      if (typeof a === 'string') bad(i, `invalid address: ${a}`);
      addresses.push(a);
    } else if (Array.isArray(o.address)) {
      if (o.address.length > 1000) bad(i, 'exceed max addresses');
      o.address.forEach((x: unknown, k) => {
        if (typeof x !== 'string') bad(i, `non-string address at index ${k}`);
        const a = filterAddress(x);
        if (typeof a === 'string') bad(i, `invalid address at index ${k}: ${a}`);
        addresses.push(a);
      });
    } else bad(i, 'invalid addresses in query');
  }
  const topics: (Uint8Array[] | null)[] = [];
  if (o.topics != null) {
    if (!Array.isArray(o.topics))
      bad(
        i,
        `json: cannot unmarshal ${jsonKind(o.topics)} into Go struct field input.topics of type []interface {}`,
      );
    for (const t of o.topics) {
      if (t === null) topics.push(null);
      else if (typeof t === 'string') topics.push([filterTopic(t, i)]);
      else if (Array.isArray(t)) {
        // A null among the alternatives makes the position a wildcard, as in coreth.
        let alternatives: Uint8Array[] | null = [];
        for (const x of t) {
          if (x === null) {
            alternatives = null;
            break;
          }
          if (typeof x !== 'string') bad(i, 'invalid topic(s)');
          alternatives.push(filterTopic(x, i));
        }
        topics.push(alternatives);
      } else bad(i, 'invalid topic(s)');
    }
  }
  if (o.blockHash != null) {
    if (o.fromBlock != null || o.toBlock != null)
      bad(i, 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    if (typeof o.blockHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(o.blockHash))
      bad(i, 'invalid block hash');
    const blockHash = Uint8Array.from(Buffer.from(o.blockHash.slice(2), 'hex'));
    return { addresses, topics, blockHash };
  }
  const fromBlock = o.fromBlock == null ? undefined : filterBlock(o.fromBlock, i);
  const toBlock = o.toBlock == null ? undefined : filterBlock(o.toBlock, i);
  return { fromBlock, toBlock, addresses, topics };
}

/**
 * Whether a filter may be installed (`eth_newFilter`, a logs subscription): coreth's
 * `SubscribeAcceptedLogs` takes these bound combinations and refuses the rest.
 */
export function checkFilterRange(f: LogFilter): void {
  const from = f.fromBlock ?? BLOCK_TAG.latest;
  const to = f.toBlock ?? BLOCK_TAG.latest;
  const { latest, pending } = BLOCK_TAG;
  if (
    (from === pending && to === pending) ||
    (from === latest && to === latest) ||
    (from >= 0n && to >= 0n && to >= from) ||
    (from >= latest && to === pending) ||
    (from >= 0n && to === latest)
  )
    return;
  throw new RpcError(RpcCode.server, 'invalid from and to block combination: from > to');
}

/** Whether an accepted log falls in a filter's numeric bounds (tags do not bound, as in coreth). */
export function inFilterRange(f: LogFilter, blockNumber: bigint): boolean {
  if (f.fromBlock !== undefined && f.fromBlock >= 0n && blockNumber < f.fromBlock) return false;
  if (f.toBlock !== undefined && f.toBlock >= 0n && blockNumber > f.toBlock) return false;
  return true;
}

/**
 * The logs a filter selects among accepted blocks, with coreth's checks and words (all -32000):
 * `eth_getLogs` (`getLogs`: topic count and numeric `from > to` first) and `eth_getFilterLogs`.
 */
export function queryLogs(chain: EvmChain, f: LogFilter, getLogs = true): Record<string, unknown>[] {
  if (getLogs && f.topics.length > 4) throw new RpcError(RpcCode.server, 'exceed max topics');
  const head = chain.latest.number;
  let begin: bigint;
  let end: bigint;
  if (f.blockHash) {
    const n = chain.store.numberOfHash(f.blockHash);
    if (n === undefined) throw new RpcError(RpcCode.server, 'unknown block');
    begin = end = n;
  } else {
    begin = f.fromBlock ?? BLOCK_TAG.latest;
    end = f.toBlock ?? BLOCK_TAG.latest;
    if (getLogs && begin > 0n && end > 0n && begin > end)
      throw new RpcError(RpcCode.server, 'invalid block range params');
    // Nothing past the last accepted block (coreth without allow-unfinalized-queries).
    if (begin >= 0n && begin > head)
      throw new RpcError(RpcCode.server, `requested from block ${begin} after last accepted block ${head}`);
    if (end >= 0n && end > head)
      throw new RpcError(RpcCode.server, `requested to block ${end} after last accepted block ${head}`);
    const { pending } = BLOCK_TAG;
    if (begin === pending && end !== pending)
      throw new RpcError(RpcCode.server, 'invalid block range params');
    if (begin === pending && end === pending) return []; // pending logs: there is no pending block
    const endSet = end >= 0n;
    // Every tag (latest, pending, accepted/finalized, safe) is the last accepted block here.
    if (begin < 0n) begin = head;
    if (end < 0n) end = head;
    if (endSet && end < begin)
      throw new RpcError(RpcCode.server, `begin block ${begin} is greater than end block ${end}`);
    if (end - begin >= MAX_LOG_BLOCK_RANGE)
      throw new RpcError(
        RpcCode.server,
        `requested too many blocks from ${begin} to ${end}, maximum is set to ${MAX_LOG_BLOCK_RANGE}`,
      );
  }
  // More topics than a log can carry (LOG4) match nothing.
  if (f.topics.length > 4) return [];
  const logs = chain.store.queryLogsHex({
    fromBlock: begin,
    toBlock: end,
    addresses: f.addresses,
    topics: f.topics,
    limit: MAX_LOGS,
  });
  if (logs.length > MAX_LOGS)
    throw new RpcError(RpcCode.server, `query returned more than ${MAX_LOGS} results`);
  const hashes = new Map<bigint, string>();
  return logs.map((l) => {
    let hash = hashes.get(l.blockNumber);
    if (!hash) {
      hash = h(chain.blockHashAt(l.blockNumber)!);
      hashes.set(l.blockNumber, hash);
    }
    return logHexJson(l, hash);
  });
}

export { logJson, headerJson };
