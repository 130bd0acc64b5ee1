import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  avaxSerial,
  BigIntPr,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  pvmSerial,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { parseSignedTx, pvmManager } from './codec.js';

const ASSET = new Uint8Array(32).fill(1);
const SIGNATURE = new Uint8Array(65).fill(7);

function signedBaseTx(): { bytes: Uint8Array; unsigned: pvmSerial.BaseTx } {
  const owners = OutputOwners.fromNative([new Uint8Array(20).fill(2)], 0n, 1);
  const unsigned = new pvmSerial.BaseTx(
    new avaxSerial.BaseTx(
      new Int(12345),
      new Id(new Uint8Array(32)),
      [new TransferableOutput(new Id(ASSET), new TransferOutput(new BigIntPr(5n), owners))],
      [
        new TransferableInput(
          new avaxSerial.UTXOID(new Id(new Uint8Array(32).fill(3)), new Int(0)),
          new Id(ASSET),
          new TransferInput(new BigIntPr(10n), Input.fromNative([0])),
        ),
      ],
      new Bytes(new Uint8Array()),
    ),
  );
  const signed = new avaxSerial.SignedTx(unsigned, [new Credential([new Signature(SIGNATURE)])]);
  return { bytes: signed.toBytes(), unsigned };
}

describe('P-chain signed tx parsing', () => {
  it('answers the id, the unsigned bytes the signatures cover and the signatures', () => {
    const { bytes, unsigned } = signedBaseTx();
    const tx = parseSignedTx(bytes);
    assert.deepEqual(tx.id, sha256(bytes));
    assert.deepEqual(tx.unsignedBytes, pvmManager.packCodec(unsigned));
    assert.deepEqual(tx.credentials, [[SIGNATURE]]);
    assert.equal((tx.unsigned as { _type: string })._type, unsigned._type);
  });

  it('refuses trailing bytes', () => {
    const { bytes } = signedBaseTx();
    assert.throws(
      () => parseSignedTx(new Uint8Array([...bytes, 0])),
      /^TxParseError: couldn't parse tx: bytes are not in canonical form or have trailing data$/,
    );
  });

  it('refuses a signed value whose unsigned part is no tx, as the encoder does', () => {
    // codec version, then type 7 (a secp256k1fx TransferOutput) where the tx goes, no credentials
    const output = pvmManager.packCodec(
      new TransferOutput(new BigIntPr(1n), OutputOwners.fromNative([], 0n, 0)),
    );
    const bytes = new Uint8Array([...output, 0, 0, 0, 0]);
    assert.throws(() => parseSignedTx(bytes), /^TxParseError: couldn't parse tx: unknown VM$/);
  });

  it('refuses another codec version', () => {
    const { bytes } = signedBaseTx();
    const other = new Uint8Array(bytes);
    other[1] = 1;
    assert.throws(() => parseSignedTx(other), /^TxParseError: couldn't parse tx: /);
  });
});
