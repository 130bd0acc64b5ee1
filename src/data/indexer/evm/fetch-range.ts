/**
 * Reads a range of blocks from a standard EVM node with batched JSON-RPC: blocks with their
 * transactions, receipts (eth_getBlockReceipts, or per transaction where the node lacks it) and
 * callTracer traces (debug_traceBlockByNumber; when the node refuses tracing, internal
 * transactions are skipped and the caller is told so).
 *
 * A block's three calls go in the same batch, so following the head costs one HTTP exchange per
 * range instead of three (the exchange, not the calls, is most of the cost for small ranges).
 * The answers for blocks without transactions are not used: a node may refuse to trace some
 * (geth and Flurry refuse the genesis block).
 */
import type { CallFrame, RawBlock, RawReceipt } from './decode-block.js';
import {
  RpcCallError,
  unwrapAll,
  type EvmRpcClient,
  type RpcOutcome,
  type RpcRequest,
} from './rpc-client.js';

export interface FetchedBlock {
  block: RawBlock;
  receipts: RawReceipt[];
  traces: (CallFrame | null)[] | null;
}

export interface FetchCapabilities {
  blockReceipts: boolean;
  tracing: boolean;
}

type TraceList = { result?: CallFrame; txHash?: string }[];

const hex = (n: number) => '0x' + n.toString(16);
const METHOD_NOT_FOUND = -32601;

export async function fetchRange(
  rpc: EvmRpcClient,
  from: number,
  to: number,
  caps: FetchCapabilities,
  onTracingUnavailable: (err: RpcCallError) => void,
): Promise<FetchedBlock[]> {
  const numbers: number[] = [];
  for (let n = from; n <= to; n++) numbers.push(n);
  const withReceipts = caps.blockReceipts;
  const withTraces = caps.tracing;
  const requests: RpcRequest[] = [];
  for (const n of numbers) {
    requests.push({ method: 'eth_getBlockByNumber', params: [hex(n), true] });
    if (withReceipts) requests.push({ method: 'eth_getBlockReceipts', params: [hex(n)] });
    if (withTraces)
      requests.push({ method: 'debug_traceBlockByNumber', params: [hex(n), { tracer: 'callTracer' }] });
  }
  const outcomes = await rpc.batch(requests);
  const stride = 1 + (withReceipts ? 1 : 0) + (withTraces ? 1 : 0);
  const at = (i: number, k: number) => outcomes[i * stride + k];

  const blocks = numbers.map((n, i) => {
    const [b] = unwrapAll([at(i, 0) as RpcOutcome<RawBlock | null>]);
    if (!b) throw new RpcCallError('eth_getBlockByNumber', -32000, `block ${n} not found`);
    return b;
  });
  const busy = blocks.map((b, i) => ({ b, i })).filter(({ b }) => b.transactions.length > 0);

  const receipts = new Map<string, RawReceipt[]>();
  if (withReceipts) {
    const answers = busy.map(({ i }) => at(i, 1) as RpcOutcome<RawReceipt[]>);
    if (answers.some((o) => !o.ok && o.error.code === METHOD_NOT_FOUND)) caps.blockReceipts = false;
    else unwrapAll(answers).forEach((r, k) => receipts.set(busy[k].b.hash, r));
  }
  if (!caps.blockReceipts && busy.length > 0) {
    const txs = busy.flatMap(({ b }) => b.transactions.map((t) => ({ block: b.hash, hash: t.hash })));
    const all = unwrapAll(
      await rpc.batch<RawReceipt>(
        txs.map((t) => ({ method: 'eth_getTransactionReceipt', params: [t.hash] })),
      ),
    );
    all.forEach((r, i) => {
      const list = receipts.get(txs[i].block) ?? [];
      list.push(r);
      receipts.set(txs[i].block, list);
    });
  }

  const traces = new Map<string, (CallFrame | null)[]>();
  if (withTraces) {
    const answers = busy.map(({ i }) => at(i, stride - 1) as RpcOutcome<TraceList>);
    const failed = answers.find((o) => !o.ok);
    if (failed && !failed.ok && failed.error.code === METHOD_NOT_FOUND) {
      // The node does not serve the debug namespace: index everything else.
      caps.tracing = false;
      onTracingUnavailable(failed.error);
    } else {
      unwrapAll(answers).forEach((list, k) => {
        const { b } = busy[k];
        if (!Array.isArray(list) || list.length !== b.transactions.length)
          throw new RpcCallError(
            'debug_traceBlockByNumber',
            -32000,
            `block ${b.number}: trace count mismatch`,
          );
        traces.set(
          b.hash,
          list.map((t) => t?.result ?? null),
        );
      });
    }
  }

  return blocks.map((block) => ({
    block,
    receipts: receipts.get(block.hash) ?? [],
    traces: block.transactions.length === 0 ? [] : (traces.get(block.hash) ?? null),
  }));
}
