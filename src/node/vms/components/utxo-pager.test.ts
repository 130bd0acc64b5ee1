import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageUtxos, type AddressRows } from './utxo-pager.js';

const addr = (n: number) => new Uint8Array(20).fill(n);
const id = (n: number) => new Uint8Array(32).fill(n);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** An in-memory index: address → sorted input ids. */
function index(owned: Record<number, number[]>): AddressRows {
  return (address, from, limit) =>
    (owned[address[0]] ?? [])
      .map(id)
      .filter((i) => Buffer.compare(Buffer.from(i), from) > 0)
      .sort(Buffer.compare)
      .slice(0, limit)
      .map((inputId) => ({ inputId, bytes: inputId.subarray(0, 1) }));
}

describe('getUTXOs paging', () => {
  it('names the last address searched and the empty id when nothing is found', () => {
    const page = pageUtxos([addr(9), addr(3)], 10, undefined, index({}), { endAt: 'searched' });
    assert.deepEqual(page.utxos, []);
    assert.equal(hex(page.end.address), hex(addr(9)));
    assert.equal(hex(page.end.inputId), hex(id(0)));
  });

  it('walks addresses in byte order and resumes strictly after the end index', () => {
    const rows = index({ 1: [5, 7], 2: [7, 8], 3: [2] });
    const first = pageUtxos([addr(3), addr(2), addr(1)], 2, undefined, rows, { endAt: 'searched' });
    assert.deepEqual(
      first.utxos.map((u) => [u.address[0], u.inputId[0]]),
      [
        [1, 5],
        [1, 7],
      ],
    );
    assert.deepEqual([first.end.address[0], first.end.inputId[0]], [1, 7]);
    const second = pageUtxos([addr(1), addr(2), addr(3)], 2, first.end, rows, { endAt: 'searched' });
    // Each call lists a UTXO once; across calls one owned twice comes again (as on the reference).
    assert.deepEqual(
      second.utxos.map((u) => [u.address[0], u.inputId[0]]),
      [
        [2, 7],
        [2, 8],
      ],
    );
    const third = pageUtxos([addr(1), addr(2), addr(3)], 2, second.end, rows, { endAt: 'searched' });
    assert.deepEqual(
      third.utxos.map((u) => [u.address[0], u.inputId[0]]),
      [[3, 2]],
    );
    const last = pageUtxos([addr(1), addr(2), addr(3)], 2, third.end, rows, { endAt: 'searched' });
    assert.deepEqual(last.utxos, []);
    assert.deepEqual([last.end.address[0], last.end.inputId[0]], [3, 2]);
  });

  it('ends a short page on the last id searched or the last id listed', () => {
    const rows = index({ 1: [4], 2: [4] });
    const searched = pageUtxos([addr(1), addr(2)], 10, undefined, rows, { endAt: 'searched' });
    const listed = pageUtxos([addr(1), addr(2)], 10, undefined, rows, { endAt: 'listed' });
    assert.equal(searched.utxos.length, 1);
    assert.equal(listed.utxos.length, 1);
    assert.deepEqual([searched.end.address[0], searched.end.inputId[0]], [2, 4]);
    assert.deepEqual([listed.end.address[0], listed.end.inputId[0]], [2, 4]);
    const withDuplicateLast = index({ 1: [4, 6], 2: [4] });
    const s = pageUtxos([addr(1), addr(2)], 10, undefined, withDuplicateLast, { endAt: 'searched' });
    const l = pageUtxos([addr(1), addr(2)], 10, undefined, withDuplicateLast, { endAt: 'listed' });
    assert.equal(s.end.inputId[0], 4, 'the duplicate under address 2 was the last searched');
    assert.equal(l.end.inputId[0], 6, 'the last listed was 6 under address 1');
  });
});
