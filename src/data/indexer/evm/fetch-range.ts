/**
 * Reads a range of blocks from a standard EVM node with batched JSON-RPC: blocks with their
 * transactions, receipts (eth_getBlockReceipts, or per transaction where the node lacks it) and
 * callTracer traces (debug_traceBlockByNumber; when the node refuses tracing, internal
 * transactions are skipped and the caller is told so).
 */
import type { CallFrame, RawBlock, RawReceipt } from './decode-block.js';
import { RpcCallError, unwrapAll, type EvmRpcClient } from './rpc-client.js';

export interface FetchedBlock {
  block: RawBlock;
  receipts: RawReceipt[];
  traces: (CallFrame | null)[] | null;
}

export interface FetchCapabilities {
  blockReceipts: boolean;
  tracing: boolean;
}

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
  const blocks = unwrapAll(
    await rpc.batch<RawBlock | null>(
      numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [hex(n), true] })),
    ),
  );
  blocks.forEach((b, i) => {
    if (!b) throw new RpcCallError('eth_getBlockByNumber', -32000, `block ${numbers[i]} not found`);
  });
  const busy = (blocks as RawBlock[]).filter((b) => b.transactions.length > 0);

  const receipts = new Map<string, RawReceipt[]>();
  if (caps.blockReceipts && busy.length > 0) {
    const outcomes = await rpc.batch<RawReceipt[]>(
      busy.map((b) => ({ method: 'eth_getBlockReceipts', params: [b.number] })),
    );
    if (outcomes.some((o) => !o.ok && o.error.code === METHOD_NOT_FOUND)) caps.blockReceipts = false;
    else unwrapAll(outcomes).forEach((r, i) => receipts.set(busy[i].hash, r));
  }
  if (!caps.blockReceipts && busy.length > 0) {
    const txs = busy.flatMap((b) => b.transactions.map((t) => ({ block: b.hash, hash: t.hash })));
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
  if (caps.tracing && busy.length > 0) {
    const outcomes = await rpc.batch<{ result?: CallFrame; txHash?: string }[]>(
      busy.map((b) => ({ method: 'debug_traceBlockByNumber', params: [b.number, { tracer: 'callTracer' }] })),
    );
    const failed = outcomes.find((o) => !o.ok);
    if (failed && !failed.ok && failed.error.code === METHOD_NOT_FOUND) {
      // The node does not serve the debug namespace: index everything else.
      caps.tracing = false;
      onTracingUnavailable(failed.error);
    } else {
      unwrapAll(outcomes).forEach((list, i) => {
        const b = busy[i];
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

  return (blocks as RawBlock[]).map((block) => ({
    block,
    receipts: receipts.get(block.hash) ?? [],
    traces: block.transactions.length === 0 ? [] : (traces.get(block.hash) ?? null),
  }));
}
