import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stakerStart } from './staker-start.js';

test('since Durango a staker starts at the accepting block, whatever start its tx declared', () => {
  const block = 1_795_706_100;
  assert.equal(stakerStart('fuji', block + 5, block), block, 'a start declared ahead of the block');
  assert.equal(stakerStart('fuji', 0, block), block, 'no declared start');
  assert.equal(stakerStart('avax', block + 3600, block), block);
  assert.equal(stakerStart('local', block + 60, block), block, 'a local network has Durango at genesis');
  assert.equal(stakerStart('custom', block + 60, block), block);
});

test('before Durango a staker waited for the start its tx declared', () => {
  // Blocks of 2023, before either public network activated Durango.
  const block = 1_700_000_000;
  assert.equal(stakerStart('avax', block + 600, block), block + 600);
  assert.equal(stakerStart('fuji', block + 600, block), block + 600);
  // The boundary: a block stamped at the activation already follows the new rule.
  assert.equal(stakerStart('avax', 1_709_740_860, 1_709_740_800), 1_709_740_800);
  assert.equal(stakerStart('avax', 1_709_740_860, 1_709_740_799), 1_709_740_860);
});
