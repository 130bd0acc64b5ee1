import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTx, type TypedTransaction } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { createEvmCommon } from '../common.js';
import { TX_POOL_LIFETIME_MS, TxPool } from './txpool.js';

const common = createEvmCommon(43112);
const key = hexToBytes('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const sender = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';

function tx(nonce: bigint): TypedTransaction {
  return createTx(
    { type: 2, nonce, gasLimit: 21_000n, maxFeePerGas: 2n, to: `0x${'11'.repeat(20)}` },
    { common },
  ).sign(key);
}

/** The chain's side of an addition: the sender's state nonce, the next base fee. */
const at = { stateNonce: 0n, baseFee: 1n };

/** A pool on a clock the test moves. */
function poolAt(): { pool: TxPool; advance(ms: number): void } {
  let t = 1_000_000;
  return { pool: new TxPool({ now: () => t }), advance: (ms) => (t += ms) };
}

describe('TxPool lifetime (coreth legacypool: queued txs of a silent sender are evicted)', () => {
  it('evicts a sender’s gapped txs once its heartbeat is older than the lifetime', () => {
    const { pool, advance } = poolAt();
    // State nonce 0: nonces 5 and 6 wait behind a gap that never fills.
    pool.add(tx(5n), sender, at);
    pool.add(tx(6n), sender, at);
    advance(TX_POOL_LIFETIME_MS);
    assert.deepEqual(pool.expiredSenders(), [], 'not past the lifetime yet');
    assert.deepEqual(pool.evictQueued(sender, 0n), []);
    advance(1);
    assert.deepEqual(pool.expiredSenders(), [sender]);
    const evicted = pool.evictQueued(sender, 0n);
    assert.deepEqual(
      evicted.map((p) => p.nonce),
      [5n, 6n],
    );
    assert.equal(pool.size, 0);
    assert.deepEqual(pool.expiredSenders(), [], 'the sender leaves with its last tx');
  });

  it('keeps the executable run and evicts only what waits behind the gap', () => {
    const { pool, advance } = poolAt();
    pool.add(tx(0n), sender, at);
    pool.add(tx(1n), sender, at);
    pool.add(tx(3n), sender, at);
    advance(TX_POOL_LIFETIME_MS + 1);
    assert.deepEqual(
      pool.evictQueued(sender, 0n).map((p) => p.nonce),
      [3n],
    );
    assert.deepEqual(
      pool.pendingRun(sender, 0n).map((p) => p.nonce),
      [0n, 1n],
    );
  });

  it('a tx becoming executable renews the heartbeat, as promoteTx does', () => {
    const { pool, advance } = poolAt();
    pool.add(tx(2n), sender, at);
    advance(TX_POOL_LIFETIME_MS - 1000);
    pool.add(tx(0n), sender, at);
    pool.heartbeat(sender);
    advance(2000);
    assert.deepEqual(pool.expiredSenders(), []);
    assert.deepEqual(pool.evictQueued(sender, 0n), []);
    assert.equal(pool.size, 2);
  });

  it('a pool filled with abandoned gapped txs takes new ones again after the eviction', () => {
    let t = 0;
    const limits = { accountSlots: 16, globalSlots: 1, accountQueue: 64, globalQueue: 2 };
    const pool = new TxPool({ limits, now: () => t });
    for (const n of [10n, 11n, 12n]) pool.add(tx(n), sender, at);
    // Full, and the newcomer pays no more than the cheapest pooled tx.
    assert.throws(() => pool.add(tx(0n), sender, at), /transaction underpriced/);
    t += TX_POOL_LIFETIME_MS + 1;
    for (const s of pool.expiredSenders()) pool.evictQueued(s, 0n);
    pool.add(tx(0n), sender, at);
    assert.equal(pool.size, 1);
  });
});

describe('TxPool next nonce (kept per sender, so sending in order costs the same at any depth)', () => {
  it('follows the run as it grows, shrinks, refills and its state nonce moves', () => {
    const pool = new TxPool();
    for (const n of [0n, 1n, 2n, 4n]) pool.add(tx(n), sender, at);
    assert.equal(pool.nextNonce(sender, 0n), 3n);
    pool.add(tx(3n), sender, at);
    assert.equal(pool.nextNonce(sender, 0n), 5n, 'the gap filled: the queued 4 joins the run');
    pool.remove(pool.pendingRun(sender, 0n)[1].hash);
    assert.equal(pool.nextNonce(sender, 0n), 1n, 'a tx inside the run left');
    pool.add(tx(1n), sender, at);
    assert.equal(pool.nextNonce(sender, 0n), 5n);
    pool.dropBelow(sender, 2n);
    assert.equal(pool.nextNonce(sender, 2n), 5n, 'mined up to 2');
    assert.equal(pool.nextNonce(sender, 6n), 6n, 'a state nonce past the pool');
    pool.dropFrom(sender, 3n);
    assert.equal(pool.nextNonce(sender, 2n), 3n);
    pool.remove(pool.pendingRun(sender, 2n)[0].hash);
    assert.equal(pool.size, 0);
    assert.equal(pool.nextNonce(sender, 2n), 2n, 'an empty sender');
  });
});
