import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hardfork } from '@ethereumjs/common';
import { createVM } from '@ethereumjs/vm';
import { createEvmCommon, vmCommon } from './common.js';

describe('vmCommon', () => {
  it('a VM built on it leaves no listener on the chain’s Common (nothing keeps the VM alive)', async () => {
    const common = createEvmCommon(43112);
    for (let i = 0; i < 20; i++) await createVM({ common: vmCommon(common) });
    // Each EVM subscribes to its Common's hardforkChanged for good: on the chain's own Common
    // this count grew by one per VM, and every VM stayed reachable.
    assert.equal(common.events.listenerCount('hardforkChanged'), 0);
  });

  it('runs the chain’s rules: same chain id, hardfork and merged parameters', () => {
    const common = createEvmCommon(43112);
    const copy = vmCommon(common);
    assert.equal(copy.chainId(), 43112n);
    assert.equal(copy.hardfork(), common.hardfork());
    assert.equal(copy.param('txGas'), common.param('txGas'));
    assert.equal(copy.updateParams, common.updateParams, 'the merged-parameters shortcut is kept');
  });

  it('answers isActivatedEIP as the engine does, on copies and after a hardfork change', () => {
    const common = createEvmCommon(43112);
    const copy = vmCommon(common);
    const scan = (c: typeof common, eip: number) =>
      (c as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache.includes(eip);
    // Cancun's (4844, 1153), earlier ones (2930, 3855), and ones never active here (6800, 7702).
    const eips = [1153, 2930, 3855, 4844, 6800, 7702, 7864];
    for (const eip of eips) assert.equal(copy.isActivatedEIP(eip), scan(common, eip), `EIP-${eip}`);
    assert.equal(copy.isActivatedEIP(4844), true);
    // The set follows the list when the hardfork changes, on the copy alone.
    copy.setHardfork(Hardfork.Shanghai);
    assert.equal(copy.isActivatedEIP(4844), false);
    assert.equal(copy.isActivatedEIP(3855), true);
    assert.equal(common.isActivatedEIP(4844), true);
    copy.setHardfork(Hardfork.Prague);
    assert.equal(copy.isActivatedEIP(7702), true);
    for (const eip of eips) assert.equal(copy.isActivatedEIP(eip), scan(copy, eip), `EIP-${eip} on Prague`);
  });
});
