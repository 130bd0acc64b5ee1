/**
 * Polling filters (`eth_newFilter`, `eth_newBlockFilter`, `eth_newPendingTransactionFilter`,
 * `eth_getFilterChanges`, `eth_getFilterLogs`, `eth_uninstallFilter`) and push subscriptions
 * (`eth_subscribe` newHeads / logs / newPendingTransactions over WebSocket). Both are fed by the
 * chain's accepted-block and pending-transaction events. Like geth, a filter nobody polls for
 * five minutes is removed.
 */
import { randomBytes } from 'node:crypto';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { AcceptedBlock, EvmChain } from '../evm-chain.js';
import type { StoredLog } from '../state/chain-store.js';
import { arity, bad, bool, jsonKind } from './args.js';
import { checkFilterRange, inFilterRange, parseLogFilter, queryLogs, type LogFilter } from './eth/logs.js';
import { decodeStoredTx, headerJson, logJson, txJson } from './format.js';

export const FILTER_TIMEOUT_MS = 5 * 60_000;

type Filter =
  | {
      kind: 'logs';
      criteria: LogFilter;
      logs: Record<string, unknown>[];
      lastPoll: number;
    }
  | { kind: 'blocks'; hashes: string[]; lastPoll: number }
  | { kind: 'pending'; hashes: string[]; full: boolean; lastPoll: number };

/** geth's rpc.NewID: 16 random bytes as an RPC quantity, so without leading zeros (`0x0` if all are). */
function newId(): string {
  return '0x' + (randomBytes(16).toString('hex').replace(/^0+/, '') || '0');
}

export function logMatches(
  f: { addresses: Uint8Array[]; topics: (Uint8Array[] | null)[] },
  l: StoredLog,
): boolean {
  // As coreth's filterLogs: a log with fewer topics than the filter lists (trailing nulls
  // included) does not match.
  if (f.topics.length > l.topics.length) return false;
  if (f.addresses.length && !f.addresses.some((a) => Buffer.from(a).equals(Buffer.from(l.address))))
    return false;
  for (let i = 0; i < f.topics.length; i++) {
    const alts = f.topics[i];
    if (!alts || alts.length === 0) continue;
    const t = l.topics[i];
    if (!t || !alts.some((a) => Buffer.from(a).equals(Buffer.from(t)))) return false;
  }
  return true;
}

/** A transaction in full, as coreth writes it for `fullTx`: NewRPCTransaction without a block. */
function txJsonOf(chain: EvmChain, hash: string): unknown {
  const pooled = chain.pool.get(hash);
  if (pooled) return txJson(pooled.tx, pooled.sender);
  const stored = chain.store.txByHash(hexToBytes(hash as `0x${string}`));
  return stored
    ? txJson(decodeStoredTx(chain.common, stored), bytesToHex(stored.sender), undefined, stored.hash)
    : hash;
}

export function createFilterApi(chain: EvmChain): { handlers: Record<string, EvmHandler>; close(): void } {
  const filters = new Map<string, Filter>();

  const onBlock = (b: AcceptedBlock) => {
    const hash = bytesToHex(b.hash);
    // One JSON object per log, shared by every filter it matches (geth's filters share one
    // *types.Log): a copy per filter made memory grow with filters × logs until they time out.
    const json: Record<string, unknown>[] = [];
    for (const f of filters.values()) {
      if (f.kind === 'blocks') f.hashes.push(hash);
      else if (f.kind === 'logs') {
        const c = f.criteria;
        if (!inFilterRange(c, b.number)) continue;
        b.logs.forEach((l, i) => {
          if (logMatches(c, l)) f.logs.push((json[i] ??= logJson(l, b.hash)));
        });
      }
    }
  };
  const onPending = (hash: string) => {
    for (const f of filters.values()) if (f.kind === 'pending') f.hashes.push(hash);
  };
  chain.on('block', onBlock);
  chain.on('pendingTx', onPending);
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, f] of filters) if (now - f.lastPoll > FILTER_TIMEOUT_MS) filters.delete(id);
  }, 30_000);
  sweeper.unref();

  /**
   * The filter id argument: geth's `rpc.ID` is a string type, so anything else fails to decode,
   * but a JSON null leaves it the empty id, which names no filter.
   */
  const filterId = (params: unknown[]): string => {
    arity(params, 1, 1);
    const id = params[0] ?? '';
    if (typeof id !== 'string') bad(0, `json: cannot unmarshal ${jsonKind(id)} into Go value of type rpc.ID`);
    return id;
  };
  const get = (params: unknown[]): [string, Filter] => {
    const id = filterId(params);
    const f = filters.get(id);
    if (!f) throw new RpcError(RpcCode.server, 'filter not found');
    return [id, f];
  };

  return {
    handlers: {
      eth_newFilter: (params) => {
        arity(params, 1, 1);
        const criteria = parseLogFilter(params[0], 0);
        checkFilterRange(criteria);
        const id = newId();
        filters.set(id, { kind: 'logs', criteria, logs: [], lastPoll: Date.now() });
        return id;
      },
      eth_newBlockFilter: (params) => {
        arity(params, 0);
        const id = newId();
        filters.set(id, { kind: 'blocks', hashes: [], lastPoll: Date.now() });
        return id;
      },
      eth_newPendingTransactionFilter: (params) => {
        arity(params, 1);
        const full = bool(params, 0); // geth's optional fullTx flag: polls return whole txs
        const id = newId();
        filters.set(id, { kind: 'pending', hashes: [], full, lastPoll: Date.now() });
        return id;
      },
      eth_getFilterChanges: (params) => {
        const [, f] = get(params);
        f.lastPoll = Date.now();
        if (f.kind === 'logs') return f.logs.splice(0);
        const hashes = f.hashes.splice(0);
        return f.kind === 'pending' && f.full ? hashes.map((hash) => txJsonOf(chain, hash)) : hashes;
      },
      eth_getFilterLogs: (params) => {
        const [, f] = get(params);
        if (f.kind !== 'logs') throw new RpcError(RpcCode.server, 'filter not found');
        // Not a poll: geth resets a filter's deadline in eth_getFilterChanges only, so a filter
        // read whole and never asked for its changes still expires (and stops collecting logs).
        // The criteria's tags resolve now, as coreth runs the filter's range again.
        return queryLogs(chain, f.criteria, false);
      },
      eth_uninstallFilter: (params) => {
        // A well-formed id of no filter is `false`; one of another JSON type is an argument error.
        return filters.delete(filterId(params));
      },
    },
    close() {
      clearInterval(sweeper);
      chain.off('block', onBlock);
      chain.off('pendingTx', onPending);
    },
  };
}

