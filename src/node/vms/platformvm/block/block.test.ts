import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockId, decodeBlockHeader, encodeBlock, rewardValidatorTxBytes } from './block.js';

describe('P-chain block codec', () => {
  const parent = new Uint8Array(32).fill(7);
  const tx = new Uint8Array([0, 0, 0, 0, 0, 34, 1, 2, 3]);

  it('writes a Banff standard block as time, parent, height, txs without their codec version', () => {
    const bytes = encodeBlock({
      kind: 'standard',
      parentId: parent,
      height: 5n,
      time: 1_700_000_000n,
      txs: [tx],
    });
    const b = Buffer.from(bytes);
    assert.equal(b.readUInt16BE(0), 0);
    assert.equal(b.readUInt32BE(2), 32);
    assert.equal(b.readBigUInt64BE(6), 1_700_000_000n);
    assert.deepEqual(new Uint8Array(b.subarray(14, 46)), parent);
    assert.equal(b.readBigUInt64BE(46), 5n);
    assert.equal(b.readUInt32BE(54), 1);
    assert.deepEqual(new Uint8Array(b.subarray(58)), tx.subarray(2));
    assert.deepEqual(decodeBlockHeader(bytes), {
      kind: 'standard',
      time: 1_700_000_000n,
      parentId: parent,
      height: 5n,
    });
    assert.equal(blockId(bytes).length, 32);
  });

  it('writes proposal (29), commit (31) and abort (30) blocks with their type ids', () => {
    const reward = rewardValidatorTxBytes(new Uint8Array(32).fill(9));
    assert.equal(Buffer.from(reward).readUInt32BE(2), 20);
    const proposal = encodeBlock({
      kind: 'proposal',
      parentId: parent,
      height: 6n,
      time: 10n,
      txs: [reward],
    });
    assert.equal(Buffer.from(proposal).readUInt32BE(2), 29);
    assert.equal(Buffer.from(proposal).readUInt32BE(14), 0, 'no extra txs before the proposal tx');
    assert.deepEqual(decodeBlockHeader(proposal).height, 6n);
    const commit = encodeBlock({ kind: 'commit', parentId: parent, height: 7n, time: 10n, txs: [] });
    assert.equal(Buffer.from(commit).readUInt32BE(2), 31);
    assert.equal(commit.length, 2 + 4 + 8 + 32 + 8);
    assert.equal(
      Buffer.from(
        encodeBlock({ kind: 'abort', parentId: parent, height: 7n, time: 10n, txs: [] }),
      ).readUInt32BE(2),
      30,
    );
    assert.throws(() => encodeBlock({ kind: 'proposal', parentId: parent, height: 1n, time: 1n, txs: [] }), {
      name: 'BlockCodecError',
      message: 'a proposal block carries exactly one tx',
    });
  });
});
