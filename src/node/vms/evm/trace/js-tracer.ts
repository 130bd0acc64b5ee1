/**
 * geth's JavaScript tracers (eth/tracers/js, which coreth ships): a trace config whose `tracer`
 * names no built-in tracer is the source of an object whose functions follow the run —
 * `setup(config)` once, `step(log, db)` at every opcode, `fault(log, db)` where one fails,
 * `enter(frame)` / `exit(frameResult)` around every inner call, and `result(ctx, db)` for the
 * answer. The code runs in a sandbox (js-sandbox.ts) under the trace's timeout; what it asks
 * for is read here from the engine's events and, for `db`, from the state as it is at that step.
 *
 * Errors keep geth's words: a tracer that does not evaluate answers with the evaluation's error,
 * one that throws while tracing with `<error>    in server-side tracer function '<fn>'`, and the
 * run stops there (geth cancels its EVM).
 */
import type { VM } from '@ethereumjs/vm';
import type { RunTxResult } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  bytesToHex,
  createAddressFromString,
  createContractAddress,
  createContractAddress2,
  hexToBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import { vmErrorText } from '../vm-errors.js';
import { cancelRun } from '../api/call-deadline.js';
import { SyncStateReader } from '../state/sync-read.js';
import { onSelfdestruct, type SelfdestructEvent } from './selfdestruct-hook.js';
import { precompileCheck } from './small-tracers.js';
import { frameOfMessage, onCallOpcodes, type Tracer } from './tracers.js';
import type { TraceContext } from './flat-call-tracer.js';
import { JsSandbox, type HostValue, type SandboxAnswer } from './js-sandbox.js';
import { jsonText } from '../../../rpc/json-text.js';

/** A JavaScript tracer's failure, in geth's words: the trace's (or that transaction's) error. */
export class JsTracerError extends Error {
  override readonly name = 'JsTracerError';
}

/** The errors the engine raises after the code ran (a creation's deposit), where geth calls no fault. */
const AFTER_CODE_ERRORS = new Set([
  'code store out of gas',
  'code size to deposit exceeds maximum code size',
  'invalid bytecode deployed',
]);

/**
 * The opcodes after which `db` can read differently (storage, balances, nonces, code, accounts):
 * steps between two of them see one state, so they can run together (see flushSteps).
 */
const STATE_CHANGING = new Set([
  0x55, // SSTORE
  0xf0, // CREATE
  0xf1, // CALL
  0xf2, // CALLCODE
  0xf4, // DELEGATECALL
  0xf5, // CREATE2
  0xfa, // STATICCALL
  0xff, // SELFDESTRUCT
]);
/** At most this many steps, holding this much memory in their copies, wait for the tracer. */
const MAX_WAITING_STEPS = 256;
const MAX_WAITING_MEMORY = 16 * 1024 * 1024;

/** A step as the engine reported it, with the message it ran in. */
interface StepView {
  step: any;
  msg: any;
}

interface FrameView {
  type: string;
  from: string;
  to: string;
  input: string;
  gas: number;
  value?: string;
}

interface FrameResultView {
  gasUsed: number;
  output: string;
  error?: string;
}

const ZERO_ADDRESS = '0x' + '00'.repeat(20);

export class JsTracer implements Tracer {
  private readonly sandbox: JsSandbox;
  private readonly hasStep: boolean;
  private readonly hasFrames: boolean;
  /** geth's `t.err`: the first error a tracer function gave; nothing more runs after it. */
  private failure?: string;
  private deadline = Infinity;
  private vm?: VM;
  private state?: SyncStateReader;
  private precompiled: (address: string) => boolean = () => false;
  /** What the sandbox's host function answers about. */
  private job = '';
  /** The step the tracer's `log` shows, and the steps not yet given to the tracer. */
  private current?: StepView;
  private waiting: StepView[] = [];
  private waitingMemory = 0;
  private stepError?: string;
  /** The messages running, innermost last: the contract a step runs in. */
  private readonly messages: any[] = [];
  private frame?: FrameView;
  private frameResult?: FrameResultView;
  private lastCallOp?: number;
  private gasPrice = 0n;
  private blockNumber = 0n;
  private unhooks: (() => void)[] = [];
  /** The `tracerConfig` JSON `setup` receives. */
  private readonly configText: string;
  /** What `result` sees as `ctx`. */
  private context: Record<string, unknown> = {};

