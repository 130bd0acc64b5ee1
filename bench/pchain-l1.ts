/**
 * The P-chain's per-block cost of active L1 validators, timed in-process: a PlatformVM on its own
 * store builds empty blocks (`advanceTime(1)`: the staker-change check, the fee advance with its
 * run-dry check, the block and its commit) with no L1 validators, then with L1_VALIDATORS of them
 * paying the continuous fee (written straight into the store, each with a balance that lasts),
 * and builds with nothing due (the check the once-a-second timer and every build make). The
 * difference from the figures with none is what the L1 validators cost.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OutputOwners } from '@avalabs/avalanchejs';
import type { ChainContext } from '../src/node/chains/chain.js';
import { DevnetClock } from '../src/node/clock.js';
import type { NodeConfig } from '../src/node/config.js';
import { buildGenesis } from '../src/node/genesis/genesis.js';
import { ContainerIndex } from '../src/node/index/container-index.js';
import { NodeDatabase } from '../src/node/storage/database.js';
import { SharedMemory } from '../src/node/vms/components/shared-memory.js';
import { platformConfig } from '../src/node/vms/platformvm/config.js';
import { PlatformVM } from '../src/node/vms/platformvm/vm.js';
import { createLogger } from '../src/shared/logger.js';
import { NETWORKS } from '../src/shared/networks.js';
import type { BenchResult } from './index.js';

const L1_VALIDATORS = 1000;
const BLOCKS = 60;
const CHECKS = 200;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function platformVm(dir: string): { vm: PlatformVM; db: NodeDatabase } {
  const db = new NodeDatabase(path.join(dir, 'node.db'));
  const network = NETWORKS.local;
  const genesis = buildGenesis({ network, seed: 'bench-l1', validators: 1, startTime: 1_700_000_000 });
  const indexes = new Map<string, ContainerIndex>();
  const ctx = {
    config: { network, blockTimeMs: 0 } as NodeConfig,
    genesis,
    db,
    clock: new DevnetClock(db),
    logger: createLogger('error'),
    index: (name: string) => {
      if (!indexes.has(name)) indexes.set(name, new ContainerIndex(db, name));
      return indexes.get(name)!;
    },
    sharedMemory: new SharedMemory(db),
    chain: () => undefined,
  } as unknown as ChainContext;
  return { vm: new PlatformVM(ctx, platformConfig(network)), db };
}

/** `count` active L1 validators of one L1, each with a balance of a million AVAX to pay from. */
function addL1Validators(vm: PlatformVM, count: number): void {
  const accrued = vm.state.validatorFeeState()!.accrued;
  const subnet = new Uint8Array(32).fill(7);
  const owner = OutputOwners.fromNative([new Uint8Array(20).fill(1)]);
  vm.state.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = new Uint8Array(32);
      new DataView(id.buffer).setUint32(0, i + 1);
      vm.state.putL1Validator({
        validationId: id,
        subnet,
        nodeId: id.subarray(0, 20),
        publicKey: new Uint8Array(48).fill(i % 256),
        weight: 100n,
        startTime: 1_700_000_000,
        minNonce: 0n,
        endAccumulatedFee: accrued + 1_000_000n * 1_000_000_000n + BigInt(i),
        remainingBalanceOwner: owner,
        deactivationOwner: owner,
        height: 0n,
        status: 'active',
      });
    }
  });
}

/** Median ms of one empty block, and of one build with nothing due. */
function timeBlocks(vm: PlatformVM): { block: number; check: number } {
  const blocks: number[] = [];
  for (let i = 0; i < BLOCKS; i++) {
    const t0 = performance.now();
    vm.advanceTime(1);
    blocks.push(performance.now() - t0);
  }
  // A build with nothing due: the staker-change check in an empty transaction.
  const checks: number[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const t0 = performance.now();
    vm.buildNow();
    checks.push(performance.now() - t0);
  }
  return { block: median(blocks), check: median(checks) };
}

export function pchainL1Bench(): BenchResult[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-bench-l1-'));
  const { vm, db } = platformVm(dir);
  try {
    const none = timeBlocks(vm);
    addL1Validators(vm, L1_VALIDATORS);
    const many = timeBlocks(vm);
    const blocks = vm.height();
    return [
      {
        name: `P-chain empty block, ${L1_VALIDATORS} active L1 validators, median`,
        value: many.block,
        unit: 'ms',
        note: `${none.block.toFixed(2)} ms with none; in-process, ${blocks} blocks`,
      },
      {
        name: `P-chain build with nothing due, ${L1_VALIDATORS} L1 validators, median`,
        value: many.check * 1000,
        unit: 'µs',
        note: `${(none.check * 1000).toFixed(1)} µs with none; in-process`,
      },
    ];
  } finally {
    vm.stop();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
