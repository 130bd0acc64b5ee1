/**
 * The `debug_` namespace (on in the devnet, off with `--debug-api false` like the public node):
 * transaction, block and call traces with geth's `callTracer` or the default struct logger,
 * computed by replaying the block on a throwaway copy of its parent's state.
 */
import type { TransactionType, TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { encodeReceipt, type RunTxResult } from '@ethereumjs/vm';
import type { Log } from '@ethereumjs/evm';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { callTracerConfig, isJsTracer, makeTracer, type Tracer } from '../trace/tracers.js';
import { JsTracerError } from '../trace/js-tracer.js';
import { decodeGoStruct, type GoField } from '../trace/go-json.js';
import type { TraceContext } from '../trace/flat-call-tracer.js';
import { arity, bad, blockNumberRef, blockRef, data, hash, type BlockRef } from './args.js';
import { blockReplay, replayOf, type BlockReplay, type ReplayTx } from './block-replay.js';
import { decodeRlpBlock, type RlpBlock } from './block-rlp.js';
import { storageRangeAt } from './storage-range.js';
import { CallTimeout, parseGoDuration, withDeadline } from './call-deadline.js';
import {
  callGas,
  gethTxError,
  parseBlockOverrides,
  parseCallArgs,
  parseStateOverrides,
  prepareCall,
} from './call.js';
import { resolveBlockNumber, stateBlockOf } from './eth/block-ref.js';
import { rawTxByHash, txBloom } from './eth/blocks.js';
import { txTypeAndTo } from './format.js';
import { replayTx } from './replay-tx.js';

/**
 * geth's TraceConfig fields (eth/tracers/api.go: an embedded *logger.Config, Tracer, Timeout,
 * Reexec, the raw TracerConfig), none with a JSON tag: Go matches them by their Go names,
 * case-insensitively, and names them so in its errors.
 */
const TRACE_CONFIG: GoField[] = [
  { name: 'enableMemory', path: 'Config.EnableMemory', type: 'bool' },
  { name: 'disableStack', path: 'Config.DisableStack', type: 'bool' },
  { name: 'disableStorage', path: 'Config.DisableStorage', type: 'bool' },
  { name: 'enableReturnData', path: 'Config.EnableReturnData', type: 'bool' },
  { name: 'debug', path: 'Config.Debug', type: 'bool' },
  { name: 'limit', path: 'Config.Limit', type: 'int' },
  { name: 'tracer', path: 'Tracer', type: 'string' },
  { name: 'timeout', path: 'Timeout', type: 'string' },
  { name: 'reexec', path: 'Reexec', type: 'uint64' },
];
/** debug_traceCall's TraceCallConfig embeds the TraceConfig. */
const TRACE_CALL_CONFIG: GoField[] = TRACE_CONFIG.map((f) => ({ ...f, path: `TraceConfig.${f.path}` }));

/** A trace config decoded as geth's RPC layer decodes the argument: a wrong type is -32602. */
type TraceConfig = Record<string, unknown>;
function traceConfigOf(params: unknown[], i: number, call = false): TraceConfig {
  try {
    return call
      ? decodeGoStruct(params[i], 'tracers.TraceCallConfig', TRACE_CALL_CONFIG, params)
      : decodeGoStruct(params[i], 'tracers.TraceConfig', TRACE_CONFIG, params);
  } catch (err) {
    bad(i, (err as Error).message);
  }
}

/**
 * The tracer a decoded config names; a tracer it names wrongly, or JavaScript that does not
 * evaluate, is coreth's -32000 (a JavaScript tracer's code runs within the trace's timeout;
 * a timeout Go cannot parse is refused where the trace reads it, after the tracer is made).
 */
function tracerFrom(cfg: TraceConfig, ctx?: TraceContext): Tracer {
  try {
    let jsTimeoutMs = DEFAULT_TRACE_TIMEOUT_MS;
    try {
      jsTimeoutMs = traceTimeoutOf(cfg);
    } catch {
      // Refused later, as coreth parses the timeout after making the tracer.
    }
    return makeTracer(cfg, ctx, jsTimeoutMs);
  } catch (err) {
    // A JavaScript tracer's error is already in its words (the endpoint answers it with -32000).
    if (err instanceof JsTracerError) throw err;
    throw new RpcError(RpcCode.server, (err as Error).message);
  }
}

/**
 * Checks a block trace's tracer before tracing: coreth makes a JavaScript tracer for each
 * transaction, so its errors are each transaction's; a native one's fail the request.
 */
function checkBlockTracer(cfg: TraceConfig): void {
  if (!isJsTracer(cfg)) tracerFrom(cfg);
}

/** coreth's defaultTraceTimeout: how long one transaction's trace may run unless told otherwise. */
const DEFAULT_TRACE_TIMEOUT_MS = 5_000;
/** The reason geth's tracers stop with when a trace's timeout passes. */
const TRACE_TIMEOUT = 'execution timeout';

/**
 * The trace config's `timeout` (a Go duration, `"5s"` when absent), in ms. Go's deadline of zero
 * or less has already passed; withDeadline reads 0 as none, so it is made the smallest delay.
 */
function traceTimeoutOf(cfg: TraceConfig): number {
  const value = cfg.timeout as string | undefined;
  if (value === undefined) return DEFAULT_TRACE_TIMEOUT_MS;
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (err) {
    throw new RpcError(RpcCode.server, (err as Error).message);
  }
  return ms > 0 ? ms : Number.MIN_VALUE;
}

/** One transaction's place in a block trace: its result, or why its trace stopped. */
type TxTrace = { txHash: string; result: unknown } | { txHash: string; error: string };

/** Accepted block `n` set up for replay, refused in coreth's words when it cannot be. */
function acceptedReplay(chain: EvmChain, n: bigint): BlockReplay {
  if (n === 0n) throw new RpcError(RpcCode.server, 'genesis is not traceable');
  const replay = blockReplay(chain, n);
  if (!replay) throw new RpcError(RpcCode.server, `block #${n} not found`);
  return replay;
}

/**
 * Traces a replayed block's transactions that `want` selects. A trace cut off by its timeout is
 * that transaction's `error`, as in coreth's block tracers, and the block goes on from the
 * transaction's real outcome. A transaction the state refuses (only a block the chain never
 * accepted can hold one) fails the whole trace, as coreth's traceTx does.
 */
async function traceReplay(
  chain: EvmChain,
  replay: BlockReplay,
  want: (index: number) => boolean,
  newTracer: (ctx: TraceContext) => Tracer,
  timeoutMs: number,
): Promise<TxTrace[]> {
  let { vm } = await replay.fresh();
  const out: TxTrace[] = [];
  let gasUsed = 0n;
  const last = replay.txs.reduce((m, t) => (want(t.index) ? t.index : m), -1);
  const run = async (t: ReplayTx, tx: TypedTransaction, traced: boolean) => {
    try {
      return traced
        ? await withDeadline(vm, timeoutMs, () => replay.execute(vm, tx, gasUsed))
        : await replay.execute(vm, tx, gasUsed);
    } catch (err) {
      if (err instanceof CallTimeout || err instanceof RpcError) throw err;
      throw new RpcError(RpcCode.server, `tracing failed: ${gethTxError(err as Error, t.sender)}`);
    }
  };
  for (const t of replay.txs) {
    if (t.index > last) break;
    const txHash = bytesToHex(t.hash);
    const tx = replayTx(chain.common, t);
    if (!want(t.index)) {
      gasUsed += (await run(t, tx, false)).totalGasSpent;
      continue;
    }
    let tracer: Tracer;
    try {
      tracer = newTracer({
        blockHash: bytesToHex(replay.hash),
        blockNumber: replay.number,
        txHash,
        txIndex: t.index,
      });
    } catch (err) {
      // A JavaScript tracer that does not evaluate fails each transaction's trace, not the block's.
      if (!(err instanceof JsTracerError)) throw err;
      out.push({ txHash, error: err.message });
      gasUsed += (await run(t, tx, false)).totalGasSpent;
      continue;
    }
    tracer.attach(vm);
    let result: RunTxResult;
    try {
      result = await run(t, tx, true);
    } catch (err) {
      tracer.detach(vm);
      if (!(err instanceof CallTimeout)) throw err;
      out.push({ txHash, error: tracer.abortReason?.() ?? TRACE_TIMEOUT });
      // The aborted run left the engine's frames open: the block so far is replayed, untraced
      // and unhurried, on a fresh copy of the parent state.
      ({ vm } = await replay.fresh());
      gasUsed = await replay.runPrefix(vm, t.index + 1);
      continue;
    }
    tracer.detach(vm);
    gasUsed += result.totalGasSpent;
    try {
      out.push({ txHash, result: tracer.result(tx, bytesToHex(t.sender), result) });
    } catch (err) {
      if (!(err instanceof JsTracerError)) throw err;
      out.push({ txHash, error: err.message });
    }
  }
  return out;
}

export function createDebugApi(chain: EvmChain): Record<string, EvmHandler> {
  const blockNamed = (ref: BlockRef) => {
    const n = resolveBlockNumber(chain, ref);
    if (n === undefined) throw new RpcError(RpcCode.server, 'block not found');
    return n;
  };
  /** The call traces recorded when block `n` was built, for a plain callTracer request. */
  const recorded = (cfg: TraceConfig, n: bigint) => {
    if (cfg.tracer !== 'callTracer') return undefined;
    const { onlyTopCall, withLog } = callTracerConfig(cfg.tracerConfig);
    const traces = onlyTopCall || withLog ? undefined : chain.recentCallTraces.get(n);
    return traces ? structuredClone(traces) : undefined;
  };
  /** A whole block's traces: the recorded ones when they answer, else a replay. */
  const traceWholeBlock = async (n: bigint, cfg: TraceConfig, timeoutMs: number) =>
    recorded(cfg, n) ??
    traceReplay(
      chain,
      acceptedReplay(chain, n),
      () => true,
      (ctx) => tracerFrom(cfg, ctx),
      timeoutMs,
    );
  return {
    debug_traceTransaction: async (params) => {
      arity(params, 2, 1);
      const txHash = hash(params, 0);
      const cfg = traceConfigOf(params, 1);
      const stored = chain.store.txByHash(txHash);
      if (!stored) throw new RpcError(RpcCode.server, 'transaction not found');
      const replay = acceptedReplay(chain, stored.blockNumber);
      // coreth's traceTx makes the transaction's tracer once (a JavaScript tracer's setup runs
      // once), before it reads the timeout: its errors come first, and the replay reuses it.
      const tracer = tracerFrom(cfg, {
        blockHash: bytesToHex(replay.hash),
        blockNumber: replay.number,
        txHash: bytesToHex(txHash),
        txIndex: stored.index,
      });
      const [trace] = await traceReplay(
        chain,
        replay,
        (i) => i === stored.index,
        () => tracer,
        traceTimeoutOf(cfg),
      );
      if ('error' in trace) throw new RpcError(RpcCode.server, trace.error);
      return trace.result;
    },
    debug_traceBlockByNumber: async (params) => {
      arity(params, 2, 1); // a null block number is hex text to rpc.BlockNumber
      const ref = blockNumberRef(params, 0);
      const cfg = traceConfigOf(params, 1);
      checkBlockTracer(cfg);
      const timeoutMs = traceTimeoutOf(cfg);
      return traceWholeBlock(blockNamed(ref), cfg, timeoutMs);
    },
    debug_traceBlockByHash: async (params) => {
      arity(params, 2, 1);
      const blockHash = hash(params, 0);
      const cfg = traceConfigOf(params, 1);
      checkBlockTracer(cfg);
      const timeoutMs = traceTimeoutOf(cfg);
      const n = chain.store.numberOfHash(blockHash);
      if (n === undefined) throw new RpcError(RpcCode.server, 'block not found');
      return traceWholeBlock(n, cfg, timeoutMs);
    },
    /**
     * A block given as its RLP encoding, replayed on its parent's state as coreth's TraceBlock
     * does: the parent must be held, the block need not be (nothing of it is kept).
     */
    debug_traceBlock: async (params) => {
      arity(params, 2, 1);
      const blob = data(params, 0);
      const cfg = traceConfigOf(params, 1);
      checkBlockTracer(cfg);
      const timeoutMs = traceTimeoutOf(cfg);
      const block = decodeRlpBlock(chain.common, blob);
      // An accepted block, byte for byte: its recorded traces may answer.
      const held = chain.store.numberOfHash(block.hash);
      if (held !== undefined && held !== 0n && equalsBytes(chain.store.blockByNumber(held)!.bytes, blob))
        return traceWholeBlock(held, cfg, timeoutMs);
      const replay = replayOf(chain, { ...block, parent: parentOfRlpBlock(chain, block) });
      return traceReplay(
        chain,
        replay,
        () => true,
        (ctx) => tracerFrom(cfg, ctx),
        timeoutMs,
      );
    },
    // The node keeps no bad blocks (every block it holds was built and accepted by itself).
    debug_getBadBlocks: (params) => {
      arity(params, 0);
      return [];
    },
    debug_traceBadBlock: (params) => {
      arity(params, 2, 1);
      const blockHash = hash(params, 0);
      tracerFrom(traceConfigOf(params, 1));
      throw new RpcError(RpcCode.server, `bad block ${bytesToHex(blockHash)} not found`);
    },
    /** The state root after each of a block's transactions (coreth's IntermediateRoots). */
    debug_intermediateRoots: async (params) => {
      arity(params, 2, 1);
      const blockHash = hash(params, 0);
      const n = chain.store.numberOfHash(blockHash);
      if (n === undefined) throw new RpcError(RpcCode.server, `block ${bytesToHex(blockHash)} not found`);
      if (n === 0n) throw new RpcError(RpcCode.server, 'genesis is not traceable');
      const replay = blockReplay(chain, n)!;
      const { vm, state } = await replay.fresh();
      const roots: string[] = [];
      let gasUsed = 0n;
      for (const t of replay.txs) {
        gasUsed += (await replay.execute(vm, replayTx(chain.common, t), gasUsed)).totalGasSpent;
        roots.push(bytesToHex(await state.getStateRoot()));
      }
      return roots;
    },
    debug_traceCall: async (params) => {
      // The block is a BlockNumberOrHash, no pointer: required, and a null names no block.
      arity(params, 3, 2);
      const args = parseCallArgs(params[0], 0);
      const ref = blockRef(params, 1);
      if (ref.kind === 'tag' && ref.tag === 'pending')
        throw new RpcError(RpcCode.server, 'tracing on top of pending is not supported');
      const n = resolveBlockNumber(chain, ref);
      // coreth's blockByHash / blockByNumber refusals.
      if (n === undefined)
        throw new RpcError(
          RpcCode.server,
          ref.kind === 'hash' ? `block ${bytesToHex(ref.hash)} not found` : 'cannot query unfinalized data',
        );
      const cfg = traceConfigOf(params, 2, true);
      const tracer = tracerFrom(cfg);
      const call = await prepareCall(
        chain,
        args,
        n,
        parseStateOverrides(cfg.stateOverrides, 2),
        parseBlockOverrides(cfg.blockOverrides, 2),
      );
      const gas = callGas(args);
      const timeoutMs = traceTimeoutOf(cfg);
      tracer.attach(call.vm);
      let run: RunTxResult;
      try {
        run = await call.run(gas, timeoutMs);
      } catch (err) {
        if (err instanceof CallTimeout)
          throw new RpcError(RpcCode.server, tracer.abortReason?.() ?? TRACE_TIMEOUT);
        // coreth's traceTx wraps a refused message this way.
        throw new RpcError(RpcCode.server, `tracing failed: ${gethTxError(err as Error, args.from)}`);
      } finally {
        tracer.detach(call.vm);
      }
      try {
        return tracer.result(call.tx(gas), bytesToHex(args.from ?? new Uint8Array(20)), run);
      } catch (err) {
        if (err instanceof JsTracerError) throw new RpcError(RpcCode.server, err.message);
        throw err;
      }
    },
    debug_storageRangeAt: storageRangeAt(chain),
    debug_getRawBlock: (params) => {
      arity(params, 1, 1);
      const b = chain.store.blockByNumber(blockNamed(blockRef(params, 0)));
      if (!b) throw new RpcError(RpcCode.server, 'block not found');
      return bytesToHex(b.bytes);
    },
    debug_getRawHeader: (params) => {
      arity(params, 1, 1);
      const b = chain.store.blockByNumber(blockNamed(blockRef(params, 0)));
      if (!b) throw new RpcError(RpcCode.server, 'block not found');
      return bytesToHex(b.header);
    },
    debug_getRawTransaction: (params) => {
      arity(params, 1, 1);
      return rawTxByHash(chain, hash(params, 0));
    },
    /** The block's receipts in their consensus encoding (what its receiptsRoot commits to). */
    debug_getRawReceipts: (params) => {
      arity(params, 1, 1);
      const ref = blockRef(params, 0);
      // An unknown hash is null, as coreth finds no receipts for it; a number past the head is
      // refused as every read past the last accepted block.
      const n = ref.kind === 'hash' ? chain.store.numberOfHash(ref.hash) : stateBlockOf(chain, ref);
      return n === undefined ? null : rawReceiptsOf(chain, n);
    },
  };
}

/**
 * The accepted block an RLP-encoded block is replayed on, found as coreth's traceBlock finds
 * it (blockByNumberAndHash: the block at number - 1 when its hash is the parent hash, else the
 * block of that hash), refused in its words.
 */
function parentOfRlpBlock(chain: EvmChain, block: RlpBlock): bigint {
  const number = block.header.number;
  if (number === 0n) throw new RpcError(RpcCode.server, 'genesis is not traceable');
  if (number - 1n > chain.latest.number)
    throw new RpcError(RpcCode.server, `block #${number - 1n} not found`);
  const parent = chain.store.numberOfHash(block.parentHash);
  if (parent === undefined)
    throw new RpcError(RpcCode.server, `block ${bytesToHex(block.parentHash)} not found`);
  return parent;
}

/** Each receipt of block `n` as encodeReceipt writes it when the block is built. */
function rawReceiptsOf(chain: EvmChain, n: bigint): string[] {
  const logs = chain.store.logsOfBlock(n);
  return chain.store.txsOfBlock(n).map((t) => {
    const own = logs.filter((l) => l.txIndex === t.index);
    const receipt = {
      status: t.status as 0 | 1,
      cumulativeBlockGasUsed: t.cumulativeGasUsed,
      bitvector: txBloom(chain.common, own),
      logs: own.map((l) => [l.address, l.topics, l.data] as Log),
    };
    return bytesToHex(encodeReceipt(receipt, txTypeAndTo(t.raw).type as TransactionType));
  });
}
