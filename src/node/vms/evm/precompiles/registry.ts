/**
 * Stateful precompiles written in TypeScript, keyed by address, each active from a timestamp
 * (and optionally until one). The C-chain and Subnet-EVM flavours differ in which modules they
 * list; the engine sees, for each block, exactly the modules active at its timestamp.
 * A module gets the caller (the message stack is tracked around the engine's calls), the
 * state, and can emit logs; writes are rolled back when its caller reverts.
 */
import type { PrecompileInput } from '@ethereumjs/evm';
import type { ExecResult } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';

export interface PrecompileCall extends PrecompileInput {
  /** The account that called the precompile. */
  readonly caller: Address;
  readonly value: bigint;
  readonly isStatic: boolean;
  /** The timestamp of the block being executed. */
  readonly blockTimestamp: bigint;
}

export interface PrecompileModule {
  /** 20-byte address, lower-case 0x hex. */
  readonly address: string;
  /** The key of this module in the chain config (e.g. `warpConfig`). */
  readonly configKey: string;
  readonly activation: number;
  readonly deactivation?: number;
  readonly configJson?: Record<string, unknown>;
  /**
   * For a predicate precompile (Warp): the intrinsic gas of an access-list entry naming it, in
   * place of the usual access-list cost; throws when the predicate makes the transaction invalid.
   */
  predicateGas?(storageKeys: readonly Uint8Array[]): bigint;
  run(call: PrecompileCall): Promise<ExecResult>;
}

export class PrecompileRegistry {
  private readonly byAddress = new Map<string, PrecompileModule[]>();

  constructor(modules: readonly PrecompileModule[]) {
    for (const m of modules) {
      const list = this.byAddress.get(m.address.toLowerCase()) ?? [];
      list.push(m);
      this.byAddress.set(m.address.toLowerCase(), list);
    }
  }

  /** The modules active at `timestamp`, one per address (the latest activation wins). */
  activeAt(timestamp: number): PrecompileModule[] {
    const out: PrecompileModule[] = [];
    for (const list of this.byAddress.values()) {
      const active = list
        .filter(
          (m) => m.activation <= timestamp && (m.deactivation === undefined || timestamp < m.deactivation),
        )
        .sort((a, b) => b.activation - a.activation)[0];
      if (active) out.push(active);
    }
    return out;
  }

  /** A key that changes exactly when the active set changes (engines are cached by it). */
  activeKey(timestamp: number): string {
    return this.activeAt(timestamp)
      .map((m) => `${m.address}@${m.activation}`)
      .join(',');
  }

  get size(): number {
    return this.byAddress.size;
  }
}