/**
 * `eth_subscribe` / `eth_unsubscribe`: only over a WebSocket connection, as in geth, and each
 * connection sees only its own subscriptions. Subscriptions: `newHeads`, `logs` (criteria
 * required), `newPendingTransactions` and coreth's `newAcceptedTransactions` (both with geth's
 * optional `fullTx` flag). Errors as geth's: -32601 for an unknown subscription name, -32602 for
 * bad arguments, -32000 `subscription not found` to unsubscribe an id this connection lacks.
 */
export function createSubscriptionApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_subscribe: (params, ctx) => {
      const conn = ctx.connection;
      if (!conn) throw new RpcError(RpcCode.methodNotFound, 'notifications not supported');
      const kind = params[0];
      if (typeof kind !== 'string')
        throw new RpcError(RpcCode.invalidParams, 'expected subscription name as first argument');
      const id = newId();
      // Notifications wait until the reply carrying the id has gone out (geth buffers them too).
      let buffered: unknown[] | undefined = [];
      const notify = (result: unknown) => {
        const message = { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } };
        if (buffered) buffered.push(message);
        else conn.send(message);
      };
      let off: () => void;
      if (kind === 'newHeads') {
        arity(params, 1);
        const fn = (b: AcceptedBlock) => {
          // The header as coreth/subnet-evm marshal it (HeaderSerializable), not an RPC block: no
          // size, uncles or totalDifficulty, and every optional field present, null when unset
          // (the Granite fields, before Granite).
          const json = headerJson(b.header, b.hash, 0, chain.config.atomicTxs);
          delete json.size;
          delete json.uncles;
          delete json.totalDifficulty;
          json.timestampMilliseconds ??= null;
          json.minDelayExcess ??= null;
          notify(json);
        };
        chain.on('block', fn);
        off = () => chain.off('block', fn);
      } else if (kind === 'logs') {
        arity(params, 2, 2); // a null criteria subscribes to every log, as in geth
        const criteria = parseLogFilter(params[1], 1);
        checkFilterRange(criteria);
        const fn = (b: AcceptedBlock) => {
          if (!inFilterRange(criteria, b.number)) return;
          for (const l of b.logs) if (logMatches(criteria, l)) notify(logJson(l, b.hash));
        };
        chain.on('block', fn);
        off = () => chain.off('block', fn);
      } else if (kind === 'newPendingTransactions') {
        arity(params, 2);
        const full = bool(params, 1);
        const fn = (hash: string) => notify(full ? txJsonOf(chain, hash) : hash);
        chain.on('pendingTx', fn);
        off = () => chain.off('pendingTx', fn);
      } else if (kind === 'newAcceptedTransactions') {
        arity(params, 2);
        const full = bool(params, 1);
        const fn = (b: AcceptedBlock) => {
          for (const t of b.txHashes) notify(full ? txJsonOf(chain, bytesToHex(t)) : bytesToHex(t));
        };
        chain.on('block', fn);
        off = () => chain.off('block', fn);
      } else {
        throw new RpcError(RpcCode.methodNotFound, `no "${kind}" subscription in eth namespace`);
      }
      conn.subscriptions.set(id, off);
      conn.afterReply(() => {
        const waiting = buffered ?? [];
        buffered = undefined;
        for (const m of waiting) conn.send(m);
      });
      return id;
    },
    eth_unsubscribe: (params, ctx) => {
      arity(params, 1, 1);
      const subs = ctx.connection?.subscriptions;
      const id = params[0] ?? ''; // geth decodes null into the empty id, which nobody holds
      if (typeof id !== 'string')
        bad(0, `json: cannot unmarshal ${jsonKind(id)} into Go value of type rpc.ID`);
      const off = subs?.get(id);
      if (!off) throw new RpcError(RpcCode.server, 'subscription not found');
      off();
      subs!.delete(id);
      return true;
    },
  };
}
