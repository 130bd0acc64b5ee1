import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { utils } from '@avalabs/avalanchejs';
import {
  fromCheckedHex,
  parseNodeId,
  toCb58,
  toCheckedHex,
  formatNodeId,
  fromCb58,
  MAX_CB58_CHARS,
} from './encoding.js';

describe('checked hex', () => {
  it('round-trips and appends the sha256 checksum', () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const hex = toCheckedHex(bytes);
    assert.equal(hex.length, 2 + 2 * (4 + 4));
    assert.deepEqual(fromCheckedHex(hex), bytes);
  });

  it('refuses a missing prefix and a wrong checksum with the reference wording', () => {
    assert.throws(() => fromCheckedHex('00010203'), /missing 0x prefix to hex encoding/);
    const hex = toCheckedHex(new Uint8Array([1, 2, 3]));
    const broken = hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
    assert.throws(() => fromCheckedHex(broken), /invalid input checksum/);
  });
});

describe('cb58 and NodeIDs', () => {
  it('encodes the empty id as the P-chain id', () => {
    assert.equal(toCb58(new Uint8Array(32)), '11111111111111111111111111111111LpoYY');
    assert.deepEqual(fromCb58('11111111111111111111111111111111LpoYY'), new Uint8Array(32));
  });

  it('encodes as the generic base58check encoder does, leading zero bytes included', () => {
    const cases = [
      new Uint8Array(0),
      new Uint8Array(32),
      new Uint8Array(20),
      new Uint8Array([0, 0, 1]),
      new Uint8Array(32).fill(255),
      new Uint8Array(1000).fill(171),
    ];
    for (let i = 0; i < 300; i++) cases.push(new Uint8Array(randomBytes(i % 70)));
    for (let zeros = 1; zeros < 5; zeros++) {
      const led = new Uint8Array(randomBytes(32));
      led.fill(0, 0, zeros);
      cases.push(led);
    }
    for (const c of cases) assert.equal(toCb58(c), utils.base58check.encode(c));
  });

  it('parses what it formats and rejects other prefixes', () => {
    const id = new Uint8Array(20).fill(7);
    assert.deepEqual(parseNodeId(formatNodeId(id)), id);
    assert.throws(() => parseNodeId('Node-abc'), /prefix/);
  });

  it('verifies the checksum, as the reference does (avalanchejs only drops it)', () => {
    const xChain = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
    assert.equal(Buffer.from(fromCb58(xChain)).toString('hex').slice(0, 8), 'd891ad56');
    assert.throws(() => fromCb58(xChain.slice(0, -1) + 'A'), /invalid input checksum/);
    assert.throws(() => fromCb58('1'), /smaller than the checksum size/);
  });

  it('refuses text longer than any id before decoding it (base58 decoding is quadratic)', () => {
    const longest = toCb58(new Uint8Array(64).fill(255));
    assert.ok(longest.length <= MAX_CB58_CHARS);
    assert.equal(fromCb58(longest).length, 64);
    assert.throws(() => fromCb58('x'.repeat(100_000)), /100000 characters, at most 128/);
    assert.throws(() => parseNodeId('NodeID-' + '1'.repeat(MAX_CB58_CHARS + 1)), /at most 128/);
  });
});
