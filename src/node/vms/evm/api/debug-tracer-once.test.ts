/**
 * coreth makes a transaction trace's tracer once (traceTx), so a JavaScript tracer's `setup` runs
 * once per traced transaction. Nothing a tracer can do shows how often it was made (each one has a
 * sandbox of its own), so this counts the sandboxes set up while debug_traceTransaction runs.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { hexToBytes } from '@ethereumjs/util';
import { privateKeyToAccount } from 'viem/accounts';
import { createEvmCommon } from '../common.js';
import type { EvmChain } from '../evm-chain.js';
import { JsSandbox } from '../trace/js-sandbox.js';
import { createDebugApi } from './debug.js';

const CHAIN_ID = 43112;
const account = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const TX_HASH = `0x${'ab'.repeat(32)}` as const;

/** A chain holding block 1 with one transfer; its engine stops the run once the tracer attaches. */
async function chainWithOneTx(): Promise<EvmChain> {
  const raw = hexToBytes(
    await account.signTransaction({
      chainId: CHAIN_ID,
      type: 'eip1559',
      nonce: 0,
      to: '0x0100000000000000000000000000000000000000',
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 30_000_000_000n,
      maxPriorityFeePerGas: 1n,
    }),
  );
  const tx = { index: 0, hash: hexToBytes(TX_HASH), sender: new Uint8Array(20), raw };
  return {
    common: createEvmCommon(CHAIN_ID),
    latest: { number: 1n },
    headerAt: () => ({ hash: new Uint8Array(32), header: {} }),
    executionHeaderOf: () => ({ number: 1n, timestamp: 0n }),
    executionBlock: () => ({}),
    scratchStateAt: () => ({}),
    vmFor: async () => ({}),
    store: { txByHash: () => ({ blockNumber: 1n, index: 0 }), txsOfBlock: () => [tx] },
  } as unknown as EvmChain;
}

describe('debug_traceTransaction with a JavaScript tracer', () => {
  it('makes the tracer once, so its setup runs once', async () => {
    const api = createDebugApi(await chainWithOneTx());
    const init = mock.method(JsSandbox.prototype, 'init');
    try {
      const tracer = `{setup: function(cfg) {}, fault: function() {}, result: function() { return 1 }}`;
      // The stub engine cannot run the transaction: the trace fails after its tracer is made.
      await assert.rejects(async () => api.debug_traceTransaction([TX_HASH, { tracer }], {}));
      assert.equal(init.mock.callCount(), 1);
    } finally {
      init.mock.restore();
    }
  });
});
