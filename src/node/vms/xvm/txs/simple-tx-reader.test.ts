import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  avaxSerial,
  avm,
  addTxSignatures,
  BigIntPr,
  Id,
  OutputOwners,
  TransferableOutput,
  TransferOutput,
  Utxo,
  utils,
} from '@avalabs/avalanchejs';
import { CodecError } from '../codec.js';
import { readTxWithAvalanchejs } from './model.js';
import { readSimpleTx } from './simple-tx-reader.js';

const KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const ADDR = utils.bech32ToBytes('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
const ctx: any = {
  networkID: 12345,
  hrp: 'local',
  xBlockchainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
  pBlockchainID: '11111111111111111111111111111111LpoYY',
  cBlockchainID: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
  avaxAssetID: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
  baseTxFee: 1_000_000n,
  createAssetTxFee: 1_000_000n,
};
const utxo = (i: number) =>
  new Utxo(
    avaxSerial.UTXOID.fromNative(ctx.avaxAssetID, i),
    Id.fromString(ctx.avaxAssetID),
    new TransferOutput(new BigIntPr(5_000_000_000n), OutputOwners.fromNative([ADDR])),
  );

/** Same view of the tx from both readers (avalanchejs objects aside). */
function plain(tx: object): unknown {
  return JSON.parse(
    JSON.stringify(tx, (_k, v) =>
      typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    ),
  );
}

describe('simple X-chain tx reader', () => {
  it('reads base, export and import txs exactly as the avalanchejs path does', async () => {
    const base = avm.newBaseTx(
      ctx,
      [ADDR],
      [utxo(0), utxo(1)],
      [TransferableOutput.fromNative(ctx.avaxAssetID, 7_000_000_000n, [ADDR])],
      { memo: new TextEncoder().encode('memo!') },
    );
    const exp = avm.newExportTx(
      ctx,
      ctx.pBlockchainID,
      [ADDR],
      [utxo(2)],
      [TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000_000n, [ADDR])],
    );
    const imp = avm.newImportTx(ctx, ctx.cBlockchainID, [utxo(3)], [ADDR], [ADDR]);
    for (const unsigned of [base, exp, imp]) {
      await addTxSignatures({ unsignedTx: unsigned, privateKeys: [KEY] });
      const bytes = unsigned.getSignedTx().toBytes();
      const fast = readSimpleTx(bytes);
      assert.ok(fast, 'read directly');
      assert.deepEqual(plain(fast), plain(readTxWithAvalanchejs(bytes)));
      // Strict: truncation and trailing bytes are refused.
      assert.throws(() => readSimpleTx(bytes.subarray(0, bytes.length - 1)), CodecError);
      assert.throws(() => readSimpleTx(new Uint8Array([...bytes, 0])), CodecError);
    }
  });

  it('leaves other tx types to avalanchejs', () => {
    // A CreateAssetTx header (type id 1): not read directly.
    assert.equal(readSimpleTx(new Uint8Array([0, 0, 0, 0, 0, 1, 0, 0, 0x30, 0x39])), undefined);
    // A base tx whose output is not a secp256k1 TransferOutput (type id 6, a mint output).
    const header = Buffer.alloc(2 + 4 + 4 + 32 + 4 + 32 + 4);
    header.writeUInt32BE(12345, 6);
    header.writeUInt32BE(1, 42);
    header.writeUInt32BE(6, 42 + 4 + 32);
    assert.equal(readSimpleTx(new Uint8Array(Buffer.concat([header, Buffer.alloc(32)]))), undefined);
  });
});
