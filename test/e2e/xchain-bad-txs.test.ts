/**
 * Issue 3: bad X-chain transactions each get a clear -32000 error and leave state untouched —
 * bad signature, double spend (also two conflicting txs racing into one block), insufficient
 * fee, wrong network or chain ID, bad hex checksum, unknown asset, malformed bytes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  avaxSerial,
  avm,
  avmSerial,
  Context,
  Id,
  Input,
  TransferableInput,
  TransferInput,
  utils,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { inputIdOf } from '../../src/node/vms/components/utxo-id.js';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  amountOf,
  avaxBase,
  BigIntPr,
  checkedHex,
  codec,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_X,
  inputFrom,
  richestUtxo,
  secpOut,
  signWith,
  signedBytes,
  waitAccepted,
  xCall,
  xResult,
} from './xchain-helpers.js';

const OTHER_X = 'X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu';
const OTHER = utils.bech32ToBytes(OTHER_X);
/** Not the key that owns the test key's UTXOs. */
const WRONG_KEY = new Uint8Array(randomBytes(32));

describe('X-chain refuses bad transactions', () => {
  let net: Devnet;
  let url: string;
  let ctx: Context.Context;

  before(async () => {
    // Blocks wait 250 ms for more txs, so two txs issued together both reach the mempool before
    // a block takes the first (with --block-time 0 a loaded machine may accept the first before
    // the second is read, and the second then meets a spent UTXO instead of a waiting rival).
    net = await startDevnet({ args: ['--block-time', '250'] });
    url = net.url;
    ctx = await Context.getContextFromURI(url);
  });
  after(async () => {
    await net?.stop();
  });

  /** Everything a rejected tx must not change. */
  async function snapshot() {
    const [utxos, mine, theirs, height, index] = await Promise.all([
      xResult(url, 'avm.getUTXOs', { addresses: [EWOQ_X, OTHER_X] }),
      xResult(url, 'avm.getAllBalances', { address: EWOQ_X }),
      xResult(url, 'avm.getAllBalances', { address: OTHER_X }),
      xResult(url, 'avm.getHeight'),
      xCall(url, 'index.getLastAccepted', {}, '/ext/index/X/tx'),
    ]);
    return { utxos: [...utxos.utxos].sort(), mine, theirs, height, index };
  }

  /** Issues raw hex and expects a -32000 error matching `pattern`, with nothing changed. */
  async function refused(hex: string, pattern: RegExp): Promise<string> {
    const before = await snapshot();
    const { error, result } = await xCall(url, 'avm.issueTx', { tx: hex, encoding: 'hex' });
    assert.equal(result, undefined);
    assert.ok(error, 'an error object');
    assert.equal(error.code, -32000);
    assert.match(error.message, pattern);
    // Give a block builder every chance to (wrongly) act, then compare.
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await snapshot(), before);
    return error.message;
  }

  async function signedSend(amount = 1_000_000_000n, key = EWOQ_KEY, context: Context.Context = ctx) {
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const tx = avm.newBaseTx(context, [EWOQ_ADDR], [utxo], [secpOut(ctx.avaxAssetID, amount, [OTHER])]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [key] });
    return tx.getSignedTx();
  }

  it('bad signature', async () => {
    // avalanchejs leaves the signature empty when the key owns none of the inputs.
    const unsigned = await signedSend(1n, WRONG_KEY);
    await refused(checkedHex(unsigned.toBytes()), /^failed to verify transfer: invalid signature$/);
    // Signed, but by a key that does not own the UTXO.
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const base = avaxBase(
      ctx,
      [secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.baseTxFee, [OTHER])],
      [inputFrom(utxo)],
    );
    const stranger = await signWith(new avmSerial.BaseTx(base), ['secp'], WRONG_KEY);
    await refused(
      checkedHex(signedBytes(stranger)),
      /^failed to verify transfer: wrong signature: expected signature from 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV but got from \w+$/,
    );
    // A good signature with one bit flipped: it recovers another key, or none.
    const good = (await signedSend(1n)).toBytes();
    good[good.length - 10] ^= 0x01;
    await refused(
      checkedHex(good),
      /^failed to verify transfer: (invalid signature|wrong signature: expected signature from 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV but got from \w+)$/,
    );
    // A good signature whose recovery id flags a compressed key (v + 4): decred's RecoverCompact
    // recovers it, and RecoverPublicKeyFromHash refuses it.
    const flagged = (await signedSend(1n)).toBytes();
    flagged[flagged.length - 1] += 4;
    await refused(checkedHex(flagged), /^failed to verify transfer: wasn't expecting a compressed key$/);
  });

  it('double spend of an accepted UTXO', async () => {
    const first = await signedSend(2_000_000n);
    const { txID } = await xResult(url, 'avm.issueTx', { tx: checkedHex(first.toBytes()) });
    await waitAccepted(url, txID);
    // A different tx spending the same (now spent) UTXO.
    const spent = (first.unsignedTx as avmSerial.BaseTx).getInputs()[0];
    const base = avaxBase(ctx, [secpOut(ctx.avaxAssetID, 5n, [OTHER])], [spent as TransferableInput]);
    const again = await signWith(new avmSerial.BaseTx(base), ['secp']);
    // The reference names the UTXO by its input id (the tx id prefixed by the output index).
    const inputId = utils.base58check.encode(
      inputIdOf(spent.utxoID.txID.toBytes(), spent.utxoID.outputIdx.value()),
    );
    await refused(
      checkedHex(signedBytes(again)),
      new RegExp(`^failed to verify transfer: failed to get utxo ${inputId}: not found$`),
    );
    // Re-issuing the accepted tx itself: the reference has no "already accepted" check, it
    // verifies the tx again, which fails on the UTXO it spent; the tx stays Accepted.
    await refused(
      checkedHex(first.toBytes()),
      new RegExp(`^failed to verify transfer: failed to get utxo ${inputId}: not found$`),
    );
    const { status } = await xResult(url, 'avm.getTxStatus', { txID });
    assert.equal(status, 'Accepted');
  });

  it('two conflicting txs racing into one block: the second is refused', async () => {
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const make = async (amount: bigint) => {
      const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], [utxo], [secpOut(ctx.avaxAssetID, amount, [OTHER])]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      return checkedHex(tx.getSignedTx().toBytes());
    };
    const [a, b] = [await make(11n), await make(22n)];
    const answers = await Promise.all([
      xCall(url, 'avm.issueTx', { tx: a }),
      xCall(url, 'avm.issueTx', { tx: b }),
    ]);
    const ok = answers.filter((x) => x.result);
    const bad = answers.filter((x) => x.error);
    assert.equal(ok.length, 1);
    assert.equal(bad.length, 1);
    assert.equal(bad[0].error!.code, -32000);
    const loser = bad[0] === answers[0] ? a : b;
    const loserId = utils.base58check.encode(sha256(utils.hexToBuffer(loser).slice(0, -4)));
    // Verified against accepted state, then refused by the mempool, as the reference's is.
    assert.equal(bad[0].error!.message, `tx conflicts with other tx: ${loserId}`);
    await waitAccepted(url, ok[0].result.txID);
    const { block } = await xResult(url, 'avm.getBlockByHeight', {
      height: (await xResult(url, 'avm.getHeight')).height,
      encoding: 'json',
    });
    assert.deepEqual(
      block.txs.map((t: any) => t.id),
      [ok[0].result.txID],
    );
    assert.equal((await xResult(url, 'avm.getTxStatus', { txID: loserId })).status, 'Unknown');
  });

  it('insufficient fee', async () => {
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    // Outputs take everything: nothing is left for the 1,000,000 nAVAX fee.
    const base = avaxBase(
      ctx,
      [secpOut(ctx.avaxAssetID, amountOf(utxo) - 999_999n, [EWOQ_ADDR])],
      [inputFrom(utxo)],
    );
    const tx = await signWith(new avmSerial.BaseTx(base), ['secp']);
    await refused(checkedHex(signedBytes(tx)), /^insufficient funds$/);
  });

  it('wrong network ID and wrong chain ID', async () => {
    const mainnetCtx = { ...ctx, networkID: 1 };
    await refused(
      checkedHex((await signedSend(1n, EWOQ_KEY, mainnetCtx)).toBytes()),
      /^tx has wrong network ID$/,
    );
    const cCtx = { ...ctx, xBlockchainID: ctx.cBlockchainID };
    await refused(checkedHex((await signedSend(1n, EWOQ_KEY, cCtx)).toBytes()), /^tx has wrong chain ID$/);
  });

  it("bad hex: checksum, prefix, length and digits, in the words of Go's decoders", async () => {
    const hex = checkedHex((await signedSend(1n)).toBytes());
    const flipped = hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
    const message = await refused(flipped, /^problem decoding transaction: invalid input checksum$/);
    assert.ok(message);
    await refused(hex.slice(2), /missing 0x prefix/);
    for (const short of ['0x', '0x123456']) {
      await refused(short, /^problem decoding transaction: input string is smaller than the checksum size$/);
    }
    await refused(hex.slice(0, -1), /^problem decoding transaction: encoding\/hex: odd length hex string$/);
    await refused(
      hex.slice(0, 10) + 'zz' + hex.slice(12),
      /^problem decoding transaction: encoding\/hex: invalid byte: U\+007A 'z'$/,
    );
  });

  it('unknown asset', async () => {
    const utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const ghost = Id.fromHex(utils.bufferToHex(randomBytes(32))).toString();
    // Balanced on paper: a 5-unit input of the unknown asset pays a 5-unit output of it.
    const ghostInput = new TransferableInput(
      avaxSerial.UTXOID.fromNative(ghost, 0),
      Id.fromString(ghost),
      new TransferInput(new BigIntPr(5n), Input.fromNative([0])),
    );
    const ins = [inputFrom(utxo), ghostInput].sort(TransferableInput.compare);
    const outs = [
      secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.baseTxFee, [EWOQ_ADDR]),
      secpOut(ghost, 5n, [OTHER]),
    ].sort((x, y) => Buffer.compare(Buffer.from(x.toBytes(codec)), Buffer.from(y.toBytes(codec))));
    const tx = await signWith(new avmSerial.BaseTx(avaxBase(ctx, outs, ins)), ['secp', 'secp']);
    // As the reference, inputs are checked before outputs: the ghost input's UTXO is missing.
    const ghostInputId = utils.base58check.encode(inputIdOf(Id.fromString(ghost).toBytes(), 0));
    await refused(
      checkedHex(signedBytes(tx)),
      new RegExp(`^failed to verify transfer: failed to get utxo ${ghostInputId}: not found$`),
    );
  });

  it('malformed bytes', async () => {
    await refused(checkedHex(new Uint8Array(randomBytes(80))), /problem parsing transaction/);
    const good = (await signedSend(1n)).toBytes();
    await refused(checkedHex(good.subarray(0, good.length - 7)), /problem parsing transaction/);
    await refused(
      checkedHex(new Uint8Array([...good, 0])),
      /problem parsing transaction: 1 unexpected trailing bytes/,
    );
    await refused(checkedHex(new Uint8Array()), /problem parsing transaction/);
  });

  it('still accepts a good tx afterwards', async () => {
    const tx = await signedSend(3n);
    const { txID } = await xResult(url, 'avm.issueTx', { tx: checkedHex(tx.toBytes()) });
    await waitAccepted(url, txID);
  });
});
