import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BigIntPr, OutputOwners, TransferOutput } from '@avalabs/avalanchejs';

import { NodeDatabase } from '../../../storage/database.js';
import { makeUtxo } from '../codec.js';
import { PlatformState, type L1ValidatorRecord, type StoredBlock } from './platform-state.js';

const block = (height: bigint, time: number): StoredBlock => ({
  height,
  id: new Uint8Array(32).fill(Number(height)),
  bytes: new Uint8Array([Number(height)]),
  time,
  kind: 'standard',
  acceptedMs: 1_000 * time,
});

const l1 = (n: number, status: L1ValidatorRecord['status']): L1ValidatorRecord => ({
  validationId: new Uint8Array(32).fill(n),
  subnet: new Uint8Array(32).fill(9),
  nodeId: new Uint8Array(20).fill(n),
  publicKey: new Uint8Array(48).fill(n),
  weight: 10n,
  startTime: 100,
  minNonce: 0n,
  endAccumulatedFee: status === 'active' ? 1_000n : 0n,
  remainingBalanceOwner: OutputOwners.fromNative([new Uint8Array(20).fill(1)]),
  deactivationOwner: OutputOwners.fromNative([new Uint8Array(20).fill(2)]),
  height: 1n,
  status,
});

describe('PlatformState values kept in memory', () => {
  let dir: string;
  let db: NodeDatabase;
  let state: PlatformState;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-pstate-'));
    db = new NodeDatabase(path.join(dir, 'node.db'));
    state = new PlatformState(db, 'P');
    db.transaction(() => {
      state.putBlock(block(0n, 100));
      state.setGasState({ capacity: 1_000n, excess: 0n, timestamp: 100 });
      state.setValidatorFeeState({ excess: 0n, accrued: 0n, timestamp: 100 });
      state.putL1Validator(l1(1, 'active'));
    });
  });
  after(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What a node starting on the store now would read. */
  const fromStore = () => {
    const fresh = new PlatformState(db, 'P');
    return {
      last: fresh.lastBlock()?.height,
      gas: fresh.gasState(),
      fee: fresh.validatorFeeState(),
      active: fresh.activeL1ValidatorCount(),
    };
  };
  const kept = () => ({
    last: state.lastBlock()?.height,
    gas: state.gasState(),
    fee: state.validatorFeeState(),
    active: state.activeL1ValidatorCount(),
  });

  it('answers what the store holds after each committed block', () => {
    assert.deepEqual(kept(), fromStore());
    db.transaction(() => {
      state.putBlock(block(1n, 101));
      state.setGasState({ capacity: 900n, excess: 100n, timestamp: 101 });
      state.setValidatorFeeState({ excess: 0n, accrued: 512n, timestamp: 101 });
      state.putL1Validator(l1(2, 'active'));
    });
    assert.deepEqual(kept(), fromStore());
    assert.deepEqual(kept(), {
      last: 1n,
      gas: { capacity: 900n, excess: 100n, timestamp: 101 },
      fee: { excess: 0n, accrued: 512n, timestamp: 101 },
      active: 2n,
    });
    db.transaction(() =>
      state.putL1Validator({ ...l1(1, 'active'), endAccumulatedFee: 0n, status: 'inactive' }),
    );
    assert.equal(state.activeL1ValidatorCount(), 1n);
  });

  it('forgets what a rolled-back block wrote: the store answers again', () => {
    const before = fromStore();
    assert.deepEqual(kept(), before);
    assert.throws(() =>
      db.transaction(() => {
        state.putBlock(block(2n, 102));
        state.setGasState({ capacity: 1n, excess: 999n, timestamp: 102 });
        state.setValidatorFeeState({ excess: 5n, accrued: 9_999n, timestamp: 102 });
        state.putL1Validator(l1(3, 'active'));
        // Read inside the transaction, as the builder does between its writes.
        assert.equal(state.lastBlock()?.height, 2n);
        assert.equal(state.activeL1ValidatorCount(), 2n);
        throw new Error('build failed');
      }),
    );
    assert.deepEqual(kept(), before);
    assert.deepEqual(fromStore(), before);
  });
});

