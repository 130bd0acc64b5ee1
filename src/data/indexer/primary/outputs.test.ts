import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  avaxSerial,
  avmSerial,
  BigIntPr,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { packUtxo, unsignedTxBytes, utxoBytes } from './outputs.js';

const manager = avmSerial.getAVMManager();
const codec = manager.getDefaultCodec();
const ASSET = Id.fromHex('0x' + '3c'.repeat(32));
const OWNER = new Uint8Array(20).fill(9);

const input = (n: number, sigIndices: number[]) =>
  new TransferableInput(
    new avaxSerial.UTXOID(Id.fromHex('0x' + n.toString(16).padStart(2, '0').repeat(32)), new Int(n)),
    ASSET,
    new TransferInput(new BigIntPr(1000n + BigInt(n)), new Input(sigIndices.map((i) => new Int(i)))),
  );

/** A signed X-chain BaseTx whose credentials hold 1, 2 and 0 signatures (bytes need not verify). */
function signedTx(): { bytes: Uint8Array; unsigned: Uint8Array } {
  const tx = new avmSerial.BaseTx(
    new avaxSerial.BaseTx(
      new Int(12345),
      Id.fromHex('0x' + '77'.repeat(32)),
      [new TransferableOutput(ASSET, new TransferOutput(new BigIntPr(5n), OutputOwners.fromNative([OWNER])))],
      [input(1, [0]), input(2, [0, 1]), input(3, [])],
      new Bytes(new Uint8Array([1, 2, 3])),
    ),
  );
  const sig = (b: number) => new Signature(new Uint8Array(65).fill(b));
  const creds = [new Credential([sig(1)]), new Credential([sig(2), sig(3)]), new Credential([])];
  const unsigned = utils.concatBytes(new Uint8Array([0, 0]), codec.PackPrefix(tx));
  return { bytes: utils.concatBytes(unsigned, codec.PackPrefixList(creds)), unsigned };
}

test('unsignedTxBytes cuts the credentials off a signed tx, as packing the unsigned tx gives', () => {
  const { bytes, unsigned } = signedTx();
  const signed = manager.unpack(bytes, avaxSerial.SignedTx);
  assert.deepEqual(unsignedTxBytes(bytes, signed, codec), unsigned);
});

test('unsignedTxBytes packs the unsigned tx again when the bytes do not end in its credentials', () => {
  const { bytes, unsigned } = signedTx();
  const signed = manager.unpack(bytes, avaxSerial.SignedTx);
  // Bytes that do not belong to the parsed tx: the count check fails and packing decides.
  const other = utils.concatBytes(bytes, new Uint8Array(7));
  assert.deepEqual(unsignedTxBytes(other, signed, codec), unsigned);
});

test('utxoBytes lays a UTXO out as the codec packs it', () => {
  const txId = new Uint8Array(32).map((_, i) => i);
  const output = new TransferOutput(new BigIntPr(123_456n), OutputOwners.fromNative([OWNER], 9n, 1));
  const expected = packUtxo(
    manager,
    new Utxo(new avaxSerial.UTXOID(new Id(txId), new Int(70_000)), ASSET, output),
  );
  assert.equal(utxoBytes(manager, txId, 70_000, ASSET, output), expected);
});
