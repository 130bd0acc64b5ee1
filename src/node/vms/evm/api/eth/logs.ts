/**
 * Logs of accepted blocks: `eth_getLogs`, and the filter parsing and query that
 * `eth_newFilter`, `eth_getFilterLogs` and logs subscriptions share (filters.ts).
 */
import { RpcCode, RpcError } from '../../../../rpc/errors.js';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../../evm-chain.js';
import { arity, bad, blockNumberValue, jsonKind } from '../args.js';
import { h, logHexJson } from '../format.js';

/** The most logs one eth_getLogs answer may hold, and the widest block range (coreth's defaults). */
export const MAX_LOGS = 10_000;
export const MAX_LOG_BLOCK_RANGE = 100_000n;

export function createLogApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_getLogs: (params) => {
      arity(params, 1, 1);
      return queryLogs(chain, parseLogFilter(params[0], 0));
    },
  };
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
  // Every tag is handled above; what is left is rpc.BlockNumber's number (or its refusal).
  const ref = blockNumberValue(v, i);
  return ref.kind === 'number' ? ref.number : BLOCK_TAG.latest;
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
