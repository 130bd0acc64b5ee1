import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
import { equalsBytes, hexToBytes } from '@ethereumjs/util';
import { createEvmCommon } from '../common.js';
import { replaySender, replayTx, UNRECOVERED_SENDER } from './replay-tx.js';

const KEY = hexToBytes(`0x${'11'.repeat(32)}`);

describe('replayTx', () => {
  const common = createEvmCommon(43112);

  it('reads a typed transaction with more calldata than a spread call takes (no stack overflow)', () => {
    // 200 KB: more than a `...bytes` argument list holds, as a debug_traceBlock raw block may carry.
    const data = new Uint8Array(200_000).fill(7);
    const signed = createFeeMarket1559Tx(
      { chainId: 43112n, nonce: 0n, gasLimit: 30_000_000n, maxFeePerGas: 10n, to: KEY.subarray(0, 20), data },
      { common },
    ).sign(KEY);
    const raw = signed.serialize();
    const sender = replaySender(common, raw);
    assert.ok(equalsBytes(sender, signed.getSenderAddress().bytes));
    const tx = replayTx(common, { raw, sender });
    assert.ok(equalsBytes(tx.hash(), signed.hash()));
    assert.equal(tx.data.length, data.length);
  });

  it('answers the same transaction for a well-formed tx, legacy or typed, as the engine decodes it', () => {
    const legacy = createLegacyTx(
      { nonce: 3n, gasLimit: 21_000n, gasPrice: 25n, to: KEY.subarray(0, 20) },
      { common },
    ).sign(KEY);
    const typed = createFeeMarket1559Tx(
      { chainId: 43112n, nonce: 4n, gasLimit: 21_000n, maxFeePerGas: 30n, maxPriorityFeePerGas: 2n },
      { common },
    ).sign(KEY);
    for (const signed of [legacy, typed]) {
      const raw = signed.serialize();
      const tx = replayTx(common, { raw, sender: replaySender(common, raw) });
      assert.deepEqual(tx.toJSON(), signed.toJSON());
      assert.ok(equalsBytes(tx.getSenderAddress().bytes, signed.getSenderAddress().bytes));
    }
  });

  it('runs a typed transaction of another chain from the zero address', () => {
    const foreign = createEvmCommon(1);
    const signed = createFeeMarket1559Tx(
      { chainId: 1n, nonce: 0n, gasLimit: 21_000n, maxFeePerGas: 10n },
      { common: foreign },
    ).sign(KEY);
    const raw = signed.serialize();
    assert.ok(equalsBytes(replaySender(common, raw), UNRECOVERED_SENDER));
    const tx = replayTx(common, { raw, sender: UNRECOVERED_SENDER });
    assert.equal(
      'chainId' in tx ? tx.chainId : undefined,
      1n,
      'its own chain id, for the checks coreth runs',
    );
  });
});
