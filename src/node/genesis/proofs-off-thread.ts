/**
 * The genesis validators' proofs of possession, computed on a worker thread. A proof costs ~30 ms
 * of pure JS (hash to G2 and a G2 multiply in @noble/curves: blst's binding cannot take the PoP
 * domain tag), ~150 ms for the default five validators, and only a cold start needs them (the
 * node stores them). The CLI starts this before it loads the node's modules, so the proofs are
 * made on another CPU while the main thread is busy loading, and `buildGenesis` takes them as
 * known proofs.
 *
 * It never decides the outcome: a worker that fails to start, throws or answers something
 * malformed yields `undefined`, and the node computes the proofs inline as it always could. The
 * worker runs the same @noble/curves calls as `blsProofOfPossession`, so the bytes are the same.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { NODE_DB_FILE } from '../config.js';

export interface OffThreadProofs {
  readonly seed: string;
  readonly validators: number;
  /** Hex proofs by validator index, or undefined when the worker could not make them. */
  readonly proofs: Promise<string[] | undefined>;
}

const PROOF_HEX_LENGTH = 192;

// An eval worker (CommonJS, dynamic imports) that loads @noble/curves by absolute URL: it starts
// the same from dist/ and from the TypeScript sources under tsx. It is sent the domain tag and
// the keys, answers the hex proofs, and ends.
const workerSource = (nobleUrl: string) => `
'use strict';
(async () => {
  const { parentPort } = await import('node:worker_threads');
  const { bls12_381 } = await import(${JSON.stringify(nobleUrl)});
  const pop = bls12_381.longSignatures;
  parentPort.once('message', ({ dst, keys }) => {
    const proofs = keys.map(({ secretKey, publicKey }) =>
      Buffer.from(pop.sign(pop.hash(publicKey, dst), secretKey).toBytes(true)).toString('hex'),
    );
    parentPort.postMessage(proofs);
  });
})();
`;

/**
 * Starts the proofs for a cold start (no node store in `dataDir` yet); undefined on a restart,
 * whose proofs are stored.
 */
export function startGenesisProofs(config: {
  dataDir: string;
  seed: string;
  validators: number;
}): OffThreadProofs | undefined {
  if (fs.existsSync(path.join(config.dataDir, NODE_DB_FILE))) return undefined;
  return computeProofsOffThread(config.seed, config.validators);
}

/** Computes the seed's validators' proofs of possession on a worker thread. */
export function computeProofsOffThread(seed: string, validators: number): OffThreadProofs {
  return { seed, validators, proofs: run(seed, validators).catch(() => undefined) };
}

async function run(seed: string, validators: number): Promise<string[] | undefined> {
  const nobleUrl = pathToFileURL(createRequire(import.meta.url).resolve('@noble/curves/bls12-381.js')).href;
  const worker = new Worker(workerSource(nobleUrl), { eval: true });
  try {
    const answer = new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`proof worker exited with code ${code}`)));
    });
    answer.catch(() => {}); // a failure while the keys are derived is read below, not unhandled
    // The keys are derived here (blst, fast) while the worker boots; loading the genesis module
    // now costs nothing extra, the node loads it next anyway.
    const { validatorBlsSecretKey } = await import('./genesis.js');
    const { BLS_POP_DST, blsPublicKey } = await import('../../shared/crypto/bls.js');
    const keys = Array.from({ length: validators }, (_, i) => {
      const secretKey = validatorBlsSecretKey(seed, i);
      return { secretKey, publicKey: blsPublicKey(secretKey) };
    });
    worker.postMessage({ dst: BLS_POP_DST, keys });
    const proofs = await answer;
    const wellFormed =
      Array.isArray(proofs) &&
      proofs.length === validators &&
      proofs.every((p) => typeof p === 'string' && p.length === PROOF_HEX_LENGTH);
    return wellFormed ? (proofs as string[]) : undefined;
  } finally {
    void worker.terminate();
  }
}
