/**
 * geth's `flatCallTracer` (coreth ships libevm's): the callTracer's tree flattened into Parity's
 * `trace_` list, one entry per frame in depth-first order, each with its `traceAddress` (the
 * child indexes leading to it) and `subtraces`, and the block and transaction it belongs to.
 * Explorers in the Blockscout mould read internal transactions this way.
 */
import type { VM } from '@ethereumjs/vm';
import type { RunTxResult } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { isStatefulPrecompile } from '../precompiles/bind.js';
import { CallTracer, type CallFrame, type Tracer } from './tracers.js';

/** Where a traced transaction sits (geth's tracers.Context); empty for `debug_traceCall`. */
export interface TraceContext {
  blockHash?: string;
  blockNumber?: bigint;
  txHash?: string;
  txIndex?: number;
}

export interface FlatCallConfig {
  convertParityErrors?: boolean;
  includePrecompiles?: boolean;
}

/** geth's parityErrorMapping: its error texts as Parity words them. */
const PARITY_ERRORS: Record<string, string> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
};
/** geth's parityErrorMappingStartingWith. */
const PARITY_ERROR_PREFIXES: [string, string][] = [
  ['invalid opcode', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
];

/** One entry, its keys in geth's order (JSON of flatCallFrame / flatCallAction / flatCallResult). */
export interface FlatCallFrame {
  action: Record<string, string>;
  blockHash: string | null;
  blockNumber: number;
  error?: string;
  result?: Record<string, string>;
  subtraces: number;
  traceAddress: number[];
  transactionHash: string | null;
  transactionPosition: number;
  type: string;
}

export class FlatCallTracer implements Tracer {
  private readonly inner = new CallTracer();
  private precompiled: (address: string) => boolean = () => false;

  constructor(
    private readonly config: FlatCallConfig,
    private readonly ctx: TraceContext,
  ) {}

  attach(vm: VM): void {
    const evm = vm.evm as unknown as { getPrecompile?: (a: `0x${string}`) => unknown };
    // geth's vm.ActivePrecompiles(rules): the engine's precompiles but the stateful modules.
    this.precompiled = (a) => {
      const fn = evm.getPrecompile?.(a as `0x${string}`);
      return fn !== undefined && !isStatefulPrecompile(fn);
    };
    this.inner.attach(vm);
  }

  detach(vm: VM): void {
    this.inner.detach(vm);
  }

  result(tx: TypedTransaction, from: string, run: RunTxResult): FlatCallFrame[] {
    const root = this.inner.result(tx, from, run);
    const out: FlatCallFrame[] = [];
    this.flatten(root, [], out);
    return out;
  }

  private flatten(frame: CallFrame, traceAddress: number[], out: FlatCallFrame[]): void {
    // Parity leaves out plain and static calls to precompiles (geth drops them as they exit,
    // so they count in no `subtraces`); the transaction's own call is always kept.
    const calls = (frame.calls ?? []).filter(
      (c) =>
        this.config.includePrecompiles ||
        !((c.type === 'CALL' || c.type === 'STATICCALL') && c.to && this.precompiled(c.to)),
    );
    const entry = this.entryOf(frame);
    entry.subtraces = calls.length;
    entry.traceAddress = traceAddress;
    out.push(entry);
    calls.forEach((c, i) => this.flatten(c, [...traceAddress, i], out));
  }

  private entryOf(frame: CallFrame): FlatCallFrame {
    const ctx = this.ctx;
    let action: Record<string, string>;
    let result: Record<string, string> | undefined;
    let type: string;
    // A frame entered without a value (a STATICCALL) still shows one in a flat trace.
    const value = frame.value ?? '0x0';
    if (frame.type === 'SELFDESTRUCT') {
      type = 'suicide';
      action = { address: frame.from, balance: value, refundAddress: frame.to! };
    } else if (frame.type === 'CREATE' || frame.type === 'CREATE2') {
      type = 'create';
      action = { from: frame.from, gas: frame.gas, init: frame.input, value };
      // A failed creation has no address (callTracer drops its `to`).
      result = frame.error ? {} : { address: frame.to! };
      result.code = frame.output ?? '0x';
      result.gasUsed = frame.gasUsed;
    } else {
      type = 'call';
      action = {
        callType: frame.type.toLowerCase(),
        from: frame.from,
        gas: frame.gas,
        input: frame.input,
        to: frame.to!,
        value,
      };
      result = { gasUsed: frame.gasUsed, output: frame.output ?? '0x' };
    }
    let error = frame.error;
    // Only a revert's result is kept: its output holds the reason.
    if (error !== undefined && error !== 'execution reverted') result = undefined;
    if (error !== undefined && this.config.convertParityErrors) {
      error =
        PARITY_ERRORS[error] ??
        PARITY_ERROR_PREFIXES.find(([prefix]) => error!.startsWith(prefix))?.[1] ??
        error;
    }
    const entry: FlatCallFrame = {
      action,
      blockHash: ctx.blockHash ?? null,
      blockNumber: Number(ctx.blockNumber ?? 0n),
      subtraces: 0,
      traceAddress: [],
      transactionHash: ctx.txHash ?? null,
      transactionPosition: ctx.txIndex ?? 0,
      type,
    };
    // `error` and `result` keep their places among the keys.
    return {
      action: entry.action,
      blockHash: entry.blockHash,
      blockNumber: entry.blockNumber,
      ...(error !== undefined ? { error } : {}),
      ...(result !== undefined ? { result } : {}),
      subtraces: entry.subtraces,
      traceAddress: entry.traceAddress,
      transactionHash: entry.transactionHash,
      transactionPosition: entry.transactionPosition,
      type: entry.type,
    };
  }
}
