/**
 * Polling filters (`eth_newFilter`, `eth_newBlockFilter`, `eth_newPendingTransactionFilter`,
 * `eth_getFilterChanges`, `eth_getFilterLogs`, `eth_uninstallFilter`) and push subscriptions
 * (`eth_subscribe` newHeads / logs / newPendingTransactions over WebSocket). Both are fed by the
 * chain's accepted-block and pending-transaction events. Like geth, a filter nobody polls for
 * five minutes is removed.
 */
import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { AcceptedBlock, EvmChain } from '../evm-chain.js';
import type { StoredLog } from '../state/chain-store.js';
import { arity, bad, bool } from './args.js';
import { parseLogFilter, queryLogs, type LogFilter } from './eth.js';
import { headerJson, logJson } from './format.js';

export const FILTER_TIMEOUT_MS = 5 * 60_000;

type Filter =
  | {
      kind: 'logs';
      criteria: LogFilter & { toTag?: string };
      logs: Record<string, unknown>[];
      lastPoll: number;
    }
  | { kind: 'blocks'; hashes: string[]; lastPoll: number }
  | { kind: 'pending'; hashes: string[]; lastPoll: number };

function newId(): string {
  return '0x' + randomBytes(16).toString('hex');
}

export function logMatches(
  f: { addresses: Uint8Array[]; topics: (Uint8Array[] | null)[] },
  l: StoredLog,
): boolean {
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

export function createFilterApi(chain: EvmChain): { handlers: Record<string, EvmHandler>; close(): void } {
  const filters = new Map<string, Filter>();

  const onBlock = (b: AcceptedBlock) => {
    const hash = bytesToHex(b.hash);
    for (const f of filters.values()) {
      if (f.kind === 'blocks') f.hashes.push(hash);
      else if (f.kind === 'logs') {
        const c = f.criteria;
        if (b.number < c.fromBlock) continue;
        if (c.toTag === undefined && b.number > c.toBlock) continue;
        for (const l of b.logs) if (logMatches(c, l)) f.logs.push(logJson(l, b.hash));
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

  const get = (params: unknown[]): [string, Filter] => {
    arity(params, 1, 1);
    const id = params[0];
    if (typeof id !== 'string') bad(0, 'invalid filter id');
    const f = filters.get(id);
    if (!f) throw new RpcError(RpcCode.server, 'filter not found');
    return [id, f];
  };

  return {
    handlers: {
      eth_newFilter: (params) => {
        arity(params, 1, 1);
        const criteria = parseLogFilter(chain, params[0], 0);
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
        bool(params, 0); // geth's optional fullTx flag: polls return hashes either way
        const id = newId();
        filters.set(id, { kind: 'pending', hashes: [], lastPoll: Date.now() });
        return id;
      },
      eth_getFilterChanges: (params) => {
        const [, f] = get(params);
        f.lastPoll = Date.now();
        if (f.kind === 'logs') return f.logs.splice(0);
        return f.hashes.splice(0);
      },
      eth_getFilterLogs: (params) => {
        const [, f] = get(params);
        if (f.kind !== 'logs') throw new RpcError(RpcCode.server, 'filter not found');
        f.lastPoll = Date.now();
        const c = f.criteria;
        return queryLogs(chain, { ...c, toBlock: c.toTag ? chain.latest.number : c.toBlock });
      },
      eth_uninstallFilter: (params) => {
        arity(params, 1, 1);
        return typeof params[0] === 'string' && filters.delete(params[0]);
      },
    },
    close() {
      clearInterval(sweeper);
      chain.off('block', onBlock);
      chain.off('pendingTx', onPending);
    },
  };
}

/** `eth_subscribe` / `eth_unsubscribe`: only over a WebSocket connection, as in geth. */
export function createSubscriptionApi(chain: EvmChain): Record<string, EvmHandler> {
  const subs = new Map<string, () => void>();
  return {
    eth_subscribe: (params, ctx) => {
      const conn = ctx.connection;
      if (!conn) throw new RpcError(RpcCode.methodNotFound, 'notifications not supported');
      if (params.length === 0)
        throw new RpcError(RpcCode.invalidParams, 'missing value for required argument 0');
      const kind = params[0];
      const id = newId();
      const notify = (result: unknown) =>
        conn.send({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } });
      let off: () => void;
      if (kind === 'newHeads') {
        const fn = (b: AcceptedBlock) => {
          const json = headerJson(b.header, b.hash, 0);
          delete json.size;
          delete json.uncles;
          delete json.totalDifficulty;
          notify(json);
        };
        chain.on('block', fn);
        off = () => chain.off('block', fn);
      } else if (kind === 'logs') {
        const criteria =
          params[1] === undefined ? { addresses: [], topics: [] } : parseLogFilter(chain, params[1], 1);
        const fn = (b: AcceptedBlock) => {
          for (const l of b.logs) if (logMatches(criteria, l)) notify(logJson(l, b.hash));
        };
        chain.on('block', fn);
        off = () => chain.off('block', fn);
      } else if (kind === 'newPendingTransactions') {
        const fn = (hash: string) => notify(hash);
        chain.on('pendingTx', fn);
        off = () => chain.off('pendingTx', fn);
      } else {
        throw new RpcError(RpcCode.invalidParams, `no "${String(kind)}" subscription in eth namespace`);
      }
      subs.set(id, off);
      conn.onClose(() => {
        off();
        subs.delete(id);
      });
      return id;
    },
    eth_unsubscribe: (params) => {
      arity(params, 1, 1);
      const off = typeof params[0] === 'string' ? subs.get(params[0]) : undefined;
      if (!off) return false;
      off();
      subs.delete(params[0] as string);
      return true;
    },
  };
}