  constructor(
    code: string,
    tracerConfig: unknown,
    private readonly where: TraceContext,
    private readonly timeoutMs: number,
  ) {
    this.sandbox = new JsSandbox((op, a, b, c) => this.answer(op, a, b, c));
    this.job = 'init';
    const config = tracerConfig === undefined ? '{}' : jsonText(tracerConfig);
    this.configText = config;
    const made = this.sandbox.init(code, timeoutMs);
    if (!made.ok) throw new JsTracerError(made.error);
    const shape = JSON.parse(made.json ?? '{}') as { step?: boolean; frames?: boolean } | null;
    this.hasStep = shape?.step === true;
    this.hasFrames = shape?.frames === true;
  }

  attach(vm: VM): void {
    this.vm = vm;
    this.deadline = performance.now() + this.timeoutMs;
    this.state = new SyncStateReader(vm.stateManager as MerkleStateManager);
    this.precompiled = precompileCheck(vm);
    const events = vm.evm.events!;
    events.on('beforeMessage', this.onBefore);
    events.on('afterMessage', this.onAfter);
    this.unhooks.push(() => events.off('beforeMessage', this.onBefore));
    this.unhooks.push(() => events.off('afterMessage', this.onAfter));
    // The engine copies the stack and memory for every step listener: only when asked for.
    if (this.hasStep) {
      events.on('step', this.onStep);
      this.unhooks.push(() => events.off('step', this.onStep));
    }
    if (this.hasFrames) {
      this.unhooks.push(onSelfdestruct(vm, this.onSelfdestruct));
      this.unhooks.push(onCallOpcodes(vm, (op) => (this.lastCallOp = op)));
    }
  }

  detach(): void {
    for (const off of this.unhooks) off();
    this.unhooks = [];
  }

  abortReason(): string {
    // A deadline passed outside the tracer's code: geth's interrupt lands in the next function run.
    return (
      this.failure ??
      inFunction('execution timeout', this.hasStep ? 'step' : this.hasFrames ? 'exit' : 'result')
    );
  }

  result(tx: TypedTransaction, from: string, run: RunTxResult): unknown {
    this.flushSteps();
    if (this.failure !== undefined) throw new JsTracerError(this.failure);
    const exec = run.execResult;
    this.context = {
      type: tx.to ? 'CALL' : 'CREATE',
      from,
      to: (tx.to ?? run.createdAddress)?.toString() ?? ZERO_ADDRESS,
      input: bytesToHex(tx.data),
      gas: Number(tx.gasLimit),
      gasUsed: Number(run.totalGasSpent),
      gasPrice: this.gasPrice.toString(),
      value: tx.value.toString(),
      block: Number(this.blockNumber),
      output: bytesToHex(exec.returnValue ?? new Uint8Array()),
      ...(exec.exceptionError ? { error: vmErrorText(exec.exceptionError.error) } : {}),
      ...(this.where.blockHash ? { blockHash: this.where.blockHash } : {}),
      ...(this.where.blockHash && this.where.txHash
        ? { txIndex: this.where.txIndex ?? 0, txHash: this.where.txHash }
        : {}),
    };
    const answer = this.run('result');
    if (!answer.ok) throw new JsTracerError(inFunction(answer.error, 'result'));
    return JSON.parse(answer.json ?? 'null');
  }

  /**
   * Each entry into the sandbox costs node's watchdog thread (~0.1 ms), so steps are given to the
   * tracer in runs: before any opcode that changes what `db` reads runs, before a frame is
   * entered or left, and at the end. Every step of a run is before the state changes again, so
   * `db` reads what geth's tracer would at that step; a tracer that fails stops at its step.
   */
  private readonly onStep = (step: any, resolve?: () => void) => {
    try {
      if (this.failure !== undefined) return;
      this.waiting.push({ step, msg: this.messages[this.messages.length - 1] });
      this.waitingMemory += step.memory.length;
      if (
        STATE_CHANGING.has(step.opcode.code) ||
        this.waiting.length >= MAX_WAITING_STEPS ||
        this.waitingMemory >= MAX_WAITING_MEMORY
      )
        this.flushSteps();
    } finally {
      resolve?.();
    }
  };