describe('PlatformState UTXOs kept in memory', () => {
  let dir: string;
  let db: NodeDatabase;
  let state: PlatformState;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-pstate-utxos-'));
    db = new NodeDatabase(path.join(dir, 'node.db'));
    state = new PlatformState(db, 'P');
  });
  after(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const utxo = (n: number) =>
    makeUtxo(
      new Uint8Array(32).fill(n),
      0,
      new Uint8Array(32).fill(1),
      new TransferOutput(new BigIntPr(BigInt(n)), OutputOwners.fromNative([new Uint8Array(20).fill(n)])),
    );
  /** Amounts of the UTXOs `ids` name, as this state and as a node starting on the store read them. */
  const amounts = (ids: Uint8Array[]) =>
    [state, new PlatformState(db, 'P')].map((s) =>
      ids.map((id) => (s.getUtxo(id)?.output as TransferOutput | undefined)?.amount()),
    );

  it('answers what the store holds after spends, and forgets what a rolled-back block wrote', () => {
    const [a, b] = db.transaction(() => [state.addUtxo(utxo(1)), state.addUtxo(utxo(2))]);
    assert.deepEqual(amounts([a, b]), [
      [1n, 2n],
      [1n, 2n],
    ]);
    let c: Uint8Array | undefined;
    assert.throws(() =>
      db.transaction(() => {
        state.spendUtxos([a]);
        c = state.addUtxo(utxo(3));
        assert.equal(state.getUtxo(a), undefined);
        assert.equal((state.getUtxo(c)?.output as TransferOutput).amount(), 3n);
        throw new Error('build failed');
      }),
    );
    assert.deepEqual(amounts([a, b, c!]), [
      [1n, 2n, undefined],
      [1n, 2n, undefined],
    ]);
    db.transaction(() => state.spendUtxos([b]));
    assert.deepEqual(amounts([a, b]), [
      [1n, undefined],
      [1n, undefined],
    ]);
    assert.throws(() => db.transaction(() => state.spendUtxos([b])), /is not in the UTXO set/);
  });
});

describe('PlatformState L1 validators by the fee their balance ends at', () => {
  let dir: string;
  let db: NodeDatabase;
  let state: PlatformState;
  // Decimal texts of every length around the bounds, past 2^63 - 1 (where a CAST would stop)
  // and up to uint64's largest, in an order that is neither numeric nor by text.
  const ends = [
    18_446_744_073_709_551_615n,
    9n,
    1_000n,
    9_223_372_036_854_775_808n,
    10n,
    999n,
    9_223_372_036_854_775_807n,
    100n,
    1_001n,
  ];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-pstate-'));
    db = new NodeDatabase(path.join(dir, 'node.db'));
    state = new PlatformState(db, 'P');
    db.transaction(() => {
      ends.forEach((end, i) =>
        state.putL1Validator({ ...l1(ends.length - i, 'active'), endAccumulatedFee: end }),
      );
      // Inactive and removed validators pay nothing, whatever their row holds.
      state.putL1Validator(l1(50, 'inactive'));
      state.putL1Validator({ ...l1(51, 'removed'), endAccumulatedFee: 1n });
    });
  });
  after(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the first to run dry by numeric order of the fee end', () => {
    assert.equal(state.firstL1FeeEnd(), 9n);
    const nine = l1(ends.length - ends.indexOf(9n), 'active');
    db.transaction(() => state.putL1Validator({ ...nine, endAccumulatedFee: 5_000n }));
    assert.equal(state.firstL1FeeEnd(), 10n);
    db.transaction(() => state.putL1Validator({ ...nine, endAccumulatedFee: 9n }));
  });

  it('lists as run dry exactly the active ones ending at or below the accrued fee, by validation id', () => {
    const active = state.l1Validators().filter((v) => v.status === 'active');
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    for (const accrued of [
      0n,
      8n,
      9n,
      10n,
      99n,
      100n,
      999n,
      1_000n,
      1_001n,
      9_223_372_036_854_775_807n,
      2n ** 64n,
    ]) {
      const expected = active
        .filter((v) => v.endAccumulatedFee <= accrued)
        .map((v) => hex(v.validationId))
        .sort();
      assert.deepEqual(
        state.exhaustedL1Validators(accrued).map((v) => hex(v.validationId)),
        expected,
        `accrued ${accrued}`,
      );
    }
  });

  it('is empty with no validator paying', () => {
    db.transaction(() => {
      for (const v of state.l1Validators())
        state.putL1Validator({ ...v, endAccumulatedFee: 0n, status: 'inactive' });
    });
    assert.equal(state.firstL1FeeEnd(), undefined);
    assert.deepEqual(state.exhaustedL1Validators(10n ** 30n), []);
    assert.equal(state.activeL1ValidatorCount(), 0n);
  });
});
