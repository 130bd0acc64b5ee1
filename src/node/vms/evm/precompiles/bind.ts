/**
 * Hands TypeScript precompiles to the engine. The engine's precompile input lacks the caller,
 * value and static flag, so the message stack is tracked from the engine's `beforeMessage` /
 * `afterMessage` events: when a precompile runs, the top message is the call to it.
 */
import type { EVM } from '@ethereumjs/evm';
import type { CustomPrecompile } from '@ethereumjs/evm';
import type { PrecompileModule } from './registry.js';

interface Frame {
  caller: any;
  value: bigint;
  isStatic: boolean;
}

export function bindPrecompiles(
  modules: readonly PrecompileModule[],
  timestamp: () => bigint,
): { customPrecompiles: CustomPrecompile[]; attach(evm: unknown): void } {
  const stack: Frame[] = [];
  const customPrecompiles: CustomPrecompile[] = modules.map((m) => ({
    address: m.address as `0x${string}`,
    function: (input) => {
      const top = stack[stack.length - 1];
      return m.run({
        ...input,
        caller: top?.caller,
        value: top?.value ?? 0n,
        isStatic: top?.isStatic ?? false,
        blockTimestamp: timestamp(),
      }) as any;
    },
  }));
  return {
    customPrecompiles,
    attach(evm: unknown) {
      if (modules.length === 0) return;
      const events = (evm as EVM).events!;
      events.on('beforeMessage', (msg: any, resolve?: () => void) => {
        stack.push({ caller: msg.caller, value: msg.value, isStatic: msg.isStatic });
        resolve?.();
      });
      events.on('afterMessage', (_r: any, resolve?: () => void) => {
        stack.pop();
        resolve?.();
      });
    },
  };
}
