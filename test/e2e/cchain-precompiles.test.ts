/**
 * Cancun's point-evaluation precompile (0x0a) on the C-chain: a KZG proof built in the test from
 * the Ethereum ceremony's setup verifies, a wrong one fails as geth fails it, and a transaction
 * calling the precompile is mined like any other (it was dropped, stranding its sender's nonces).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';

/** The Ethereum KZG ceremony's setup, as viem ships it. */
const SETUP = path.resolve(import.meta.dirname, '../../node_modules/viem/trusted-setups/mainnet.json');
const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';
const word = (n: bigint) => n.toString(16).padStart(64, '0');

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

describe('C-chain point-evaluation precompile', () => {
  const suite = cChainSuite();

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
});
