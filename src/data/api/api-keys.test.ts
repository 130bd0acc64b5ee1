import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiConfigError, DEVNET_TIER_SCALE, parseApiAccessConfig, PUBLISHED_TIERS } from './api-keys.js';

describe('API access config', () => {
  it('sizes the built-in tiers by the devnet scale, keeping their order', () => {
    const access = parseApiAccessConfig({}, 'test');
    assert.equal(access.tierScale, DEVNET_TIER_SCALE);
    assert.equal(access.anonymousTier.name, 'unauthenticated');
    assert.equal(access.anonymousTier.cuPerMinute, 6000 * DEVNET_TIER_SCALE);
    assert.equal(access.tiers.pro.cuPerDay, 25_000_000 * DEVNET_TIER_SCALE);
    const order = ['unauthenticated', 'free', 'base', 'growth', 'pro'];
    for (let i = 1; i < order.length; i++)
      assert.ok(access.tiers[order[i]].cuPerMinute > access.tiers[order[i - 1]].cuPerMinute);
  });

  it('gives the published numbers with tierScale 1 and leaves defined tiers as written', () => {
    const access = parseApiAccessConfig(
      { tierScale: 1, tiers: { mine: { cuPerMinute: 250 } }, anonymous: 'mine' },
      'test',
    );
    assert.deepEqual(access.tiers.unauthenticated, PUBLISHED_TIERS.unauthenticated);
    assert.deepEqual(access.anonymousTier, { name: 'mine', cuPerMinute: 250 });
    const scaled = parseApiAccessConfig({ tierScale: 3, tiers: { mine: { cuPerMinute: 250 } } }, 'test');
    assert.equal(scaled.tiers.mine.cuPerMinute, 250);
    assert.equal(scaled.tiers.free.cuPerMinute, 24_000);
  });

  it('refuses a scale that is not a positive number', () => {
    for (const tierScale of [0, -1, 'x'])
      assert.throws(() => parseApiAccessConfig({ tierScale }, 'test'), ApiConfigError);
  });
});
