/**
 * geth's built-in tracers, fed by the engine's events: `callTracer` (the call tree from
 * `beforeMessage`/`afterMessage`), the default struct logger (one entry per opcode from `step`),
 * `prestateTracer` (prestate-tracer.ts) and `4byteTracer`, `noopTracer`, `muxTracer`
 * (small-tracers.ts). Each attaches to a VM for one transaction and detaches when done.
 */
import type { VM } from '@ethereumjs/vm';
import type { RunTxResult } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { revertReason, vmErrorText } from '../vm-errors.js';
import { PrestateTracer, type PrestateConfig } from './prestate-tracer.js';
import { onSelfdestruct, type SelfdestructEvent } from './selfdestruct-hook.js';
import { onOpcode } from './opcode-hook.js';
import { FourByteTracer, MuxTracer, NoopTracer } from './small-tracers.js';
import { FlatCallTracer, type TraceContext } from './flat-call-tracer.js';
import { decodeGoStruct, type GoField } from './go-json.js';
import { jsonKind } from '../api/args.js';
import { JsTracer } from './js-tracer.js';

/** coreth's defaultTraceTimeout, for a JavaScript tracer made without a trace's timeout. */
const DEFAULT_JS_TIMEOUT_MS = 5_000;

const q = (n: bigint | number) => '0x' + BigInt(n).toString(16);

export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
  /** With `withLog`: the frame's logs, each at its place among the frame's calls. */
  logs?: CallLog[];
}

export interface CallLog {
  address: string;
  topics: string[];
  data: string;
  /** How many of the frame's calls came before the log. */
  position: string;
}

const CALL_OP = 0xf1;
const STATICCALL_OP = 0xfa;
/** LOG0 … LOG4. */
const LOG0 = 0xa0;
const LOG4 = 0xa4;
/** A log larger than this runs the transaction out of gas before it is written. */
const MAX_LOG_DATA = 1 << 24;

export interface Tracer {
  attach(vm: VM): void;
  detach(vm: VM): void;
  result(tx: TypedTransaction, from: string, run: RunTxResult): unknown;
  /**
   * Why the tracer's run was cut short (it passed the trace's timeout, or the tracer itself
   * stopped it), when the tracer words that itself; otherwise the trace's `execution timeout`.
   */
  abortReason?(): string | undefined;
}

/** How geth's tracers see a message the engine runs: the opcode that made it, from, to, value. */
export interface SeenFrame {
  type: string;
  from: string;
  to?: string;
  /** None for a STATICCALL. */
  value?: bigint;
}

/**
 * geth's view of the engine's message `msg`; `lastCallOp` is the last CALL or STATICCALL run
 * (onCallOpcodes), which tells a STATICCALL from a CALL made inside one.
 */
export function frameOfMessage(msg: any, lastCallOp: number | undefined): SeenFrame {
  let type = 'CALL';
  if (msg.to === undefined) type = msg.salt ? 'CREATE2' : 'CREATE';
  else if (msg.delegatecall) type = 'DELEGATECALL';
  else if (msg.codeAddress && !msg.codeAddress.equals(msg.to)) type = 'CALLCODE';
  // A message in a static context comes from STATICCALL, or from a CALL made inside one
  // (which geth still calls CALL): the opcode that made it tells them apart.
  else if (msg.isStatic && msg.depth > 0) type = lastCallOp === CALL_OP ? 'CALL' : 'STATICCALL';
  // The engine's message for a DELEGATECALL runs as (`to`) the contract that made it, for
  // that contract's caller, and a CALLCODE's as the contract that made it; geth's tracers see
  // the contract making the call as `from` and the code it runs as `to`.
  const borrowed = type === 'DELEGATECALL' || type === 'CALLCODE';
  return {
    type,
    from: (type === 'DELEGATECALL' ? msg.to : msg.caller).toString(),
    to: borrowed ? msg.codeAddress.toString() : msg.to ? msg.to.toString() : undefined,
    // geth's EVM enters a STATICCALL without a value and a DELEGATECALL with its caller's
    // (the engine's message for it carries that value, which CALLVALUE reads).
    value: type === 'STATICCALL' ? undefined : BigInt(msg.value ?? 0n),
  };
}

/** Calls `listener` with CALL or STATICCALL each time `vm` runs one, until the returned function is called. */
export function onCallOpcodes(vm: VM, listener: (op: number) => void): () => void {
  const offCall = onOpcode(vm, CALL_OP, () => listener(CALL_OP));
  const offStatic = onOpcode(vm, STATICCALL_OP, () => listener(STATICCALL_OP));
  return () => {
    offCall();
    offStatic();
  };
}

