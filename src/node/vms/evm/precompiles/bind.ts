/**
 * Hands TypeScript precompiles to the engine. The engine's precompile input lacks the caller,
 * value and static flag, so the message stack is tracked from the engine's `beforeMessage` /
 * `afterMessage` events: when a precompile runs, the top message is the call to it.
 *
 * A stateful precompile entered with DELEGATECALL or CALLCODE invalidates the whole transaction
 * from `INVALIDATE_DELEGATE_UNIX` on, as coreth and subnet-evm (params/hooks_libevm.go) do: the
 * precompile still runs, and the transaction is refused once it has finished, its state rolled
 * back, so a block leaves it out and `eth_call` answers the reference's error.
 */
import type { EVM } from '@ethereumjs/evm';
import type { CustomPrecompile } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import type { PrecompileModule } from './registry.js';

/** The reference's `InvalidateDelegateUnix` (2 Aug 2025, 04:00 UTC). */
export const INVALIDATE_DELEGATE_UNIX = 1_754_107_200n;

type ForeignCallType = 'DELEGATECALL' | 'CALLCODE';

interface Frame {
  caller: any;
  value: bigint;
  isStatic: boolean;
  /** Set when the message runs another account's code in its caller's context. */
  foreignCall?: ForeignCallType;
}

/** libevm's wording of a transaction a precompile invalidated (state_transition.libevm.go). */
export class ExecutionInvalidated extends Error {
  constructor(reason: string) {
    super(`execution invalidated: ${reason}`);
    this.name = 'ExecutionInvalidated';
  }
}

/**
 * The functions run for stateful precompiles (Warp, the allow lists, fee and reward managers,
 * native minter). The reference registers them through libevm's PrecompileOverride, not among
 * `vm.ActivePrecompiles(rules)`, so what reads that list (flatCallTracer) must tell them apart
 * from the engine's Ethereum precompiles.
 */
const stateful = new WeakSet<object>();

/** Whether `fn`, the engine's precompile at some address, is a stateful module's. */
export function isStatefulPrecompile(fn: unknown): boolean {
  return typeof fn === 'function' && stateful.has(fn);
}

function foreignCallType(msg: any): ForeignCallType | undefined {
  if (msg.delegatecall) return 'DELEGATECALL';
  // CALLCODE runs the target's code with the caller's address as `to`.
  if (msg.to !== undefined && !msg.codeAddress.equals(msg.to)) return 'CALLCODE';
  return undefined;
}

export function bindPrecompiles(
  modules: readonly PrecompileModule[],
  timestamp: () => bigint,
): { customPrecompiles: CustomPrecompile[]; attach(vm: VM): void } {
  const stack: Frame[] = [];
  // The first reason the running transaction was invalidated for (reset per transaction).
  let invalidated: string | undefined;
  const customPrecompiles: CustomPrecompile[] = modules.map((m) => ({
    address: m.address as `0x${string}`,
    function: (input) => {
      const top = stack[stack.length - 1];
      const blockTimestamp = timestamp();
      if (top?.foreignCall && blockTimestamp >= INVALIDATE_DELEGATE_UNIX)
        invalidated ??= `precompile cannot be called with ${top.foreignCall}`;
      return m.run({
        ...input,
        caller: top?.caller,
        value: top?.value ?? 0n,
        isStatic: top?.isStatic ?? false,
        blockTimestamp,
      }) as any;
    },
  }));
  for (const p of customPrecompiles) if ('function' in p) stateful.add(p.function);
  return {
    customPrecompiles,
    attach(vm: VM) {
      if (modules.length === 0) return;
      const events = (vm.evm as EVM).events!;
      // One-argument listeners: the engine calls them synchronously, so a throw from `afterTx`
      // fails the run, and the engine reverts the transaction's state.
      vm.events.on('beforeTx', () => {
        // A run the engine aborted (a call's deadline) leaves frames behind: start clean.
        stack.length = 0;
        invalidated = undefined;
      });
      vm.events.on('afterTx', () => {
        const reason = invalidated;
        invalidated = undefined;
        if (reason) throw new ExecutionInvalidated(reason);
      });
      events.on('beforeMessage', (msg: any, resolve?: () => void) => {
        stack.push({
          caller: msg.caller,
          value: msg.value,
          isStatic: msg.isStatic,
          foreignCall: foreignCallType(msg),
        });
        resolve?.();
      });
      events.on('afterMessage', (_r: any, resolve?: () => void) => {
        stack.pop();
        resolve?.();
      });
    },
  };
}
