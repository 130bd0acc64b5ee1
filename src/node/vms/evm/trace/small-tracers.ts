/**
 * geth's small native tracers: `4byteTracer` (how often each function selector was called, by
 * call-data size), `noopTracer` (`{}`) and `muxTracer` (several tracers over one run, each result
 * under its tracer's name). Indexers and explorers ask for these by name; coreth ships them all.
 */
import type { VM } from '@ethereumjs/vm';
import type { RunTxResult } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { isStatefulPrecompile } from '../precompiles/bind.js';
import type { Tracer } from './tracers.js';

/**
 * geth's fourByteTracer: every message entered with CALL, CALLCODE, DELEGATECALL or STATICCALL
 * (the transaction's own call included; creations never) whose input holds a selector and whose
 * target is not a precompile counts once under `0x<selector>-<input size - 4>`.
 */
export class FourByteTracer implements Tracer {
  private readonly ids = new Map<string, number>();
  private precompiled: (address: string) => boolean = () => false;
  private readonly onBefore = (msg: any, resolve?: () => void) => {
    try {
      const input = (msg.data ?? new Uint8Array()) as Uint8Array;
      // A creation (no `to`) is CREATE/CREATE2, which geth leaves out.
      if (input.length < 4 || msg.to === undefined) return;
      // The code run (a DELEGATECALL's or CALLCODE's message is addressed to its caller).
      if (this.precompiled((msg.codeAddress ?? msg.to).toString())) return;
      const key = `${bytesToHex(input.subarray(0, 4))}-${input.length - 4}`;
      this.ids.set(key, (this.ids.get(key) ?? 0) + 1);
    } finally {
      resolve?.();
    }
  };

  attach(vm: VM): void {
    this.precompiled = precompileCheck(vm);
    vm.evm.events!.on('beforeMessage', this.onBefore);
  }

  detach(vm: VM): void {
    vm.evm.events!.off('beforeMessage', this.onBefore);
  }

  result(): Record<string, number> {
    return Object.fromEntries(this.ids);
  }
}

/**
 * Whether an address (0x-hex) is one of geth's vm.ActivePrecompiles(rules) on `vm`: the engine's
 * precompiles but the stateful modules.
 */
export function precompileCheck(vm: VM): (address: string) => boolean {
  const evm = vm.evm as unknown as { getPrecompile?: (a: `0x${string}`) => unknown };
  return (a) => {
    const fn = evm.getPrecompile?.(a as `0x${string}`);
    return fn !== undefined && !isStatefulPrecompile(fn);
  };
}

/** geth's noopTracer: follows the run and reports nothing. */
export class NoopTracer implements Tracer {
  attach(): void {}
  detach(): void {}
  result(): Record<string, never> {
    return {};
  }
}

/** geth's muxTracer: `tracerConfig` maps tracer names to their configs; one result per name. */
export class MuxTracer implements Tracer {
  constructor(private readonly tracers: ReadonlyMap<string, Tracer>) {}

  attach(vm: VM): void {
    for (const t of this.tracers.values()) t.attach(vm);
  }

  detach(vm: VM): void {
    for (const t of this.tracers.values()) t.detach(vm);
  }

  abortReason(): string | undefined {
    for (const t of this.tracers.values()) {
      const reason = t.abortReason?.();
      if (reason !== undefined) return reason;
    }
    return undefined;
  }

  result(tx: TypedTransaction, from: string, run: RunTxResult): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, t] of this.tracers) out[name] = t.result(tx, from, run);
    return out;
  }
}