export class CallTracer implements Tracer {
  private stack: CallFrame[] = [];
  private root?: CallFrame;
  private readonly onBefore = (msg: any, resolve?: () => void) => {
    const parent = this.stack[this.stack.length - 1];
    const seen = frameOfMessage(msg, this.lastCallOp);
    const frame: CallFrame = {
      type: seen.type,
      from: seen.from,
      to: seen.to,
      value: seen.value === undefined ? undefined : q(seen.value),
      gas: q(msg.gasLimit),
      gasUsed: '0x0',
      input: bytesToHex(msg.data ?? new Uint8Array()),
    };
    // With onlyTopCall geth never enters a call below the top one: the top frame has no calls,
    // so its logs are all at position 0. The frame is still stacked, to know where a log is.
    if (parent) {
      if (!this.onlyTopCall) (parent.calls ??= []).push(frame);
    } else this.root = frame;
    this.stack.push(frame);
    resolve?.();
  };
  private readonly onAfter = (result: any, resolve?: () => void) => {
    const frame = this.stack.pop();
    if (frame) {
      const exec = result.execResult;
      frame.gasUsed = q(exec.executionGasUsed ?? 0n);
      // geth's processOutput: a creation that failed names no address.
      if (result.createdAddress && !exec.exceptionError) frame.to = result.createdAddress.toString();
      else if (exec.exceptionError && (frame.type === 'CREATE' || frame.type === 'CREATE2')) delete frame.to;
      const out = exec.returnValue as Uint8Array | undefined;
      if (out && out.length) frame.output = bytesToHex(out);
      if (exec.exceptionError) {
        frame.error = vmErrorText(exec.exceptionError.error);
        const reason = exec.exceptionError.error === 'revert' && out ? revertReason(out) : undefined;
        if (reason) frame.revertReason = reason;
      }
    }
    resolve?.();
  };

  /** geth's callTracer with `withLog` reads each LOG as it runs, from its stack and memory. */
  private readonly onStep = (step: any, resolve?: () => void) => {
    try {
      const op = step.opcode.code as number;
      const frame = this.stack[this.stack.length - 1];
      if (op < LOG0 || op > LOG4 || !frame || (this.onlyTopCall && step.depth > 0)) return;
      const stack = step.stack as bigint[];
      const top = stack.length - 1;
      const [start, size] = [stack[top], stack[top - 1]];
      if (size > BigInt(MAX_LOG_DATA) || start > BigInt(MAX_LOG_DATA)) return;
      const topics = Array.from({ length: op - LOG0 }, (_, i) =>
        bytesToHex(setLengthLeft(bigIntToBytes(stack[top - 2 - i]), 32)),
      );
      // Memory not yet expanded to the log's end reads as zeros.
      const data = new Uint8Array(Number(size));
      data.set((step.memory as Uint8Array).subarray(Number(start), Number(start + size)));
      (frame.logs ??= []).push({
        address: step.address.toString(),
        topics,
        data: bytesToHex(data),
        position: q(frame.calls?.length ?? 0),
      });
    } finally {
      resolve?.();
    }
  };

  /** geth's SELFDESTRUCT frame: a child of the frame that ran it, moving its whole balance. */
  private readonly onSelfdestruct = (event: SelfdestructEvent) => {
    const frame = this.stack[this.stack.length - 1];
    if (!frame || this.onlyTopCall) return;
    (frame.calls ??= []).push({
      type: 'SELFDESTRUCT',
      from: event.contract,
      to: event.beneficiary,
      value: q(event.balance),
      gas: '0x0',
      gasUsed: '0x0',
      input: '0x',
    });
  };
  private unhook?: () => void;
  private unhookCalls?: () => void;
  /** The last CALL or STATICCALL run: what made the message that follows it. */
  private lastCallOp?: number;

  constructor(
    private readonly onlyTopCall = false,
    private readonly withLog = false,
  ) {}

  attach(vm: VM): void {
    vm.evm.events!.on('beforeMessage', this.onBefore);
    vm.evm.events!.on('afterMessage', this.onAfter);
    if (this.withLog) vm.evm.events!.on('step', this.onStep);
    this.unhook = onSelfdestruct(vm, this.onSelfdestruct);
    this.unhookCalls = onCallOpcodes(vm, (op) => (this.lastCallOp = op));
  }

