/**
 * Cancun's point-evaluation precompile (0x0a) on the C-chain: a KZG proof built in the test from
 * the Ethereum ceremony's setup verifies, a wrong one fails as geth fails it, and a transaction
 * calling the precompile is mined like any other (it was dropped, stranding its sender's nonces).
 * BLAKE2f (0x09) computes BLAKE2b's compression and words its refusals as geth does. A stateful
 * precompile (Warp) entered with DELEGATECALL or CALLCODE invalidates the transaction, as coreth
 * does since August 2025; a plain CALL to it still works.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { toFunctionSelector } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';

/** The Ethereum KZG ceremony's setup, as viem ships it. */
const SETUP = path.resolve(import.meta.dirname, '../../node_modules/viem/trusted-setups/mainnet.json');
const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';
const BLAKE2F = '0x0000000000000000000000000000000000000009';
const WARP = '0x0200000000000000000000000000000000000005';
const word = (n: bigint) => n.toString(16).padStart(64, '0');

/**
 * Runtime code calling `getBlockchainID()` of the Warp precompile with `op` (CALL, CALLCODE or
 * DELEGATECALL), returning the word it answers, behind initcode that deploys it.
 */
function warpCaller(op: 'CALL' | 'CALLCODE' | 'DELEGATECALL'): `0x${string}` {
  const selector = toFunctionSelector('getBlockchainID()').slice(2);
  const valueArg = op === 'DELEGATECALL' ? '' : '6000'; // PUSH1 0 (value)
  const opcode = { CALL: 'f1', CALLCODE: 'f2', DELEGATECALL: 'f4' }[op];
  const runtime =
    `63${selector}60e01b600052` + // mstore(0, selector << 224)
    `6020600060046000${valueArg}73${WARP.slice(2)}5a${opcode}50` + // op(gas, warp, [0,] 0, 4, 0, 32)
    '60206000f3'; // return(0, 32)
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}80600b6000396000f3${runtime}`;
}

/**
 * The precompile's input for p(X) = a + bX committed with the ceremony's monomial G1 points:
 * C = a·[1]₁ + b·[τ]₁, y = p(z), and the quotient (p(X) − y)/(X − z) = b, so π = b·[1]₁.
 */
function pointEvaluationInput(a: bigint, b: bigint, z: bigint, y = (a + b * z) % bls12_381.fields.Fr.ORDER) {
  const { g1_monomial } = JSON.parse(fs.readFileSync(SETUP, 'utf8')) as {
    g1_monomial: string[];
  };
  const [one, tau] = g1_monomial.slice(0, 2).map((p) => bls12_381.G1.Point.fromHex(p.slice(2)));
  const commitment = one.multiply(a).add(tau.multiply(b)).toBytes(true);
  const proof = one.multiply(b).toBytes(true);
  const versioned = createHash('sha256').update(commitment).digest();
  versioned[0] = 1;
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  return '0x' + hex(versioned) + word(z) + word(y) + hex(commitment) + hex(proof);
}

/**
 * EIP-152's input for BLAKE2b-512 of a message of at most 128 bytes, in one final compression of
 * 12 rounds: h is the IV with the parameter block (digest length 64, no key) mixed in.
 */
function blake2fInput(message: Uint8Array, finalFlag = 1): string {
  const iv = [
    0x6a09e667f3bcc908n,
    0xbb67ae8584caa73bn,
    0x3c6ef372fe94f82bn,
    0xa54ff53a5f1d36f1n,
    0x510e527fade682d1n,
    0x9b05688c2b3e6c1fn,
    0x1f83d9abfb41bd6bn,
    0x5be0cd19137e2179n,
  ];
  iv[0] ^= 0x01010040n;
  const input = Buffer.alloc(213);
  input.writeUInt32BE(12, 0);
  iv.forEach((word, i) => input.writeBigUInt64LE(word, 4 + i * 8));
  input.set(message, 68);
  input.writeBigUInt64LE(BigInt(message.length), 196);
  input[212] = finalFlag;
  return '0x' + input.toString('hex');
}

describe('C-chain precompiles', () => {
  const suite = cChainSuite();

  it('BLAKE2f compresses as BLAKE2b does, and refuses a bad input in geth’s words', async () => {
    const { url } = suite;
    const call = async (data: string) =>
      (await rpc(url, 'eth_call', [{ from: EWOQ, to: BLAKE2F, data }, 'latest'])).body;
    const abc = new TextEncoder().encode('abc');
    assert.equal((await call(blake2fInput(abc))).result, '0x' + Buffer.from(blake2b(abc)).toString('hex'));
    assert.equal((await call('0x')).error.message, 'invalid input length');
    assert.equal((await call(blake2fInput(abc) + '00')).error.message, 'invalid input length');
    assert.equal((await call(blake2fInput(abc, 2))).error.message, 'invalid final flag');
    // eth_estimateGas names the failure as eth_call does (it said "value out of range").
    const estimate = await rpc(url, 'eth_estimateGas', [{ from: EWOQ, to: BLAKE2F, value: '0x1' }]);
    assert.equal(estimate.body.error.message, 'invalid input length');
    const trace = await rpc(url, 'debug_traceCall', [
      { from: EWOQ, to: BLAKE2F, data: blake2fInput(abc, 7) },
      'latest',
      { tracer: 'callTracer' },
    ]);
    assert.equal(trace.body.result.error, 'invalid final flag');
  });

  it('verifies a KZG proof, and fails a wrong one as geth does', async () => {
    const { url } = suite;
    const call = async (data: string) =>
      (await rpc(url, 'eth_call', [{ from: EWOQ, to: POINT_EVALUATION, data }, 'latest'])).body;
    const ok = await call(pointEvaluationInput(7n, 11n, 5n));
    // FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS.
    assert.equal(ok.result, '0x' + word(4096n) + word(bls12_381.fields.Fr.ORDER));
    assert.equal(
      (await call(pointEvaluationInput(7n, 11n, 5n, 63n))).error.message,
      "error verifying kzg proof: can't verify opening proof",
    );
    const input = pointEvaluationInput(7n, 11n, 5n);
    const otherHash = input.slice(0, 10) + (input[10] === '0' ? '1' : '0') + input.slice(11);
    assert.equal((await call(otherHash)).error.message, 'mismatched versioned hash');
    assert.equal((await call('0x')).error.message, 'invalid input length');
    const gas = await rpc(url, 'eth_estimateGas', [{ from: EWOQ, to: POINT_EVALUATION, data: input }]);
    assert.ok(BigInt(gas.body.result) > 50_000n, 'the precompile costs 50,000 gas');
  });

  it('mines a transaction that calls it, failed or not, and the sender’s next one', async () => {
    const { url, client, wallet } = suite;
    const sender = privateKeyToAccount(generatePrivateKey());
    const funding = await wallet.sendTransaction({ to: sender.address, value: 10n ** 18n });
    await client.waitForTransactionReceipt({ hash: funding });
    const send = async (nonce: number, data: `0x${string}`, to: `0x${string}` = POINT_EVALUATION) => {
      const raw = await sender.signTransaction({
        to,
        data,
        gas: 200_000n,
        nonce,
        chainId: 43112,
        type: 'eip1559',
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
      });
      const hash = (await rpc(url, 'eth_sendRawTransaction', [raw])).body.result;
      return client.waitForTransactionReceipt({ hash });
    };
    assert.equal((await send(0, '0x')).status, 'reverted', 'a bad input fails the call, not the block');
    assert.equal((await send(1, pointEvaluationInput(1n, 2n, 3n) as `0x${string}`)).status, 'success');
    assert.equal((await send(2, '0x', EWOQ)).status, 'success');
  });

  it('invalidates a transaction that enters a stateful precompile with DELEGATECALL or CALLCODE', async () => {
    const { url, client, wallet } = suite;
    const deploy = async (op: Parameters<typeof warpCaller>[0]) => {
      const hash = await wallet.sendTransaction({ data: warpCaller(op) });
      const receipt = await client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, 'success');
      return receipt.contractAddress!;
    };
    const [viaCall, viaCallCode, viaDelegate] = [
      await deploy('CALL'),
      await deploy('CALLCODE'),
      await deploy('DELEGATECALL'),
    ];
    const chainId = (
      await rpc(url, 'eth_call', [{ to: WARP, data: toFunctionSelector('getBlockchainID()') }, 'latest'])
    ).body.result;
    assert.match(chainId, /^0x[0-9a-f]{64}$/);
    assert.notEqual(BigInt(chainId), 0n);
    // A plain CALL reaches the precompile as before.
    assert.equal((await rpc(url, 'eth_call', [{ to: viaCall }, 'latest'])).body.result, chainId);
    for (const [to, op] of [
      [viaDelegate, 'DELEGATECALL'],
      [viaCallCode, 'CALLCODE'],
    ] as const) {
      const call = await rpc(url, 'eth_call', [{ from: EWOQ, to, gas: '0x30000' }, 'latest']);
      assert.equal(call.body.error.code, -32000);
      assert.equal(
        call.body.error.message,
        `err: execution invalidated: precompile cannot be called with ${op} (supplied gas ${0x30000})`,
      );
      const estimate = await rpc(url, 'eth_estimateGas', [{ from: EWOQ, to }]);
      assert.match(estimate.body.error.message, new RegExp(`precompile cannot be called with ${op}`));
    }

    // Sent, it is left out of the block and its sender's nonce and balance stay as they were;
    // another sender's transaction after it is mined.
    const sender = privateKeyToAccount(generatePrivateKey());
    const funding = await wallet.sendTransaction({ to: sender.address, value: 10n ** 18n });
    await client.waitForTransactionReceipt({ hash: funding });
    const raw = await sender.signTransaction({
      to: viaDelegate,
      gas: 200_000n,
      nonce: 0,
      chainId: 43112,
      type: 'eip1559',
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
    });
    const refused = (await rpc(url, 'eth_sendRawTransaction', [raw])).body.result;
    assert.match(refused, /^0x[0-9a-f]{64}$/);
    const next = await wallet.sendTransaction({ to: viaCall });
    const nextReceipt = await client.waitForTransactionReceipt({ hash: next });
    assert.equal(nextReceipt.status, 'success');
    assert.equal((await rpc(url, 'eth_getTransactionReceipt', [refused])).body.result, null);
    assert.equal(await client.getTransactionCount({ address: sender.address }), 0);
    assert.equal(await client.getBalance({ address: sender.address }), 10n ** 18n);
  });
});