  private flushSteps(): void {
    if (this.waiting.length === 0) return;
    this.stepError = undefined;
    this.runHook('steps');
    this.current = this.waiting[this.waiting.length - 1];
    this.waiting = [];
    this.waitingMemory = 0;
  }

  private readonly onBefore = (msg: any, resolve?: () => void) => {
    try {
      this.flushSteps();
      this.messages.push(msg);
      if (msg.depth === 0) {
        const evm = this.vm?.evm as unknown as {
          _tx?: { gasPrice?: bigint };
          _block?: { header: { number: bigint } };
        };
        this.gasPrice = evm?._tx?.gasPrice ?? 0n;
        this.blockNumber = evm?._block?.header.number ?? 0n;
        return;
      }
      if (!this.hasFrames) return;
      const seen = frameOfMessage(msg, this.lastCallOp);
      this.enterFrame({
        type: seen.type,
        from: seen.from,
        to: seen.to ?? this.createdBy(msg),
        input: bytesToHex(msg.data ?? new Uint8Array()),
        gas: Number(msg.gasLimit),
        value: seen.value?.toString(),
      });
    } finally {
      resolve?.();
    }
  };

  private readonly onAfter = (result: any, resolve?: () => void) => {
    try {
      this.flushSteps();
      const msg = this.messages.pop();
      const exec = result.execResult;
      const error = exec.exceptionError ? vmErrorText(exec.exceptionError.error) : undefined;
      // geth's interpreter reports the opcode that failed (a revert included) as a fault.
      if (
        error !== undefined &&
        exec.runState !== undefined &&
        !AFTER_CODE_ERRORS.has(exec.exceptionError.error)
      ) {
        this.stepError = error;
        this.runHook('fault');
      }
      if (msg?.depth > 0 && this.hasFrames)
        this.exitFrame({
          gasUsed: Number(exec.executionGasUsed ?? 0n),
          output: bytesToHex(exec.returnValue ?? new Uint8Array()),
          error,
        });
    } finally {
      resolve?.();
    }
  };

  /**
   * The address a creation's message makes, which the engine works out only after announcing it
   * (its `_generateAddress`: the creator's nonce was already raised for it).
   */
  private createdBy(msg: any): string {
    const initCode = (msg.code?.length ? msg.code : (msg.data ?? new Uint8Array())) as Uint8Array;
    if (msg.salt) return createContractAddress2(msg.caller, msg.salt, initCode).toString();
    const nonce = this.state?.account(msg.caller)?.nonce ?? 1n;
    return createContractAddress(msg.caller, nonce > 0n ? nonce - 1n : 0n).toString();
  }

  /** geth enters and leaves a SELFDESTRUCT frame: the contract's balance to its beneficiary. */
  private readonly onSelfdestruct = (event: SelfdestructEvent) => {
    this.flushSteps();
    this.enterFrame({
      type: 'SELFDESTRUCT',
      from: event.contract,
      to: event.beneficiary,
      input: '0x',
      gas: 0,
      value: event.balance.toString(),
    });
    this.exitFrame({ gasUsed: 0, output: '0x' });
  };

  private enterFrame(frame: FrameView): void {
    this.frame = frame;
    this.runHook('enter');
  }

  private exitFrame(result: FrameResultView): void {
    this.frameResult = result;
    this.runHook('exit');
  }

  /** Runs a tracing function; its first error is the trace's, and stops the run (geth's Cancel). */
  private runHook(job: string): void {
    if (this.failure !== undefined) return;
    const answer = this.run(job);
    if (answer.ok) return;
    this.failure = inFunction(answer.error, job === 'steps' ? 'step' : job);
    if (this.vm) cancelRun(this.vm);
  }

