/**
 * coreth and subnet-evm pay a transaction's whole fee (gas used × effective gas price, base fee
 * included) to the block's coinbase: the blackhole, where Avalanche's fees are burned, or a
 * Subnet-EVM reward address. The engine follows EIP-1559 instead, paying the coinbase only the
 * tip and burning the base fee, so the part it burned is credited here once each transaction
 * has run — before a tracer listening to the same event reads the state (prestateTracer's post).
 */
import { Account, type Address } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';

export function creditWholeFee(vm: VM): void {
  const evm = vm.evm as unknown as { _block?: { header: { coinbase: Address } } };
  vm.events.on('afterTx', (event: RunTxResult, resolve?: (r?: unknown) => void) => {
    const credit = async () => {
      const coinbase = evm._block?.header.coinbase;
      // What the sender paid less what the engine gave the coinbase (the burned base fee; for a
      // call run without a price under a base fee, the engine's negative tip): the coinbase then
      // gains exactly what the sender paid, as coreth's gas used × effective gas price.
      const burned = (event?.amountSpent ?? 0n) - (event?.minerValue ?? 0n);
      if (!coinbase || burned <= 0n) return;
      const account = (await vm.stateManager.getAccount(coinbase)) ?? new Account();
      account.balance += burned;
      await vm.stateManager.putAccount(coinbase, account);
    };
    // A failed credit fails the run (the engine then reverts the transaction's state): the
    // engine awaits what `resolve` is given, so a rejection handed to it is thrown there, where
    // one left on `credit()` was unhandled and ended the process.
    credit().then(
      () => resolve?.(),
      (err: unknown) => resolve?.(Promise.reject(err)),
    );
  });
}