  detach(vm: VM): void {
    vm.evm.events!.off('beforeMessage', this.onBefore);
    vm.evm.events!.off('afterMessage', this.onAfter);
    if (this.withLog) vm.evm.events!.off('step', this.onStep);
    this.unhook?.();
    this.unhook = undefined;
    this.unhookCalls?.();
    this.unhookCalls = undefined;
  }

  result(tx: TypedTransaction, from: string, run: RunTxResult): CallFrame {
    const root: CallFrame = this.root ?? {
      type: tx.to ? 'CALL' : 'CREATE',
      from,
      to: tx.to?.toString(),
      value: q(tx.value),
      gas: q(tx.gasLimit),
      gasUsed: '0x0',
      input: bytesToHex(tx.data),
    };
    root.from = from;
    root.gas = q(tx.gasLimit);
    root.gasUsed = q(run.totalGasSpent);
    if (this.onlyTopCall) delete root.calls;
    if (this.withLog) dropFailedLogs(root, run.execResult.exceptionError !== undefined);
    return root;
  }
}

/** A failed frame's logs never happened, nor did those of the calls it made (geth's clearFailedLogs). */
function dropFailedLogs(frame: CallFrame, failed: boolean): void {
  const gone = failed || frame.error !== undefined;
  if (gone) delete frame.logs;
  for (const call of frame.calls ?? []) dropFailedLogs(call, gone);
}

export interface StructLogConfig {
  disableStack?: boolean;
  disableStorage?: boolean;
  enableMemory?: boolean;
  enableReturnData?: boolean;
  limit?: number;
}

export class StructLogger implements Tracer {
  private readonly logs: Record<string, unknown>[] = [];
  private readonly storage = new Map<string, Map<string, string>>();
  private failure?: Error;
  private readonly onStep = async (step: any, resolve?: () => void) => {
    try {
      if (this.config.limit && this.logs.length >= this.config.limit) return;
      const entry: Record<string, unknown> = {
        pc: step.pc,
        op: step.opcode.name,
        gas: Number(step.gasLeft),
        gasCost: Number(BigInt(step.opcode.fee) + (step.opcode.dynamicFee ?? 0n)),
        depth: step.depth + 1,
      };
      // geth's `refund` (omitted when 0): the refund counter before the op.
      if (step.gasRefund > 0n) entry.refund = Number(step.gasRefund);
      const stack = step.stack as bigint[];
      if (!this.config.disableStack) entry.stack = stack.map((v) => q(v));
      if (this.config.enableMemory) {
        const mem = step.memory as Uint8Array;
        const words: string[] = [];
        for (let i = 0; i < mem.length; i += 32)
          words.push(
            Buffer.from(mem.subarray(i, i + 32))
              .toString('hex')
              .padEnd(64, '0'),
          );
        entry.memory = words;
      }
      if (!this.config.disableStorage && (step.opcode.name === 'SSTORE' || step.opcode.name === 'SLOAD')) {
        const addr = step.address.toString();
        let slots = this.storage.get(addr);
        if (!slots) this.storage.set(addr, (slots = new Map()));
        const key = Buffer.from(setLengthLeft(hexBytes(stack[stack.length - 1]), 32)).toString('hex');
        if (step.opcode.name === 'SSTORE') {
          slots.set(key, Buffer.from(setLengthLeft(hexBytes(stack[stack.length - 2]), 32)).toString('hex'));
        } else {
          const value = await step.stateManager.getStorage(
            step.address,
            setLengthLeft(hexBytes(stack[stack.length - 1]), 32),
          );
          slots.set(key, Buffer.from(setLengthLeft(value, 32)).toString('hex'));
        }
        entry.storage = Object.fromEntries(slots);
      }
      this.logs.push(entry);
    } catch (err) {
      // Never rejected into the engine's event (an unhandled rejection ends the node): the trace
      // answers with the error instead.
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    } finally {
      resolve?.();
    }
  };

  constructor(private readonly config: StructLogConfig = {}) {}

  attach(vm: VM): void {
    vm.evm.events!.on('step', this.onStep);
  }

  detach(vm: VM): void {
    vm.evm.events!.off('step', this.onStep);
  }

  result(_tx: TypedTransaction, _from: string, run: RunTxResult): unknown {
    if (this.failure) throw this.failure;
    const exec = run.execResult;
    return {
      gas: Number(run.totalGasSpent),
      failed: exec.exceptionError !== undefined,
      returnValue: Buffer.from(exec.returnValue ?? new Uint8Array()).toString('hex'),
      structLogs: this.logs,
    };
  }
}

