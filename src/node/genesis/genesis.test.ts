import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blsVerifyProofOfPossession } from '../../shared/crypto/bls.js';
import { NETWORKS } from '../../shared/networks.js';
import { buildGenesis } from './genesis.js';

describe('genesis', () => {
  const options = { network: NETWORKS.local, seed: 'unit', validators: 3, startTime: 1_800_000_000 };

  it('derives the same validators from the same seed, with valid proofs of possession', () => {
    const a = buildGenesis(options);
    const b = buildGenesis(options);
    assert.deepEqual(
      a.validators.map((v) => v.nodeID),
      b.validators.map((v) => v.nodeID),
    );
    for (const v of a.validators)
      assert.ok(blsVerifyProofOfPossession(v.blsPublicKey, v.blsProofOfPossession));
    const other = buildGenesis({ ...options, seed: 'other' });
    assert.notEqual(other.validators[0].nodeID, a.validators[0].nodeID);
  });

  it('prefunds the well-known test key on every chain', () => {
    const g = buildGenesis(options);
    assert.equal(g.prefunded[0].evmAddress, '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    assert.equal(g.xAllocations[0].amount, 300_000_000n * 1_000_000_000n);
    assert.equal(g.cAllocations[0].evmAddress, g.prefunded[0].evmAddress);
  });

  it('reuses stored proofs of possession instead of recomputing them', () => {
    const g = buildGenesis(options);
    const proofs = g.validators.map((v) => Buffer.from(v.blsProofOfPossession).toString('hex'));
    const again = buildGenesis({ ...options, knownProofs: proofs });
    assert.deepEqual(again.validators[2].blsProofOfPossession, g.validators[2].blsProofOfPossession);
  });
});
