/**
 * A warm environment for plain calls (`eth_call`, `eth_estimateGas` without state or block
 * overrides): the state at the block, a VM over it and its execution blocks, built once and kept
 * for the next calls at the same block instead of per call — building the VM alone costs more
 * than running a token's `balanceOf`. The state keeps what calls load (accounts, slots, code)
 * cached, since each call's changes are reverted at its end.
 *
 * Calls on one environment run one at a time: each is a checkpoint reverted when it ends, and
 * two interleaved calls would see each other's changes.
 */
import type { Block } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { EvmHeader } from '../block/evm-block.js';
import type { EvmChain, ExecutionHeader } from '../evm-chain.js';
import type { BlockStateManager } from '../state/world.js';

/** Past this many cached accounts an environment is rebuilt (nothing else bounds its caches). */
const MAX_CACHED_ACCOUNTS = 20_000;

export class CallEnv {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly blocks = new Map<bigint, Block>();

  constructor(
    /** The block this environment's state is at: its number and hash. */
    readonly number: bigint,
    readonly hash: Uint8Array,
    readonly state: BlockStateManager,
    readonly vm: VM,
    private readonly chain: EvmChain,
  ) {}

  /** The execution block for `header` (calls at one block differ only by their base fee). */
  block(header: ExecutionHeader): Block {
    let block = this.blocks.get(header.baseFeePerGas);
    if (!block) {
      if (this.blocks.size >= 16) this.blocks.clear();
      block = this.chain.executionBlock(header);
      this.blocks.set(header.baseFeePerGas, block);
    }
    return block;
  }

  /** Runs `fn` after every call queued before it has finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Drops this environment: the next call at its block builds a fresh one. */
  discard(): void {
    if (current.get(this.chain) === this) current.delete(this.chain);
  }

  get worn(): boolean {
    return this.state.cachedAccounts() > MAX_CACHED_ACCOUNTS;
  }
}

const current = new WeakMap<EvmChain, CallEnv>();

/** The chain's environment at an accepted block, reused while calls keep asking for that block. */
export async function callEnvAt(
  chain: EvmChain,
  blockNumber: bigint,
  found: { hash: Uint8Array; header: EvmHeader },
): Promise<CallEnv> {
  // Compared as bytes, not as a hex key made on every call.
  const env = current.get(chain);
  if (env && env.number === blockNumber && equalsBytes(env.hash, found.hash) && !env.worn) return env;
  const state = chain.warmStateAt(blockNumber);
  const vm = await chain.vmFor(state, found.header.timestamp);
  const fresh = new CallEnv(blockNumber, found.hash, state, vm, chain);
  current.set(chain, fresh);
  return fresh;
}
