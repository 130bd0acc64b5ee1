/**
 * Issue 5, atomic transactions with @avalabs/avalanchejs v5: X → C (export on X, import on C)
 * and C → X back, balances right on both sides, the import visible in avax.getAtomicTx and in
 * the C-chain block index, and double spends and bad fees refused with nothing applied.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RLP } from '@ethereumjs/rlp';
import {
  addTxSignatures,
  avm,
  Context,
  evm,
  secp256k1,
  TransferableOutput,
  utils,
} from '@avalabs/avalanchejs';
import { privateKeyToAccount } from 'viem/accounts';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { unwrapContainer } from './proposer-helpers.js';
import { fungibleAssetTx, issue, waitAccepted } from './xchain-helpers.js';

const EWOQ_KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ_SHORT = utils.bech32ToBytes(EWOQ_X);
const EWOQ_EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

async function result(url: string, method: string, params: unknown): Promise<any> {
  const { body } = await rpc(url, method, params);
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('C-chain atomic transactions with avalanchejs', () => {
  let net: Devnet;
  let context: Awaited<ReturnType<typeof Context.getContextFromURI>>;
  let avmApi: avm.AVMApi;
  let evmApi: evm.EVMApi;
  const recipient = '0x' + Buffer.from(secp256k1.randomPrivateKey()).toString('hex').slice(0, 40);

  before(async () => {
    net = await startDevnet();
    context = await Context.getContextFromURI(net.url);
    avmApi = new avm.AVMApi(net.url);
    evmApi = new evm.EVMApi(net.url);
  });
  after(async () => {
    await net?.stop();
  });

  const cBalance = async (address: string) =>
    BigInt(await result(`${net.url}/ext/bc/C/rpc`, 'eth_getBalance', [address, 'latest']));
  /** The base fee in nAVAX, rounded up (the C-chain's minimum is 1 wei). */
  const baseFeeNano = async () => {
    const wei = await evmApi.getBaseFee();
    return (wei + 999_999_999n) / 1_000_000_000n;
  };

  it('exports AVAX from X and imports it on C', async () => {
    const { utxos } = await avmApi.getUTXOs({ addresses: [EWOQ_X] });
    const amount = 5_000_000_000n; // 5 AVAX
    const exportTx = avm.newExportTx(context, context.cBlockchainID, [EWOQ_SHORT], utxos, [
      TransferableOutput.fromNative(context.avaxAssetID, amount, [EWOQ_SHORT]),
    ]);
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
    const { txID: exportID } = await avmApi.issueSignedTx(exportTx.getSignedTx());
    await until('X export', async () =>
      (await avmApi.getTxStatus({ txID: exportID })).status === 'Accepted' ? true : undefined,
    );

    const atomic = await evmApi.getUTXOs({ addresses: [EWOQ_X.replace('X-', 'C-')], sourceChain: 'X' });
    assert.equal(atomic.utxos.length, 1);
    assert.equal((atomic.utxos[0].output as any).amount(), amount);
    const nativeName = await rpc(`${net.url}/ext/bc/C/avax`, 'native.getUTXOs', {
      addresses: [EWOQ_X.replace('X-', 'C-')],
      sourceChain: 'X',
    });
    assert.equal(nativeName.body.result.numFetched, '1');

    const fee = await baseFeeNano();
    const importTx = evm.newImportTxFromBaseFee(
      context,
      utils.hexToBuffer(recipient),
      [EWOQ_SHORT],
      atomic.utxos,
      context.xBlockchainID,
      fee,
    );
    await addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] });
    const signed = importTx.getSignedTx();
    const { txID } = await evmApi.issueSignedTx(signed);
    const status = await until('C import', async () => {
      const s = await evmApi.getAtomicTxStatus(txID);
      return s.status === 'Accepted' ? s : undefined;
    });
    const height = BigInt((status as any).blockHeight);
    assert.ok(height > 0n);
    const imported = await cBalance(recipient);
    assert.ok(imported > 0n && imported < amount * 1_000_000_000n, `imported ${imported}`);
    assert.equal(
      amount * 1_000_000_000n - imported,
      ((amount * 1_000_000_000n - imported) / 1_000_000_000n) * 1_000_000_000n,
    );

    // The tx is served back, and the C block index holds the block that carries it.
    const got = await result(`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTx', { txID, encoding: 'hex' });
    assert.equal(BigInt(got.blockHeight), height);
    const signedHex = Buffer.from(signed.toBytes()).toString('hex');
    assert.ok(got.tx.toLowerCase().startsWith('0x' + signedHex));
    const plain = await result(`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTx', { txID, encoding: 'hexnc' });
    assert.deepEqual(plain, { tx: '0x' + signedHex, encoding: 'hexnc', blockHeight: got.blockHeight });
    const json = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTx', { txID, encoding: 'json' });
    assert.equal(json.body.error.message, 'unsupported encoding in method');
    // avalanchejs parses the answer back into the signed tx it was given.
    const parsed = await evmApi.getAtomicTx({ txID, encoding: 'hex' } as any);
    assert.equal(Buffer.from(parsed.tx.toBytes()).toString('hex'), signedHex);
    const last = await result(`${net.url}/ext/index/C/block`, 'index.getLastAccepted', { encoding: 'hex' });
    // A proposervm block around the C-chain block, as on the reference node.
    const wrapped = unwrapContainer(last.bytes);
    assert.equal(last.id, wrapped.id);
    const blockBytes = Buffer.from(wrapped.inner);
    const [header, , , , extData] = RLP.decode(blockBytes) as any[];
    assert.equal(BigInt('0x' + Buffer.from(header[8]).toString('hex')), height);
    assert.ok(Buffer.from(extData).toString('hex').includes(signedHex.slice(4)));
    const block = await result(`${net.url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', [
      '0x' + height.toString(16),
      false,
    ]);
    assert.ok(BigInt(block.extDataGasUsed) > 10_000n);
    // coreth's `blockExtraData`: the block body's extra data, as indexers read atomic txs.
    assert.equal(block.blockExtraData, '0x' + Buffer.from(extData).toString('hex'));

    // The same UTXO cannot be imported twice.
    const again = evm.newImportTxFromBaseFee(
      context,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      atomic.utxos,
      context.xBlockchainID,
      fee + 1n,
    );
    await addTxSignatures({ unsignedTx: again, privateKeys: [EWOQ_KEY] });
    await assert.rejects(
      evmApi.issueSignedTx(again.getSignedTx()),
      /failed to fetch import UTXOs from \w+ due to: not found/,
    );
    const left = await evmApi.getUTXOs({ addresses: [EWOQ_X.replace('X-', 'C-')], sourceChain: 'X' });
    assert.equal(left.utxos.length, 0);
  });

  it('exports AVAX from C back to X and imports it there', async () => {
    const nonce = BigInt(
      await result(`${net.url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']),
    );
    const before = await cBalance(EWOQ_EVM);
    const amount = 2_000_000_000n;
    const fee = await baseFeeNano();
    const exportTx = evm.newExportTxFromBaseFee(
      context,
      fee,
      amount,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce,
    );
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
    const { txID } = await evmApi.issueSignedTx(exportTx.getSignedTx());
    await until('C export', async () =>
      (await evmApi.getAtomicTxStatus(txID)).status === 'Accepted' ? true : undefined,
    );
    const after = await cBalance(EWOQ_EVM);
    assert.ok(before - after >= amount * 1_000_000_000n);
    assert.equal(
      BigInt(await result(`${net.url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest'])),
      nonce + 1n,
    );

    const { utxos } = await avmApi.getUTXOs({ addresses: [EWOQ_X], sourceChain: 'C' });
    assert.equal(utxos.length, 1);
    const xBefore = BigInt(
      (await result(`${net.url}/ext/bc/X`, 'avm.getBalance', { address: EWOQ_X, assetID: 'AVAX' })).balance,
    );
    const importTx = avm.newImportTx(context, context.cBlockchainID, utxos, [EWOQ_SHORT], [EWOQ_SHORT]);
    await addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] });
    const { txID: importID } = await avmApi.issueSignedTx(importTx.getSignedTx());
    await until('X import', async () =>
      (await avmApi.getTxStatus({ txID: importID })).status === 'Accepted' ? true : undefined,
    );
    const xAfter = BigInt(
      (await result(`${net.url}/ext/bc/X`, 'avm.getBalance', { address: EWOQ_X, assetID: 'AVAX' })).balance,
    );
    assert.equal(xAfter - xBefore, amount - context.baseTxFee);
  });

  it("words refused signatures, balances and nonces as coreth's semantic verifier and state transfer", async () => {
    const other = utils.hexToBuffer('0x' + '44'.repeat(32));
    const otherShort = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(other));
    const issueHex = async (signed: { toBytes(): Uint8Array }) => {
      const bytes = signed.toBytes();
      const check = (await import('@noble/hashes/sha2.js')).sha256(bytes).subarray(28);
      const tx = '0x' + Buffer.concat([Buffer.from(bytes), Buffer.from(check)]).toString('hex');
      return (await rpc(`${net.url}/ext/bc/C/avax`, 'avax.issueTx', { tx, encoding: 'hex' })).body;
    };
    // An import of an X-chain export whose credential another key signed: the fx's refusal under
    // `import tx transfer failed verification: `.
    const { utxos } = await avmApi.getUTXOs({ addresses: [EWOQ_X] });
    const exportTx = avm.newExportTx(context, context.cBlockchainID, [EWOQ_SHORT], utxos, [
      TransferableOutput.fromNative(context.avaxAssetID, 1_000_000_000n, [EWOQ_SHORT]),
    ]);
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
    const { txID: exportID } = await avmApi.issueSignedTx(exportTx.getSignedTx());
    await until('X export', async () =>
      (await avmApi.getTxStatus({ txID: exportID })).status === 'Accepted' ? true : undefined,
    );
    const atomic = await evmApi.getUTXOs({ addresses: [EWOQ_X.replace('X-', 'C-')], sourceChain: 'X' });
    const importTx = evm.newImportTxFromBaseFee(
      context,
      utils.hexToBuffer(recipient),
      [EWOQ_SHORT],
      atomic.utxos,
      context.xBlockchainID,
      await baseFeeNano(),
    );
    importTx.addSignatureAt(await secp256k1.sign(importTx.toBytes(), other), 0, 0);
    const forgedImport = await issueHex(importTx.getSignedTx());
    assert.equal(
      forgedImport.error.message,
      `import tx transfer failed verification: wrong signature: expected signature from ${utils.base58check.encode(EWOQ_SHORT)} but got from ${utils.base58check.encode(otherShort)}`,
    );

    // Signed by its owner, the same import goes in (and leaves shared memory as the next test expects).
    const honest = evm.newImportTxFromBaseFee(
      context,
      utils.hexToBuffer(recipient),
      [EWOQ_SHORT],
      atomic.utxos,
      context.xBlockchainID,
      await baseFeeNano(),
    );
    await addTxSignatures({ unsignedTx: honest, privateKeys: [EWOQ_KEY] });
    const { txID: honestID } = await evmApi.issueSignedTx(honest.getSignedTx());
    await until('C import', async () =>
      (await evmApi.getAtomicTxStatus(honestID)).status === 'Accepted' ? true : undefined,
    );

    // An export signed by a key other than its input's address; one with a stale nonce.
    const nonce = BigInt(
      await result(`${net.url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']),
    );
    const fee = await baseFeeNano();
    const forged = evm.newExportTxFromBaseFee(
      context,
      fee,
      1_000_000n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce,
    );
    forged.addSignatureAt(await secp256k1.sign(forged.toBytes(), other), 0, 0);
    assert.equal((await issueHex(forged.getSignedTx())).error.message, "signature doesn't match public key");
    // Signatures that recover no key, in secp256k1.RecoverPublicKeyFromHash's words, bare: the
    // owner's own signature with a recovery id past 7, flagged compressed (v + 4), or with its s
    // flipped to the high half (the same point, malleated).
    const genuine = await secp256k1.sign(forged.toBytes(), EWOQ_KEY);
    const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const withSig = (edit: (sig: Uint8Array) => void) => {
      const sig = Uint8Array.from(genuine);
      edit(sig);
      forged.addSignatureAt(sig, 0, 0);
      return forged.getSignedTx();
    };
    const recoveryIds: [number, string][] = [
      [9, 'invalid signature'],
      [genuine[64]! + 4, "wasn't expecting a compressed key"],
    ];
    for (const [v, why] of recoveryIds)
      assert.equal((await issueHex(withSig((sig) => (sig[64] = v)))).error.message, why);
    const high = withSig((sig) => {
      const s = BigInt(utils.bufferToHex(sig.subarray(32, 64)));
      sig.set(utils.hexToBuffer((ORDER - s).toString(16).padStart(64, '0')), 32);
      sig[64] ^= 1;
    });
    assert.equal((await issueHex(high)).error.message, 'signature was mutated from its original format');
    const stale = evm.newExportTxFromBaseFee(
      context,
      fee,
      1_000_000n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce + 5n,
    );
    await addTxSignatures({ unsignedTx: stale, privateKeys: [EWOQ_KEY] });
    assert.equal((await issueHex(stale.getSignedTx())).error.message, 'invalid nonce');
  });

  it('refuses a stale export nonce, a short fee and garbage, and applies nothing', async () => {
    const nonce = BigInt(
      await result(`${net.url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']),
    );
    const before = await cBalance(EWOQ_EVM);
    const stale = evm.newExportTxFromBaseFee(
      context,
      await baseFeeNano(),
      1_000_000n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce - 1n,
    );
    await addTxSignatures({ unsignedTx: stale, privateKeys: [EWOQ_KEY] });
    await assert.rejects(evmApi.issueSignedTx(stale.getSignedTx()), /invalid nonce/);
    const noFee = evm.newExportTx(
      context,
      1_000_000n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      0n,
      nonce,
    );
    await addTxSignatures({ unsignedTx: noFee, privateKeys: [EWOQ_KEY] });
    await assert.rejects(
      evmApi.issueSignedTx(noFee.getSignedTx()),
      /export tx flow check failed due to: insufficient funds/,
    );
    const garbage = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.issueTx', { tx: '0x00010203' });
    assert.equal(garbage.body.error.code, -32000);
    const noSource = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.getUTXOs', {
      addresses: [EWOQ_X.replace('X-', 'C-')],
    });
    assert.equal(noSource.body.error.message, 'no source chain provided');
    const unknown = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';
    const missing = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTx', { txID: unknown });
    assert.equal(missing.body.error.message, `could not find tx ${unknown}`);
    const asJson = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.getUTXOs', {
      addresses: [EWOQ_X.replace('X-', 'C-')],
      sourceChain: 'X',
      encoding: 'json',
    });
    // Nothing is waiting, so nothing needs encoding: the reference answers an empty page then.
    assert.deepEqual(
      { numFetched: asJson.body.result.numFetched, encoding: asJson.body.result.encoding },
      { numFetched: '0', encoding: 'json' },
    );
    const status = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', { txID: unknown });
    assert.equal(status.body.result.status, 'Unknown');
    // The all-zero id is coreth's errNilTxID, refused before any lookup.
    const empty = await rpc(`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', {
      txID: '11111111111111111111111111111111LpoYY',
    });
    assert.equal(empty.body.error.message, 'nil transaction ID');
    assert.equal(await cBalance(EWOQ_EVM), before);
  });

  it('refuses a non-AVAX asset and unsorted exported outputs in C-chain atomic txs in coreth’s words; the ANT stays in shared memory', async () => {
    const assetID = await issue(
      net.url,
      await fungibleAssetTx(net.url, context, {
        name: 'Token',
        symbol: 'TOK',
        denomination: 0,
        supply: 1000n,
      }),
    );
    await waitAccepted(net.url, assetID);
    // The X-chain exports any asset; the C-chain is where the ANT is refused.
    const { utxos } = await avmApi.getUTXOs({ addresses: [EWOQ_X] });
    const exportTx = avm.newExportTx(context, context.cBlockchainID, [EWOQ_SHORT], utxos, [
      TransferableOutput.fromNative(assetID, 10n, [EWOQ_SHORT]),
      TransferableOutput.fromNative(context.avaxAssetID, 1_000_000_000n, [EWOQ_SHORT]),
    ]);
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
    const { txID: exportID } = await avmApi.issueSignedTx(exportTx.getSignedTx());
    await waitAccepted(net.url, exportID);
    const C_ADDR = EWOQ_X.replace('X-', 'C-');
    const atomic = (await evmApi.getUTXOs({ addresses: [C_ADDR], sourceChain: 'X' })).utxos;
    assert.deepEqual(atomic.map((u) => u.getAssetId()).sort(), [assetID, context.avaxAssetID].sort());
    const issueHex = async (tx: { getSignedTx(): { toBytes(): Uint8Array } }) => {
      const hexTx = utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes()));
      return (await rpc(`${net.url}/ext/bc/C/avax`, 'avax.issueTx', { tx: hexTx })).body.error?.message;
    };
    const fee = await baseFeeNano();
    // avalanchejs credits each imported asset to the account: coreth checks the EVM outputs first.
    const importAll = () =>
      evm.newImportTxFromBaseFee(
        context,
        utils.hexToBuffer(recipient),
        [EWOQ_SHORT],
        atomic,
        context.xBlockchainID,
        fee,
      );
    const both = importAll();
    await addTxSignatures({ unsignedTx: both, privateKeys: [EWOQ_KEY] });
    assert.equal(await issueHex(both), 'import output cannot contain non-AVAX in Banff');
    // The ANT input with only an AVAX output: the input is refused.
    const inputOnly = importAll();
    const body = inputOnly.getTx() as any;
    body.Outs = body.Outs.filter((o: any) => o.assetId.toString() === context.avaxAssetID);
    await addTxSignatures({ unsignedTx: inputOnly, privateKeys: [EWOQ_KEY] });
    assert.equal(await issueHex(inputOnly), 'import input cannot contain non-AVAX in Banff');
    // Exporting the ANT from C spends an ANT input the account cannot hold.
    const nonce = BigInt(
      await result(`${net.url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']),
    );
    const antExport = evm.newExportTxFromBaseFee(
      context,
      fee,
      5n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce,
      assetID,
    );
    await addTxSignatures({ unsignedTx: antExport, privateKeys: [EWOQ_KEY] });
    assert.equal(await issueHex(antExport), 'export input cannot contain non-AVAX in Banff');
    // An AVAX export whose exported outputs are out of avax.IsSortedTransferableOutputs order.
    const unsorted = evm.newExportTxFromBaseFee(
      context,
      fee,
      2_000_000n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce,
    );
    (unsorted.getTx() as any).exportedOutputs.push(
      TransferableOutput.fromNative(context.avaxAssetID, 1_000_000n, [EWOQ_SHORT]),
    );
    await addTxSignatures({ unsignedTx: unsorted, privateKeys: [EWOQ_KEY] });
    assert.equal(await issueHex(unsorted), 'tx outputs not sorted');
    // Nothing moved: both UTXOs still wait in shared memory.
    assert.equal((await evmApi.getUTXOs({ addresses: [C_ADDR], sourceChain: 'X' })).utxos.length, 2);
  });
});

describe('C-chain atomic txs dropped at block building', () => {
  let net: Devnet;
  before(async () => {
    // Blocks wait 2 s for txs, so an EVM tx and an atomic tx issued one after the other share one.
    net = await startDevnet({ command: 'node', args: ['--block-time', '2000'] });
  });
  after(async () => {
    await net?.stop();
  });

  it('reports an export whose nonce an EVM tx of the same block took as Dropped, and still serves it', async () => {
    const rpcUrl = `${net.url}/ext/bc/C/rpc`;
    const avaxUrl = `${net.url}/ext/bc/C/avax`;
    const context = await Context.getContextFromURI(net.url);
    const nonce = BigInt(await result(rpcUrl, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']));
    const account = privateKeyToAccount(utils.bufferToHex(EWOQ_KEY) as `0x${string}`);
    const raw = await account.signTransaction({
      chainId: Number(await result(rpcUrl, 'eth_chainId', [])),
      type: 'eip1559',
      to: EWOQ_EVM,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
      nonce: Number(nonce),
    });
    await result(rpcUrl, 'eth_sendRawTransaction', [raw]);
    // The export is valid against the accepted state, where the nonce is still free.
    const baseFee = BigInt(await result(rpcUrl, 'eth_baseFee', []));
    const exportTx = evm.newExportTxFromBaseFee(
      context,
      (baseFee + 999_999_999n) / 1_000_000_000n,
      1_000_000n,
      context.xBlockchainID,
      utils.hexToBuffer(EWOQ_EVM),
      [EWOQ_SHORT],
      nonce,
    );
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
    const signed = utils.bufferToHex(utils.addChecksum(exportTx.getSignedTx().toBytes()));
    const { txID } = await result(avaxUrl, 'avax.issueTx', { tx: signed });
    assert.equal((await result(avaxUrl, 'avax.getAtomicTxStatus', { txID })).status, 'Processing');
    const pending = await result(avaxUrl, 'avax.getAtomicTx', { txID });
    assert.deepEqual(pending, { tx: signed, encoding: 'hex' });

    // The EVM tx runs first in the block and takes the nonce, so the export is dropped.
    const dropped = await until('the export dropped', async () => {
      const s = await result(avaxUrl, 'avax.getAtomicTxStatus', { txID });
      return s.status === 'Processing' ? undefined : s;
    });
    assert.equal(dropped.status, 'Dropped');
    assert.match(dropped.reason, /nonce/);
    assert.equal(dropped.blockHeight, undefined);
    // As coreth: a dropped tx is still known, so it is served (without a block height).
    assert.deepEqual(await result(avaxUrl, 'avax.getAtomicTx', { txID }), { tx: signed, encoding: 'hex' });
    assert.deepEqual(await result(avaxUrl, 'native.getAtomicTx', { txID, encoding: 'hexnc' }), {
      tx: utils.bufferToHex(exportTx.getSignedTx().toBytes()),
      encoding: 'hexnc',
    });
    assert.equal(BigInt(await result(rpcUrl, 'eth_getTransactionCount', [EWOQ_EVM, 'latest'])), nonce + 1n);
  });
});
