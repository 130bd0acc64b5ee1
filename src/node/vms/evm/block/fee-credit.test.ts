import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Address } from '@ethereumjs/util';
import { createVM, type VM } from '@ethereumjs/vm';
import { createEvmCommon } from '../common.js';
import { creditWholeFee } from './fee-credit.js';

const COINBASE = new Address(new Uint8Array(20).fill(1));

async function vmWithCredit(): Promise<VM> {
  const vm = await createVM({ common: createEvmCommon(43112) });
  (vm.evm as unknown as { _block: unknown })._block = { header: { coinbase: COINBASE } };
  creditWholeFee(vm);
  return vm;
}

/** What the engine's runTx does with `afterTx` once a transaction has run. */
const afterTx = (vm: VM, event: object) =>
  (vm as unknown as { _emit: (t: string, e: object) => Promise<void> })._emit('afterTx', event);

describe('creditWholeFee', () => {
  it('credits the coinbase with what the engine burned', async () => {
    const vm = await vmWithCredit();
    await afterTx(vm, { amountSpent: 21_000n * 25n, minerValue: 21_000n * 2n });
    assert.equal((await vm.stateManager.getAccount(COINBASE))?.balance, 21_000n * 23n);
  });

  it('a state that fails the credit fails the transaction run, not the process', async () => {
    const vm = await vmWithCredit();
    vm.stateManager.getAccount = () => Promise.reject(new Error('database is not open'));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await assert.rejects(afterTx(vm, { amountSpent: 100n, minerValue: 0n }), /database is not open/);
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
  });
});
