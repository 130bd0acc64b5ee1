/**
 * geth's RPCEVMTimeout for `eth_call`: a call still running when its time is up is aborted
 * (`evm.Cancel()`) and answered `execution aborted (timeout = 5s)`. The engine here runs on the
 * node's one thread, so a timer cannot interrupt it; instead the opcodes every long run must keep
 * executing — jumps (every loop) and calls and creates (every recursion) — check the clock and
 * throw CallTimeout once the deadline of the VM's current run has passed.
 *
 * The same jumps let a long run (an eth_call, each run of an estimate, a traced call) give the
 * thread back every 20 ms: in geth each request has its own goroutine, here one 50M-gas estimate
 * otherwise froze every chain's API and block building for seconds.
 */
import type { VM } from '@ethereumjs/vm';

/** geth's and coreth's `RPCEVMTimeout` default. */
export const DEFAULT_RPC_EVM_TIMEOUT_MS = 5_000;

/** Thrown out of the engine when a run's deadline passed; not an EVM error, so nothing catches it. */
export class CallTimeout extends Error {
  override readonly name = 'CallTimeout';
  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${goDuration(timeoutMs)})`);
  }
}

interface Guard {
  deadline: number;
  timeoutMs: number;
  jumps: number;
  lastYield: number;
}

/** JUMP, JUMPI; CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const LOOP_OPCODES = [0x56, 0x57];
const FRAME_OPCODES = [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa];
/** Jumps between two looks at the clock (a jump takes well under a microsecond). */
const JUMPS_PER_CHECK = 1024;
/** How long a run keeps the thread before letting other work in. */
const YIELD_EVERY_MS = 20;

const guards = new WeakMap<VM, Guard>();

type OpEntry = { opHandler: (...args: unknown[]) => unknown; opcodeInfo: { isAsync: boolean } };

function guardOf(vm: VM): Guard {
  let guard = guards.get(vm);
  if (guard) return guard;
  const g: Guard = { deadline: Infinity, timeoutMs: 0, jumps: 0, lastYield: performance.now() };
  const check = () => {
    if (g.deadline !== Infinity && performance.now() > g.deadline) throw new CallTimeout(g.timeoutMs);
  };
  // The engine's per-EVM table of opcode entries: wrap the entries, never the shared handlers.
  const map = (vm.evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap;
  for (const op of LOOP_OPCODES) {
    const entry = map[op];
    const inner = entry.opHandler;
    // Marked async, so the engine awaits the handler: a long run gives the node's other work
    // (requests, block building) a turn now and then instead of holding the thread throughout.
    const info = entry.opcodeInfo;
    const opcodeInfo = Object.assign(Object.create(Object.getPrototypeOf(info) as object), info, {
      isAsync: true,
    });
    map[op] = {
      ...entry,
      opcodeInfo,
      opHandler: (...args: unknown[]) => {
        const result = inner(...args);
        if (++g.jumps < JUMPS_PER_CHECK) return result;
        g.jumps = 0;
        check();
        const now = performance.now();
        if (now - g.lastYield < YIELD_EVERY_MS) return result;
        g.lastYield = now;
        return new Promise<void>((resolve) => setImmediate(resolve));
      },
    };
  }
  for (const op of FRAME_OPCODES) {
    const entry = map[op];
    const inner = entry.opHandler;
    map[op] = {
      ...entry,
      opHandler: (...args: unknown[]) => {
        check();
        return inner(...args);
      },
    };
  }
  guard = g;
  guards.set(vm, guard);
  return guard;
}

/**
 * Runs `fn` (one run of `vm`) with a deadline `timeoutMs` from now; 0 or undefined: none.
 * Rejects with CallTimeout when the run was aborted; the VM's state is then inconsistent (frames
 * left open) and must not be reused.
 */
export async function withDeadline<T>(
  vm: VM,
  timeoutMs: number | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const guard = guardOf(vm);
  guard.deadline = timeoutMs ? performance.now() + timeoutMs : Infinity;
  guard.timeoutMs = timeoutMs ?? 0;
  guard.jumps = 0;
  guard.lastYield = performance.now();
  try {
    return await fn();
  } finally {
    guard.deadline = Infinity;
  }
}

/**
 * Ends `vm`'s current run at its next look at the clock, as if its deadline had passed (geth's
 * `evm.Cancel()`, which a tracer calls when it fails): the run rejects with CallTimeout. Not
 * necessarily at once, as in geth: the next jump or call; a run with neither finishes.
 */
export function cancelRun(vm: VM): void {
  const guard = guards.get(vm);
  if (guard) guard.deadline = -Infinity;
}

/** A duration as Go's time.Duration prints it: `5s`, `1.5s`, `250ms`, `1m0s`. */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const totalSeconds = ms / 1000;
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds - minutes * 60;
  if (minutes < 60) return `${minutes}m${seconds}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m${seconds}s`;
}

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5
  μs: 1e-3, // U+03BC
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Go's time.ParseDuration (a tracer's `timeout`: `"300ms"`, `"1.5s"`, `"2m30s"`), in
 * milliseconds; throws with Go's own words for text it refuses.
 */
export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text);
  const invalid = () => new Error(`time: invalid duration ${quoted}`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let total = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (number[1] === '' && (number[2] ?? '') === '') throw invalid();
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = DURATION_UNITS_MS[unit];
    if (scale === undefined)
      throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    rest = rest.slice(unit.length);
    total += Number(`${number[1] || '0'}.${number[2] || '0'}`) * scale;
  }
  return sign * total;
}
