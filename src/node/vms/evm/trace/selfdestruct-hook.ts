/**
 * SELFDESTRUCT as the engine runs it, for geth's callTracer: geth reports each one as a child
 * frame `{type: 'SELFDESTRUCT', from: contract, to: beneficiary, value: balance, gas: 0}` of the
 * frame that executed it. The engine emits no message for it (it is no call), and its `step`
 * event copies the stack and memory at every opcode, too dear for the tracer that runs with
 * every block; so the opcode's handler is wrapped while a tracer listens. The wrapper runs after
 * the opcode's static and dynamic gas are charged, as geth's hook does: a SELFDESTRUCT that runs
 * out of gas or sits in a static call is no frame.
 */
import type { VM } from '@ethereumjs/vm';

const SELFDESTRUCT = 0xff;

export interface SelfdestructEvent {
  contract: string;
  beneficiary: string;
  /** The contract's balance as it goes (geth's frame value). */
  balance: bigint;
}

type Listener = (event: SelfdestructEvent) => void;
type Handler = (runState: any, common: any) => Promise<void> | void;

/** Per opcode-map entry: its own handler and who listens (several tracers may, under muxTracer). */
const hooked = new WeakMap<object, { original: Handler; listeners: Set<Listener> }>();

/** Calls `listener` at each SELFDESTRUCT `vm` runs until the returned function is called. */
export function onSelfdestruct(vm: VM, listener: Listener): () => void {
  // The active opcode map of the EVM (private to @ethereumjs/evm, whose version is pinned).
  const entry = (vm.evm as any)._opcodeMap?.[SELFDESTRUCT] as { opHandler: Handler } | undefined;
  if (!entry) return () => {};
  let hook = hooked.get(entry);
  if (!hook) {
    const original = entry.opHandler;
    const listeners = new Set<Listener>();
    hook = { original, listeners };
    hooked.set(entry, hook);
    entry.opHandler = (runState: any, common: any) => {
      const env = runState.env;
      const event: SelfdestructEvent = {
        contract: env.address.toString(),
        beneficiary: '0x' + (runState.stack.peek(1)[0] as bigint).toString(16).padStart(40, '0').slice(-40),
        balance: env.contract.balance as bigint,
      };
      for (const l of listeners) l(event);
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
