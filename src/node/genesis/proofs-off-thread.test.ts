import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { blsVerifyProofOfPossession } from '../../shared/crypto/bls.js';
import { NETWORKS } from '../../shared/networks.js';
import { NODE_DB_FILE } from '../config.js';
import { buildGenesis } from './genesis.js';
import { computeProofsOffThread, startGenesisProofs } from './proofs-off-thread.js';

describe('genesis proofs of possession on a worker thread', () => {
  const options = { network: NETWORKS.local, seed: 'off-thread', validators: 3, startTime: 1_800_000_000 };

  it('makes the same proofs as the inline computation, and they verify', async () => {
    const pending = computeProofsOffThread(options.seed, options.validators);
    assert.equal(pending.seed, options.seed);
    const proofs = await pending.proofs;
    assert.ok(proofs, 'the worker answered');
    const inline = buildGenesis(options);
    assert.deepEqual(
      proofs,
      inline.validators.map((v) => Buffer.from(v.blsProofOfPossession).toString('hex')),
    );
    const reused = buildGenesis({ ...options, knownProofs: proofs });
    for (const v of reused.validators)
      assert.ok(blsVerifyProofOfPossession(v.blsPublicKey, v.blsProofOfPossession));
  });

  it('starts only on a cold start: a data dir with a node store has its proofs stored', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-proofs-'));
    try {
      const cold = startGenesisProofs({ dataDir, seed: options.seed, validators: 1 });
      assert.ok(cold);
      assert.equal((await cold.proofs)?.length, 1);
      fs.writeFileSync(path.join(dataDir, NODE_DB_FILE), '');
      assert.equal(startGenesisProofs({ dataDir, seed: options.seed, validators: 1 }), undefined);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
