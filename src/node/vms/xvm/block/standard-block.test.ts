import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { CodecError } from '../codec.js';
import { blockIdOf, decodeBlock, EMPTY_ID, encodeBlock } from './standard-block.js';

// A signed BaseTx from avalanchejs v5 (local network, one input, two outputs, one credential).
const TX_HEX =
  '00000000000000003039d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf00000001' +
  'dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db0000000700000000000000050000' +
  '00000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000001dbcf890f77f49b96' +
  '857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000000dbcf890f77f49b96857648b72b77f9f82937' +
  'f28a68704af05da0dc12ba53f2db0000000500000000000f424500000001000000000000000000000001000000090000' +
  '0001' +
  '11'.repeat(65);
const TX = new Uint8Array(Buffer.from(TX_HEX, 'hex'));

describe('X-chain standard block codec', () => {
  it('lays out version, type id 20, parent, height, time, root and txs without their codec prefix', () => {
    const parentId = sha256(new Uint8Array([1]));
    const bytes = encodeBlock({
      parentId,
      height: 7n,
      time: 1_700_000_000n,
      merkleRoot: EMPTY_ID,
      txs: [TX, TX],
    });
    const buf = Buffer.from(bytes);
    assert.equal(buf.readUInt16BE(0), 0);
    assert.equal(buf.readUInt32BE(2), 20);
    assert.deepEqual(new Uint8Array(buf.subarray(6, 38)), parentId);
    assert.equal(buf.readBigUInt64BE(38), 7n);
    assert.equal(buf.readBigUInt64BE(46), 1_700_000_000n);
    assert.ok(buf.subarray(54, 86).equals(Buffer.alloc(32)));
    assert.equal(buf.readUInt32BE(86), 2);
    assert.ok(buf.subarray(90, 90 + TX.length - 2).equals(Buffer.from(TX.subarray(2))));
    assert.equal(bytes.length, 90 + 2 * (TX.length - 2));
    assert.deepEqual(blockIdOf(bytes), sha256(bytes));
  });

  it('decodes what it encodes, txs back with their codec prefix', () => {
    const block = { parentId: EMPTY_ID, height: 1n, time: 5n, merkleRoot: EMPTY_ID, txs: [TX] };
    const decoded = decodeBlock(encodeBlock(block));
    assert.deepEqual(decoded.txs, [TX]);
    assert.equal(decoded.height, 1n);
    assert.equal(decoded.time, 5n);
    const empty = decodeBlock(encodeBlock({ ...block, txs: [] }));
    assert.deepEqual(empty.txs, []);
  });

  it('refuses trailing bytes, truncation, other type ids and codec versions', () => {
    const bytes = encodeBlock({ parentId: EMPTY_ID, height: 1n, time: 5n, merkleRoot: EMPTY_ID, txs: [TX] });
    assert.throws(() => decodeBlock(new Uint8Array([...bytes, 0])), CodecError);
    assert.throws(() => decodeBlock(bytes.subarray(0, bytes.length - 1)), CodecError);
    const p = new Uint8Array(bytes);
    p[5] = 0x20; // a P-chain Banff standard block type id
    assert.throws(() => decodeBlock(p), /unknown block type id 32/);
    const v = new Uint8Array(bytes);
    v[1] = 1;
    assert.throws(() => decodeBlock(v), /codec version/);
  });
});
