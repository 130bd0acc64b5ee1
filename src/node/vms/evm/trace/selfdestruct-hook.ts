/**
 * SELFDESTRUCT as the engine runs it, for geth's callTracer: geth reports each one as a child
 * frame `{type: 'SELFDESTRUCT', from: contract, to: beneficiary, value: balance, gas: 0}` of the
 * frame that executed it. The engine emits no message for it (it is no call), and its `step`
 * event copies the stack and memory at every opcode, too dear for the tracer that runs with
 * every block; so the opcode's handler is wrapped while a tracer listens (opcode-hook.ts). The
 * wrapper runs after the opcode's static and dynamic gas are charged, as geth's hook does: a
 * SELFDESTRUCT that runs out of gas or sits in a static call is no frame.
 */
import type { VM } from '@ethereumjs/vm';
import { onOpcode } from './opcode-hook.js';

const SELFDESTRUCT = 0xff;

export interface SelfdestructEvent {
  contract: string;
  beneficiary: string;
  /** The contract's balance as it goes (geth's frame value). */
  balance: bigint;
}

type Listener = (event: SelfdestructEvent) => void;

/** Calls `listener` at each SELFDESTRUCT `vm` runs until the returned function is called. */
export function onSelfdestruct(vm: VM, listener: Listener): () => void {
  return onOpcode(vm, SELFDESTRUCT, (runState) => {
    const env = runState.env;
    listener({
      contract: env.address.toString(),
      beneficiary: '0x' + (runState.stack.peek(1)[0] as bigint).toString(16).padStart(40, '0').slice(-40),
      balance: env.contract.balance as bigint,
    });
  });
}
