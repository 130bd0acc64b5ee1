import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BigIntPr,
  Id,
  Input,
  OutputOwners,
  pvmSerial,
  secp256k1,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { makeUtxo } from '../codec.js';
import { verifyUtxoSpend, type SpendInput } from './spend.js';

const KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const OWNER = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(KEY));
const AVAX = new Uint8Array(32).fill(1);
const AVAX_TEXT = new Id(AVAX).toString();
const HASH = sha256(new Uint8Array([9]));
const NOW = 1_000n;
const LOCK = 5_000n;
const owners = () => OutputOwners.fromNative([OWNER], 0n, 1);

async function input(amount: bigint, locktime: bigint, spendAs: bigint): Promise<SpendInput> {
  const txId = sha256(new Uint8Array([Number(amount % 200n), Number(locktime % 200n)]));
  const transfer = new TransferOutput(new BigIntPr(amount), owners());
  const output = locktime > 0n ? new pvmSerial.StakeableLockOut(new BigIntPr(locktime), transfer) : transfer;
  const utxo = makeUtxo(txId, 0, AVAX, output);
  const plainIn = new TransferInput(new BigIntPr(amount), Input.fromNative([0]));
  const inp = spendAs > 0n ? new pvmSerial.StakeableLockIn(new BigIntPr(spendAs), plainIn) : plainIn;
  const ti = new TransferableInput(utxo.utxoId, new Id(AVAX), inp as never);
  return { input: ti, utxo, signatures: [await secp256k1.sign(new Uint8Array([9]), KEY)] };
}

function out(amount: bigint, locktime = 0n): TransferableOutput {
  const transfer = new TransferOutput(new BigIntPr(amount), owners());
  return new TransferableOutput(
    new Id(AVAX),
    (locktime > 0n ? new pvmSerial.StakeableLockOut(new BigIntPr(locktime), transfer) : transfer) as never,
  );
}

const check = (inputs: SpendInput[], outputs: TransferableOutput[], fee = 10n, credentials = inputs.length) =>
  verifyUtxoSpend({
    inputs,
    credentials,
    outputs,
    unsignedHash: HASH,
    now: NOW,
    avaxAssetId: AVAX,
    fee,
    extraBurn: 0n,
  });

describe('P-chain spend rule', () => {
  it('lets unlocked funds pay outputs and the fee, and refuses too little fee', async () => {
    const i = await input(100n, 0n, 0n);
    check([i], [out(90n)]);
    // 95 out and a fee of 10 need 105 of the 100 in, worded as the reference's flow check.
    assert.throws(() => check([i], [out(95n)]), {
      message: `insufficient unlocked funds: needs 5 more ${AVAX_TEXT}`,
    });
  });

  it('keeps stakeable-locked funds locked to the same owners and lock time', async () => {
    // Locked in, locked out (as stake would be), the fee from unlocked funds.
    check([await input(500n, LOCK, LOCK), await input(20n, 0n, 0n)], [out(500n, LOCK), out(10n)]);
    // A plain input cannot spend a lock that has not expired.
    await assert.rejects(
      async () => check([await input(500n, LOCK, 0n)], [out(490n)]),
      /^TxVerifyError: locked funds not marked as locked$/,
    );
    // Locked funds cannot pay the fee or unlocked outputs.
    await assert.rejects(
      async () => check([await input(500n, LOCK, LOCK)], [out(490n, LOCK)]),
      /insufficient unlocked funds: needs 10 more/,
    );
    await assert.rejects(
      async () => check([await input(500n, LOCK, LOCK), await input(20n, 0n, 0n)], [out(500n)]),
      /insufficient unlocked funds/,
    );
    // The locked input must name the UTXO's lock time.
    await assert.rejects(
      async () => check([await input(500n, LOCK, LOCK + 1n)], [out(490n, LOCK)]),
      new RegExp(`^TxVerifyError: input locktime does not match UTXO locktime: ${LOCK + 1n} != ${LOCK}$`),
    );
  });

  it('lets a plain input spend an expired stakeable lock', async () => {
    check([await input(100n, NOW - 1n, 0n)], [out(90n)]);
  });

  it('refuses signatures from another key and missing UTXOs', async () => {
    const i = await input(100n, 0n, 0n);
    const other = utils.hexToBuffer('0x' + '42'.repeat(32));
    const forged = await secp256k1.sign(new Uint8Array([9]), other);
    assert.throws(
      () => check([{ ...i, signatures: [forged] }], [out(90n)]),
      /^TxVerifyError: failed to verify transfer: wrong signature: expected signature from \w+ but got from \w+$/,
    );
    const name = `${i.input.utxoID.txID.toString()}:${i.input.utxoID.outputIdx.value()}`;
    assert.throws(
      () => check([{ ...i, utxo: undefined }], [out(90n)]),
      new RegExp(`^TxVerifyError: failed to read consumed UTXO ${name} due to: not found$`),
    );
  });

  it('names both assets in cb58 when an input spends a UTXO of another asset, and a shortfall by its asset', async () => {
    const i = await input(100n, 0n, 0n);
    const other = new Uint8Array(32).fill(7);
    const utxo = makeUtxo(i.input.utxoID.txID.toBytes(), 0, other, i.utxo!.output);
    assert.throws(() => check([{ ...i, utxo }], [out(90n)]), {
      message: `input asset ID does not match UTXO asset ID: ${AVAX_TEXT} != ${new Id(other).toString()}`,
    });
    // An output of an asset no input brings is short by its whole amount, named in cb58.
    const foreign = new TransferableOutput(new Id(other), new TransferOutput(new BigIntPr(3n), owners()));
    assert.throws(() => check([i], [out(50n), foreign]), {
      message: `insufficient unlocked funds: needs 3 more ${new Id(other).toString()}`,
    });
  });

  it('reads every UTXO before it counts the credentials, as the reference VerifySpend', async () => {
    const a = await input(100n, 0n, 0n);
    const b = await input(150n, 0n, 0n);
    // A UTXO that is gone is named first, even with a credential missing …
    const name = `${b.input.utxoID.txID.toString()}:${b.input.utxoID.outputIdx.value()}`;
    assert.throws(
      () => check([a, { ...b, utxo: undefined }], [out(90n)], 10n, 1),
      new RegExp(`^TxVerifyError: failed to read consumed UTXO ${name} due to: not found$`),
    );
    // … and with every UTXO there, the count comes before any input's own checks.
    assert.throws(
      () => check([{ ...a, signatures: [] }, b], [out(90n)], 10n, 1),
      /^TxVerifyError: wrong number of credentials: 2 inputs != 1 credentials$/,
    );
  });
});