function hexBytes(n: bigint): Uint8Array {
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** libevm's native tracers' configs, as each decodes its `tracerConfig` (eth/tracers/native). */
const CALL_CONFIG: GoField[] = [
  { name: 'onlyTopCall', path: 'onlyTopCall', type: 'bool' },
  { name: 'withLog', path: 'withLog', type: 'bool' },
];
const FLAT_CALL_CONFIG: GoField[] = [
  { name: 'convertParityErrors', path: 'convertParityErrors', type: 'bool' },
  { name: 'includePrecompiles', path: 'includePrecompiles', type: 'bool' },
];
const PRESTATE_CONFIG: GoField[] = [{ name: 'diffMode', path: 'diffMode', type: 'bool' }];

/** callTracer's `tracerConfig`; a wrong type is refused in Go's words. */
export function callTracerConfig(tracerConfig: unknown): { onlyTopCall: boolean; withLog: boolean } {
  const tc = decodeGoStruct(tracerConfig, 'native.callTracerConfig', CALL_CONFIG);
  return { onlyTopCall: tc.onlyTopCall === true, withLog: tc.withLog === true };
}

/** The names of geth's built-in tracers here; any other `tracer` is JavaScript source. */
const NATIVE_TRACERS = new Set([
  'callTracer',
  'flatCallTracer',
  'prestateTracer',
  '4byteTracer',
  'noopTracer',
  'muxTracer',
  'structLogger',
]);

/** Whether a trace config's tracer is JavaScript (geth's directory: whatever it has no name for). */
export function isJsTracer(config: Record<string, unknown> | undefined): boolean {
  const name = config?.tracer;
  return typeof name === 'string' && !NATIVE_TRACERS.has(name);
}

/**
 * The tracer a trace config names; `ctx` places the traced transaction (for flatCallTracer and
 * a JavaScript tracer's `ctx`), `jsTimeoutMs` bounds a JavaScript tracer's code. A
 * `tracerConfig` the tracer cannot decode throws Go's error, as libevm's tracer constructors
 * return their `json.Unmarshal` error (which the trace answers with); JavaScript that does not
 * evaluate throws a JsTracerError.
 */
export function makeTracer(
  config: Record<string, unknown> | undefined,
  ctx: TraceContext = {},
  jsTimeoutMs = DEFAULT_JS_TIMEOUT_MS,
): Tracer {
  const name = config?.tracer;
  if (name === undefined || name === null || name === 'structLogger')
    return new StructLogger(config as StructLogConfig);
  if (name === 'callTracer') {
    const { onlyTopCall, withLog } = callTracerConfig(config?.tracerConfig);
    return new CallTracer(onlyTopCall, withLog);
  }
  if (name === 'flatCallTracer') {
    const tc = decodeGoStruct(config?.tracerConfig, 'native.flatCallTracerConfig', FLAT_CALL_CONFIG);
    return new FlatCallTracer(
      {
        convertParityErrors: tc.convertParityErrors === true,
        includePrecompiles: tc.includePrecompiles === true,
      },
      ctx,
    );
  }
  if (name === 'prestateTracer')
    return new PrestateTracer(
      decodeGoStruct(config?.tracerConfig, 'native.prestateTracerConfig', PRESTATE_CONFIG) as PrestateConfig,
    );
  if (name === '4byteTracer') return new FourByteTracer();
  if (name === 'noopTracer') return new NoopTracer();
  if (name === 'muxTracer') {
    const children = config?.tracerConfig ?? {};
    if (typeof children !== 'object' || Array.isArray(children))
      throw new Error(
        `json: cannot unmarshal ${jsonKind(children)} into Go value of type map[string]json.RawMessage`,
      );
    const tracers = new Map<string, Tracer>();
    // geth looks each name up in its directory too: JavaScript where it knows no name (the
    // struct logger is not one there).
    for (const [child, cfg] of Object.entries(children as Record<string, unknown>)) {
      const tracerConfig = cfg ?? undefined;
      tracers.set(
        child,
        child === 'structLogger'
          ? new JsTracer(child, tracerConfig, ctx, jsTimeoutMs)
          : makeTracer({ tracer: child, tracerConfig }, ctx, jsTimeoutMs),
      );
    }
    return new MuxTracer(tracers);
  }
  return new JsTracer(String(name), config?.tracerConfig, ctx, jsTimeoutMs);
}
