import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addTxSignatures,
  avaxSerial,
  BigIntPr,
  evm,
  Id,
  Int,
  OutputOwners,
  secp256k1,
  TransferOutput,
  utils,
  Utxo,
  type Context,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { utxoIdOf } from '../primary/outputs.js';
import { decodeAtomicTxs, parseAtomicTxs } from './atomic-txs.js';

const KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const ADDR = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(KEY));
const NETWORK = {
  cChainId: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
  pChainId: '11111111111111111111111111111111LpoYY',
  hrp: 'local',
};
const X_CHAIN = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
const context = {
  networkID: 12345,
  hrp: 'local',
  cBlockchainID: NETWORK.cChainId,
  xBlockchainID: X_CHAIN,
  pBlockchainID: NETWORK.pChainId,
  avaxAssetID: AVAX,
} as Context.Context;

const exportedUtxo = new Utxo(
  new avaxSerial.UTXOID(Id.fromHex('0x' + 'ab'.repeat(32)), new Int(3)),
  Id.fromString(AVAX),
  new TransferOutput(new BigIntPr(5_000_000_000n), OutputOwners.fromNative([ADDR], 0n, 1)),
);

async function signedImport(): Promise<Uint8Array> {
  const tx = evm.newImportTx(
    context,
    utils.hexToBuffer('0x' + '11'.repeat(20)),
    [ADDR],
    [exportedUtxo],
    X_CHAIN,
    1n,
  );
  await addTxSignatures({ unsignedTx: tx, privateKeys: [KEY] });
  return tx.getSignedTx().toBytes();
}

async function signedExport(): Promise<Uint8Array> {
  const from = utils.hexToBuffer('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
  const tx = evm.newExportTx(context, 2_000_000_000n, NETWORK.pChainId, from, [ADDR], 1n, 7n);
  await addTxSignatures({ unsignedTx: tx, privateKeys: [KEY] });
  return tx.getSignedTx().toBytes();
}

/** The block extra data since Apricot Phase 5: version, count, txs without their version. */
function batch(txs: Uint8Array[]): string {
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, txs.length);
  return utils.bufferToHex(
    utils.concatBytes(new Uint8Array([0, 0]), count, ...txs.map((t) => t.subarray(2))),
  );
}

const block = (extraDataHex: string) => ({
  number: 9,
  hash: '0x' + '9'.repeat(64),
  timestamp: 1700,
  extraDataHex,
});

test('an ImportTx spends the atomic UTXO it imports, with the signer recovered', async () => {
  const bytes = await signedImport();
  const rows = decodeAtomicTxs(NETWORK, block(batch([bytes])));
  assert.equal(rows.utxos.length, 0);
  assert.equal(rows.spends.length, 1);
  const spend = rows.spends[0];
  assert.equal(spend.utxo_id, utxoIdOf(exportedUtxo.utxoId.txID.toBytes(), 3));
  assert.equal(spend.consuming_tx, utils.base58check.encode(sha256(bytes)));
  assert.equal(spend.consuming_height, 9);
  assert.equal(spend.consuming_ts, 1700);
  const [cred] = JSON.parse(spend.credentials);
  assert.equal(cred.publicKey, utils.bufferToHex(secp256k1.getPublicKey(KEY)));
});

test('an ExportTx creates UTXOs held by the destination chain, ids as the node assigns them', async () => {
  const bytes = await signedExport();
  const rows = decodeAtomicTxs(NETWORK, block(batch([bytes])));
  assert.equal(rows.spends.length, 0);
  assert.equal(rows.utxos.length, 1);
  const u = rows.utxos[0];
  const id = sha256(bytes);
  assert.equal(u.utxo_id, utxoIdOf(id, 0));
  assert.equal(u.tx_hash, utils.base58check.encode(id));
  assert.equal(u.created_on, NETWORK.cChainId);
  assert.equal(u.consumed_on, NETWORK.pChainId);
  assert.equal(u.utxo_type, 'TRANSFER');
  assert.equal(BigInt(u.amount), 2_000_000_000n);
  assert.deepEqual(JSON.parse(u.addresses), [utils.formatBech32('local', ADDR)]);
});

test('reads several txs per block, the single-tx layout of older blocks, and refuses garbage', async () => {
  const [imp, exp] = [await signedImport(), await signedExport()];
  assert.equal(parseAtomicTxs(utils.hexToBuffer(batch([imp, exp]))).length, 2);
  const single = parseAtomicTxs(imp);
  assert.equal(single.length, 1);
  assert.deepEqual(single[0].bytes, imp);
  assert.deepEqual(parseAtomicTxs(new Uint8Array()), []);
  assert.throws(() => parseAtomicTxs(utils.hexToBuffer(batch([imp]) + 'ff')), {
    name: 'UpstreamInvalidError',
    message: 'bytes after the atomic tx list',
  });
  assert.throws(() => parseAtomicTxs(new Uint8Array([0, 0, 0, 0, 0, 1, 9, 9])), {
    name: 'UpstreamInvalidError',
    message: "atomic txs cannot be parsed: couldn't unmarshal interface: unknown type ID 2313",
  });
});
