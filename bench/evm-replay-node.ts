/**
 * A JSON-RPC server that answers from blocks recorded as they were mined (block with
 * transactions, receipts, callTracer traces) and passes anything else (eth_call for token
 * metadata) to the upstream node. Every indexer in the EVM bench reads the same chain from it,
 * as fast as a local node can serve it: it answers the block, receipt, trace and log reads of
 * Flurry's indexer and of Ponder (eth_getLogs, by-hash lookups, block tags) from memory.
 */
import http from 'node:http';
import type net from 'node:net';
import { EvmRpcClient } from '../src/data/indexer/evm/rpc-client.js';

export interface RecordedBlock {
  block: { number: string; hash: string; transactions: { hash: string }[] } & Record<string, unknown>;
  receipts: { transactionHash: string; logs: RecordedLog[] }[];
  traces: unknown[];
}

interface RecordedLog {
  address: string;
  topics: string[];
  blockNumber: string;
}

export interface ReplayNode {
  url: string;
  /** performance.now() of the first request since the last reset, or undefined. */
  firstRequestAt(): number | undefined;
  /** Requests served per method since the last reset. */
  methods(): Record<string, number>;
  reset(): void;
  close(): void;
}

type Request = { id: unknown; method: string; params?: unknown[] };

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The recorded chain and the lookups an indexer's reads need. */
class RecordedChain {
  private readonly byHash = new Map<string, RecordedBlock>();
  private readonly receiptByTx = new Map<string, unknown>();

  constructor(
    private readonly blocks: RecordedBlock[],
    readonly chainId: number,
  ) {
    for (const b of blocks) {
      this.byHash.set(b.block.hash.toLowerCase(), b);
      for (const r of b.receipts) this.receiptByTx.set(r.transactionHash.toLowerCase(), r);
    }
  }

  get head(): number {
    return this.blocks.length - 1;
  }

  /** A block number, a block tag or (with byHash) a block hash, as the standard methods accept. */
  find(ref: unknown, byHash = false): RecordedBlock | undefined {
    if (typeof ref === 'object' && ref !== null) {
      const o = ref as { blockHash?: string; blockNumber?: string };
      return o.blockHash ? this.find(o.blockHash, true) : this.find(o.blockNumber);
    }
    if (typeof ref !== 'string') throw new RpcError(-32602, 'invalid block reference');
    if (byHash || ref.length === 66) return this.byHash.get(ref.toLowerCase());
    return this.blocks[this.number(ref)];
  }

  number(tag: unknown): number {
    if (tag === undefined || tag === 'latest' || tag === 'safe' || tag === 'finalized' || tag === 'pending')
      return this.head;
    if (tag === 'earliest') return 0;
    if (typeof tag !== 'string' || !/^0x[0-9a-f]+$/i.test(tag))
      throw new RpcError(-32602, 'invalid block tag');
    return Number(BigInt(tag));
  }

  receipt(hash: unknown): unknown {
    return typeof hash === 'string' ? (this.receiptByTx.get(hash.toLowerCase()) ?? null) : null;
  }

  logs(filter: {
    fromBlock?: string;
    toBlock?: string;
    blockHash?: string;
    address?: string | string[];
    topics?: (string | string[] | null)[];
  }): RecordedLog[] {
    const range = filter.blockHash
      ? [this.find(filter.blockHash, true)].filter((b) => b !== undefined)
      : this.blocks.slice(this.number(filter.fromBlock), this.number(filter.toBlock) + 1);
    const addresses =
      filter.address === undefined
        ? undefined
        : new Set(
            (Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => a.toLowerCase()),
          );
    const topics = (filter.topics ?? []).map((t) =>
      t === null ? undefined : new Set((Array.isArray(t) ? t : [t]).map((x) => x.toLowerCase())),
    );
    const out: RecordedLog[] = [];
    for (const b of range)
      for (const r of b.receipts)
        for (const log of r.logs) {
          if (addresses && !addresses.has(log.address.toLowerCase())) continue;
          if (topics.some((set, i) => set && !(log.topics[i] && set.has(log.topics[i].toLowerCase()))))
            continue;
          out.push(log);
        }
    return out;
  }
}

/** The answer to one recorded-chain method, or undefined when the upstream node must answer. */
function answerFromRecording(
  chain: RecordedChain,
  method: string,
  params: unknown[],
): { result: unknown } | undefined {
  const withTransactions = (b: RecordedBlock | undefined, full: unknown) =>
    b === undefined
      ? null
      : full
        ? b.block
        : { ...b.block, transactions: b.block.transactions.map((t) => t.hash) };
  switch (method) {
    case 'eth_chainId':
      return { result: '0x' + chain.chainId.toString(16) };
    case 'eth_blockNumber':
      return { result: '0x' + chain.head.toString(16) };
    case 'eth_getBlockByNumber':
      return { result: withTransactions(chain.find(params[0] ?? 'latest'), params[1]) };
    case 'eth_getBlockByHash':
      return { result: withTransactions(chain.find(params[0], true), params[1]) };
    case 'eth_getBlockReceipts':
      return { result: chain.find(params[0])?.receipts ?? null };
    case 'eth_getTransactionReceipt':
      return { result: chain.receipt(params[0]) };
    case 'eth_getLogs':
      return { result: chain.logs((params[0] ?? {}) as Parameters<RecordedChain['logs']>[0]) };
    case 'debug_traceBlockByNumber':
    case 'debug_traceBlockByHash': {
      const tracer = (params[1] as { tracer?: string } | undefined)?.tracer;
      if (tracer !== 'callTracer') return undefined;
      const b = chain.find(params[0], method === 'debug_traceBlockByHash');
      if (!b) throw new RpcError(-32000, 'block not found');
      return { result: b.traces };
    }
    default:
      return undefined;
  }
}

export async function startReplayNode(
  blocks: RecordedBlock[],
  chainId: number,
  upstream: string,
): Promise<ReplayNode> {
  const chain = new RecordedChain(blocks, chainId);
  const up = new EvmRpcClient(upstream);
  let first: number | undefined;
  let counts: Record<string, number> = {};
  const answer = async (req: Request) => {
    const params = req.params ?? [];
    counts[req.method] = (counts[req.method] ?? 0) + 1;
    try {
      const local = answerFromRecording(chain, req.method, params);
      if (local) return { jsonrpc: '2.0', id: req.id, result: local.result };
    } catch (e) {
      const code = e instanceof RpcError ? e.code : -32603;
      return { jsonrpc: '2.0', id: req.id, error: { code, message: (e as Error).message } };
    }
    const [o] = await up.batch([{ method: req.method, params }]);
    return o.ok
      ? { jsonrpc: '2.0', id: req.id, result: o.value }
      : { jsonrpc: '2.0', id: req.id, error: { code: o.error.code, message: o.error.message } };
  };
  const server = http.createServer((req, res) => {
    first ??= performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const out = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    firstRequestAt: () => first,
    methods: () => ({ ...counts }),
    reset: () => {
      first = undefined;
      counts = {};
    },
    close: () => server.close(),
  };
}
