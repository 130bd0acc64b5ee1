/**
 * Outputs with several owners and with a lock time on the X-chain, driven with avalanchejs v5:
 * a 2-of-3 output spends with two signatures and is refused with one, a time-locked output is
 * refused until the devnet clock passes its lock time — each refusal in the words of the
 * reference's secp256k1fx (`input has less signers than expected`, `output is time locked`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  addTxSignatures,
  avaxSerial,
  avm,
  avmSerial,
  BigIntPr,
  Context,
  Credential,
  Input,
  secp256k1,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  utils,
  type Utxo,
} from '@avalabs/avalanchejs';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { pResult } from './pchain-helpers.js';
import {
  amountOf,
  avaxBase,
  checkedHex,
  codec,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_X,
  secpOut,
  signedBytes,
  utxosOf,
  waitAccepted,
  xCall,
  xResult,
} from './xchain-helpers.js';

describe('X-chain multisig and time-locked outputs', () => {
  let net: Devnet;
  let url: string;
  let ctx: Context.Context;
  const keys = [1, 2, 3].map((i) => new Uint8Array(32).fill(i));
  const addrs = keys.map((k) => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(k)));
  const xAddr = (a: Uint8Array) => utils.format('X', 'local', a);
  let lockTime: bigint;
  let multisig: Utxo;
  let locked: Utxo;

  before(async () => {
    net = await startDevnet({ dataDir: tempDir() });
    url = net.url;
    ctx = await Context.getContextFromURI(url);
    lockTime =
      BigInt(Math.floor(Date.parse((await pResult(url, 'platform.getTimestamp')).timestamp) / 1000)) + 3600n;
    const api = new avm.AVMApi(url);
    const { utxos } = await api.getUTXOs({ addresses: [EWOQ_X] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 5_000_000n, addrs, 0n, 2),
      TransferableOutput.fromNative(ctx.avaxAssetID, 7_000_000n, [addrs[0]!], lockTime, 1),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await api.issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);
    const mine = await utxosOf(url, xAddr(addrs[0]!));
    const owners = (u: Utxo) => (u.output as any).outputOwners;
    multisig = mine.find((u) => owners(u).threshold.value() === 2)!;
    locked = mine.find((u) => owners(u).locktime.value() === lockTime)!;
    assert.ok(multisig && locked);
  });
  after(async () => {
    await net?.stop();
  });

  /** A BaseTx spending `utxo` back to the test key, signed by `signers` for `sigIndices`. */
  async function spend(utxo: Utxo, sigIndices: number[], signers: Uint8Array[], memo = ''): Promise<string> {
    const base = new avmSerial.BaseTx(
      avaxBase(
        ctx,
        [secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.baseTxFee, [EWOQ_ADDR])],
        [
          new TransferableInput(
            utxo.utxoId,
            utxo.assetId,
            new TransferInput(new BigIntPr(amountOf(utxo)), Input.fromNative(sigIndices)),
          ),
        ],
        new TextEncoder().encode(memo),
      ),
    );
    const hash = sha256(utils.concatBytes(new Uint8Array([0, 0]), codec.PackPrefix(base)));
    const sigs = await Promise.all(signers.map((k) => secp256k1.signHash(hash, k)));
    const signed = new avaxSerial.SignedTx(base, [new Credential(sigs.map((s) => new Signature(s)))]);
    return checkedHex(signedBytes(signed));
  }

  /** The position of each key's address among the output's sorted addresses. */
  const indexOf = (utxo: Utxo, key: number) =>
    (utxo.output as any).outputOwners.addrs.findIndex(
      (a: any) => utils.bufferToHex(a.toBytes()) === utils.bufferToHex(addrs[key]!),
    );

  it('refuses a 2-of-3 output spent with one signature, in the reference words', async () => {
    const hex = await spend(multisig, [indexOf(multisig, 0)], [keys[0]!]);
    const { error } = await xCall(url, 'avm.issueTx', { tx: hex, encoding: 'hex' });
    assert.match(error?.message ?? '', /^failed to verify transfer: input has less signers than expected$/);
  });

  it('refuses a signature by another owner than the index names, naming both addresses', async () => {
    const [i0, i1] = [indexOf(multisig, 0), indexOf(multisig, 1)].sort((a, b) => a - b);
    // Right indices, signatures swapped.
    const bySorted = [0, 1].sort((a, b) => indexOf(multisig, a) - indexOf(multisig, b));
    const hex = await spend(multisig, [i0!, i1!], [keys[bySorted[1]!]!, keys[bySorted[0]!]!]);
    const { error } = await xCall(url, 'avm.issueTx', { tx: hex, encoding: 'hex' });
    const cb58 = (a: Uint8Array) => utils.base58check.encode(a);
    assert.match(
      error?.message ?? '',
      new RegExp(
        `^failed to verify transfer: wrong signature: expected signature from ${cb58(addrs[bySorted[0]!]!)} but got from ${cb58(addrs[bySorted[1]!]!)}$`,
      ),
    );
  });

  it('refuses a time-locked output before its lock time, and spends it after', async () => {
    const hex = await spend(locked, [0], [keys[0]!]);
    const early = await xCall(url, 'avm.issueTx', { tx: hex, encoding: 'hex' });
    assert.match(early.error?.message ?? '', /^failed to verify transfer: output is time locked$/);
    await pResult(url, 'platform.advanceTime', { seconds: 3601 });
    // A new tx (another memo): the refused one may be remembered as dropped.
    const later = await spend(locked, [0], [keys[0]!], 'after the lock');
    const { txID } = await xResult(url, 'avm.issueTx', { tx: later, encoding: 'hex' });
    await waitAccepted(url, txID);
  });

  it('spends the 2-of-3 output with two signatures, built and signed by avalanchejs', async () => {
    const tx = avm.newBaseTx(
      ctx,
      [addrs[0]!, addrs[1]!],
      [multisig],
      [TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [EWOQ_ADDR])],
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [keys[0]!, keys[1]!] });
    const { txID } = await new avm.AVMApi(url).issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);
    const left = await utxosOf(url, xAddr(addrs[2]!));
    assert.ok(
      !left.some(
        (u) =>
          u.utxoId.txID.toString() === multisig.utxoId.txID.toString() &&
          u.utxoId.outputIdx.value() === multisig.utxoId.outputIdx.value(),
      ),
    );
  });
});
