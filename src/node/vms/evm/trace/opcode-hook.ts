/**
 * Listening to one opcode as the engine runs it, by wrapping its handler while someone listens.
 * The engine's `step` event copies the stack and memory at every opcode, too dear for the tracer
 * that runs with every block; a wrapped handler costs a call where the opcode runs. The wrapper
 * runs after the opcode's static and dynamic gas are charged, before the opcode does its work.
 */
import type { VM } from '@ethereumjs/vm';

type Handler = (runState: any, common: any) => Promise<void> | void;
export type OpcodeListener = (runState: any) => void;

/** Per opcode-map entry: its own handler and who listens (several tracers may, under muxTracer). */
const hooked = new WeakMap<object, { original: Handler; listeners: Set<OpcodeListener> }>();

/** Calls `listener` each time `vm` runs `opcode` until the returned function is called. */
export function onOpcode(vm: VM, opcode: number, listener: OpcodeListener): () => void {
  // The active opcode map of the EVM (private to @ethereumjs/evm, whose version is pinned).
  const entry = (vm.evm as any)._opcodeMap?.[opcode] as { opHandler: Handler } | undefined;
  if (!entry) return () => {};
  let hook = hooked.get(entry);
  if (!hook) {
    const original = entry.opHandler;
    const listeners = new Set<OpcodeListener>();
    hook = { original, listeners };
    hooked.set(entry, hook);
    entry.opHandler = (runState: any, common: any) => {
      for (const l of listeners) l(runState);
      return original(runState, common);
    };
  }
  hook.listeners.add(listener);
  return () => {
    const h = hooked.get(entry);
    if (!h) return;
    h.listeners.delete(listener);
    if (h.listeners.size === 0) {
      entry.opHandler = h.original;
      hooked.delete(entry);
    }
  };
}
