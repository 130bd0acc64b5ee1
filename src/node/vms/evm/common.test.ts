import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
});
