import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OutputOwners } from '@avalabs/avalanchejs';

import { NodeDatabase } from '../../../storage/database.js';
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
