import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import blst from '@chainsafe/blst';
import { blsSecretKeyFromIkm, blsSign } from '../../shared/crypto/bls.js';
import { createSignPool } from './sign-pool.js';

const keys = Array.from({ length: 8 }, (_, i) => blsSecretKeyFromIkm(new Uint8Array(32).fill(i + 1)));
const publicKeys = keys.map((k) => blst.SecretKey.fromBytes(k).toPublicKey());
const message = (i: number) => new TextEncoder().encode(`flurry sign-pool message ${i}`);

function verifies(keyIndex: number, msg: Uint8Array, signature: Uint8Array): boolean {
  return blst.verify(msg, publicKeys[keyIndex], blst.Signature.fromBytes(signature, true));
}

describe('signing pool', () => {
  it('signs on its workers, with signatures that verify and equal the inline ones', async () => {
    const pool = createSignPool({ size: 1 });
    try {
      assert.equal(await pool.ready(), 1);
      const signature = await pool.sign(keys[0], message(0));
      assert.ok(verifies(0, message(0), signature));
      assert.deepEqual(Uint8Array.from(signature), blsSign(keys[0], message(0)));
      assert.deepEqual(pool.stats(), { workers: 1, inWorkers: 1, inline: 0 });
    } finally {
      await pool.close();
    }
  });

  it('answers many concurrent requests, each with its own key and message', async () => {
    const pool = createSignPool({ size: 2 });
    try {
      await pool.ready();
      const requests = Array.from({ length: 64 }, (_, i) => ({ key: i % keys.length, msg: message(i) }));
      const signatures = await Promise.all(requests.map((r) => pool.sign(keys[r.key], r.msg)));
      requests.forEach((r, i) => assert.ok(verifies(r.key, r.msg, signatures[i]), `request ${i}`));
      assert.equal(pool.stats().inWorkers, 64);
    } finally {
      await pool.close();
    }
  });

  it('signs inline while its workers start', async () => {
    const pool = createSignPool({ size: 1 });
    try {
      const signature = await pool.sign(keys[1], message(1)); // the first call starts the workers
      assert.ok(verifies(1, message(1), signature));
      assert.equal(pool.stats().inline, 1);
    } finally {
      await pool.close();
    }
  });

  it('signs inline when no worker can start, and says why', async () => {
    const errors: Error[] = [];
    const pool = createSignPool({
      size: 2,
      blstModule: path.join(import.meta.dirname, 'no-such-blst-module.js'),
      onWorkerError: (err) => errors.push(err),
    });
    assert.equal(await pool.ready(), 0);
    const signatures = await Promise.all([0, 1, 2].map((i) => pool.sign(keys[i], message(i))));
    signatures.forEach((s, i) => assert.ok(verifies(i, message(i), s)));
    assert.deepEqual(pool.stats(), { workers: 0, inWorkers: 0, inline: 3 });
    assert.ok(errors.length >= 2, 'each failed worker is reported');
    await pool.close();
  });

  it('finishes requests still pending on a worker inline when it stops', async () => {
    const pool = createSignPool({ size: 1 });
    await pool.ready();
    const pending = Array.from({ length: 32 }, (_, i) => pool.sign(keys[i % keys.length], message(i)));
    await pool.close();
    const signatures = await Promise.all(pending);
    signatures.forEach((s, i) => assert.ok(verifies(i % keys.length, message(i), s), `request ${i}`));
    const { inWorkers, inline } = pool.stats();
    assert.equal(inWorkers + inline, 32);
    // After close every request is signed inline.
    assert.ok(verifies(0, message(99), await pool.sign(keys[0], message(99))));
    assert.equal(pool.stats().inline, inline + 1);
  });

  it('replaces a worker that dies, and signs its pending request inline', async () => {
    const errors: Error[] = [];
    const pool = createSignPool({
      size: 1,
      blstModule: path.resolve(import.meta.dirname, '../../../test/fixtures/blst-exits-on-message.cjs'),
      onWorkerError: (err) => errors.push(err),
      restartDelayMs: 10,
    });
    try {
      assert.equal(await pool.ready(), 1);
      assert.ok(verifies(0, message(0), await pool.sign(keys[0], message(0))));
      // The worker exits while signing this one; the request is signed inline instead.
      const exit = new TextEncoder().encode('exit');
      assert.ok(verifies(1, exit, await pool.sign(keys[1], exit)));
      assert.match(errors[0]?.message ?? '', /exited with code 7/);
      assert.equal(pool.stats().inline, 1);
      // A replacement starts and signs on a worker again.
      for (let i = 0; pool.stats().workers === 0; i++) {
        assert.ok(i < 3000, 'no replacement worker started');
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(verifies(2, message(2), await pool.sign(keys[2], message(2))));
      assert.deepEqual(pool.stats(), { workers: 1, inWorkers: 2, inline: 1 });
    } finally {
      await pool.close();
    }
  });

  it('rejects a key blst cannot use with the error inline signing gives', async () => {
    const pool = createSignPool({ size: 1 });
    try {
      await pool.ready();
      const bad = new Uint8Array(32).fill(0xff); // larger than the group order
      // blst's own error, which the pool must hand back as it is (not a worker crash or a timeout).
      const blstError = { message: 'Invalid encoding', code: 'BLST_BAD_ENCODING' };
      assert.throws(() => blsSign(bad, message(0)), blstError);
      await assert.rejects(pool.sign(bad, message(0)), blstError);
      await assert.rejects(pool.sign(new Uint8Array(5), message(0)), blstError);
      // The worker is still there for the next request.
      assert.ok(verifies(2, message(2), await pool.sign(keys[2], message(2))));
      assert.equal(pool.stats().workers, 1);
    } finally {
      await pool.close();
    }
  });

  it('does not keep the process alive once its work is done', () => {
    const script = `
      import { createSignPool } from ${JSON.stringify(path.join(import.meta.dirname, 'sign-pool.ts'))};
      const pool = createSignPool({ size: 2 });
      await pool.ready();
      const s = await pool.sign(new Uint8Array(32).fill(7), new Uint8Array([1, 2, 3]));
      console.log(pool.stats().inWorkers, s.length);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(child.signal, null, `the process was still running: ${child.stderr}`);
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), '1 96');
  });
});