  private run(job: string): SandboxAnswer {
    const left = this.deadline - performance.now();
    if (left <= 0) return { ok: false, error: 'execution timeout', timedOut: true };
    this.job = job;
    return this.sandbox.call(left);
  }

  /** The host function's answers: the step, frame and state the tracer's objects read. */
  private answer(op: string, a: unknown, b: unknown, c: unknown): HostValue {
    const step = this.current?.step;
    const msg = this.current?.msg;
    switch (op) {
      case 'job':
        return this.job;
      case 'stepCount':
        return this.waiting.length;
      case 'select':
        this.current = this.waiting[Number(a)];
        return undefined;
      case 'config':
        return this.configText;
      case 'context':
        return JSON.stringify(this.context);
      case 'op':
        return step?.opcode.code ?? 0;
      case 'opName':
        return step?.opcode.name ?? 'STOP';
      case 'pc':
        return step?.pc ?? 0;
      case 'gas':
        return Number(step?.gasLeft ?? 0n);
      case 'cost':
        return step ? Number(BigInt(step.opcode.fee) + (step.opcode.dynamicFee ?? 0n)) : 0;
      case 'depth':
        return step ? step.depth + 1 : 0;
      case 'refund':
        return Number(step?.gasRefund ?? 0n);
      case 'error':
        return this.stepError;
      case 'stackLength':
        return step?.stack.length ?? 0;
      case 'peek': {
        const stack = (step?.stack ?? []) as bigint[];
        return stack[stack.length - 1 - Number(a)].toString();
      }
      case 'memoryLength':
        return step?.memory.length ?? 0;
      case 'memory':
        return bytesToHex((step?.memory ?? new Uint8Array()).subarray(Number(a), Number(b)));
      case 'caller':
        return msg?.caller?.toString() ?? ZERO_ADDRESS;
      case 'address':
        return step?.address?.toString() ?? ZERO_ADDRESS;
      case 'value':
        return BigInt(msg?.value ?? 0n).toString();
      case 'input':
        // A creation's init code is the code it runs, not input (the engine empties `data`).
        return bytesToHex(msg?.to === undefined ? new Uint8Array() : (msg?.data ?? new Uint8Array()));
      case 'frameType':
        return this.frame?.type;
      case 'frameFrom':
        return this.frame?.from ?? ZERO_ADDRESS;
      case 'frameTo':
        return this.frame?.to ?? ZERO_ADDRESS;
      case 'frameInput':
        return this.frame?.input ?? '0x';
      case 'frameGas':
        return this.frame?.gas ?? 0;
      case 'frameValue':
        return this.frame?.value;
      case 'frameGasUsed':
        return this.frameResult?.gasUsed ?? 0;
      case 'frameOutput':
        return this.frameResult?.output ?? '0x';
      case 'frameError':
        return this.frameResult?.error;
      case 'precompiled':
        return this.precompiled(String(a));
      case 'create':
        return createContractAddress(createAddressFromString(String(a)), BigInt(Number(b))).toString();
      case 'create2':
        return createContractAddress2(
          createAddressFromString(String(a)),
          hexToBytes(String(b) as `0x${string}`),
          hexToBytes(String(c) as `0x${string}`),
        ).toString();
      default:
        return this.readState(op, a, b);
    }
  }

  /** `db`: the state as the run has it now. */
  private readState(op: string, a: unknown, b: unknown): HostValue {
    if (!this.state) throw new Error('no state to read before the run');
    const address = createAddressFromString(String(a));
    switch (op) {
      case 'balance':
        return (this.state.account(address)?.balance ?? 0n).toString();
      case 'nonce':
        return Number(this.state.account(address)?.nonce ?? 0n);
      case 'code':
        return bytesToHex(this.state.code(address));
      case 'state':
        return bytesToHex(
          setLengthLeft(this.state.storage(address, hexToBytes(String(b) as `0x${string}`)), 32),
        );
      case 'exists':
        return this.state.account(address) !== undefined;
      default:
        throw new Error(`unknown tracer request ${op}`);
    }
  }
}

/** geth's wrapError: what went wrong, and in which of the tracer's functions. */
function inFunction(error: string, job: string): string {
  return `${error}    in server-side tracer function '${job}'`;
}
