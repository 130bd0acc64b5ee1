/**
 * The node:vm context a JavaScript tracer runs in: its own realm with the language's builtins
 * and the prelude's globals (js-prelude.ts), no `require`, `process`, timers or modules. Every
 * entry into it runs under a time limit (node's watchdog stops a loop that never ends), and
 * everything that comes out of it is a string the prelude made.
 *
 * node:vm is not a hard security boundary (node's docs say as much): the prelude keeps the
 * node's objects out of reach, but a tracer can still spend memory. The `debug_` namespace
 * that runs tracers is a devnet's, and can be turned off with `--debug-api false`.
 */
import vm from 'node:vm';
import { EVALUATE_PREFIX, PRELUDE } from './js-prelude.js';

/** What the host answers the prelude: only primitives ever cross into the sandbox. */
export type HostValue = string | number | boolean | undefined;
export type HostOps = (op: string, a?: unknown, b?: unknown, c?: unknown) => HostValue;

/** One entry's outcome: done (with a result's JSON when it made one), or the error's words. */
export type SandboxAnswer = { ok: true; json?: string } | { ok: false; error: string; timedOut?: boolean };

const prelude = new vm.Script(PRELUDE, { filename: 'flurry:tracer-prelude' });
const callEntry = new vm.Script('__flurryCall()', { filename: 'flurry:tracer-call' });

export class JsSandbox {
  private readonly context: vm.Context;
  /** An error a helper stopped the tracer with (geth's vm.Interrupt): it cannot be caught. */
  private interrupted?: string;

  constructor(ops: HostOps) {
    this.context = vm.createContext(
      {},
      // Promise jobs run inside the entry that made them, so under its time limit too.
      { microtaskMode: 'afterEvaluate' },
    );
    const install = prelude.runInContext(this.context) as (host: HostOps) => void;
    install((op, a, b, c) => {
      if (op === 'fail') {
        this.interrupted ??= String(a);
        return undefined;
      }
      try {
        return ops(op, a, b, c);
      } catch (err) {
        // The node's error object never enters the sandbox; its words end the call.
        this.interrupted ??= err instanceof Error ? err.message : String(err);
        return undefined;
      }
    });
  }

  /**
   * Evaluates the tracer's source as geth does, `(` + code + `)`, then checks and sets up the
   * object (`config` is the `tracerConfig` JSON its `setup` receives). The answer's JSON says
   * which of `step` and `enter`/`exit` it has.
   */
  init(code: string, timeoutMs: number): SandboxAnswer {
    let script: vm.Script;
    try {
      script = new vm.Script(`${EVALUATE_PREFIX}${code}\n); })`, { filename: '<eval>' });
    } catch (err) {
      return { ok: false, error: `SyntaxError: ${(err as Error).message}` };
    }
    return this.enter(script, timeoutMs);
  }

  /** Runs the tracer functions the host's `job` names (the waiting steps, fault, enter, exit, result). */
  call(timeoutMs: number): SandboxAnswer {
    return this.enter(callEntry, timeoutMs);
  }

  private enter(script: vm.Script, timeoutMs: number): SandboxAnswer {
    this.interrupted = undefined;
    let out: unknown;
    try {
      out = script.runInContext(this.context, { timeout: Math.max(1, Math.ceil(timeoutMs)) });
    } catch (err) {
      if (isTimeout(err)) return { ok: false, error: 'execution timeout', timedOut: true };
      return { ok: false, error: this.interrupted ?? 'tracer failed' };
    }
    if (this.interrupted !== undefined) return { ok: false, error: this.interrupted };
    const text = typeof out === 'string' ? out : '';
    if (text.startsWith('E')) return { ok: false, error: text.slice(1) };
    return { ok: true, json: text.startsWith('R') ? text.slice(1) : undefined };
  }
}

/**
 * Node's watchdog error, made in the sandbox's realm: its own `code` is read without touching
 * anything the tracer's code could have put on that realm's prototypes.
 */
function isTimeout(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  return Object.getOwnPropertyDescriptor(err, 'code')?.value === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}
