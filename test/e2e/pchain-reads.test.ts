/**
 * P-chain read methods against the reference's rules for their params: getUTXOs' `sourceChain`
 * (the P-chain's own aliases list its own UTXOs), getBalance's lock times (read against the node's
 * clock, not the last block's time) and assets (every one, not only AVAX), the address limits of getUTXOs, getStake and getBalance, and
 * getValidatorsAt/getAllValidatorsAt at a height not accepted yet.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  avaxSerial,
  avm,
  Context,
  Credential,
  Id,
  pvm,
  pvmSerial,
  secp256k1,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
  type Utxo,
} from '@avalabs/avalanchejs';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { EWOQ_ADDR, EWOQ_KEY, EWOQ_P, pCall } from './pchain-helpers.js';
import { EWOQ_X, fungibleAssetTx, issue, utxosOf, waitAccepted } from './xchain-helpers.js';

const AVAX = 1_000_000_000n;
const PRIMARY = '11111111111111111111111111111111LpoYY';

describe('P-chain read methods', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  const error = async (method: string, params: unknown) =>
    (await pCall(net.url, `platform.${method}`, params)).error?.message;
  const result = async (method: string, params: unknown) =>
    (await pCall(net.url, `platform.${method}`, params)).result;

  before(async () => {
    net = await startDevnet({ command: 'node' });
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
  });
  after(async () => {
    await net?.stop();
  });

  it("lists the P-chain's own UTXOs for any of its aliases as sourceChain", async () => {
    const own = await result('getUTXOs', { addresses: [EWOQ_P] });
    assert.ok(own.utxos.length > 0);
    for (const sourceChain of ['P', 'platform', PRIMARY])
      assert.deepEqual(await result('getUTXOs', { addresses: [EWOQ_P], sourceChain }), own, sourceChain);
    assert.equal((await result('getUTXOs', { addresses: [EWOQ_P], sourceChain: 'X' })).numFetched, '0');
    assert.equal(
      await error('getUTXOs', { addresses: [EWOQ_P], sourceChain: 'Y' }),
      'problem parsing source chainID "Y": there is no ID with alias: Y',
    );
  });

  it('reads lock times against the clock, so funds unlock without waiting for a block', async () => {
    const chainTime = Date.parse((await api.getTimestamp()).timestamp) / 1000;
    const locktime = BigInt(Math.ceil(Math.max(chainTime, Date.now() / 1000))) + 3n;
    const holder = utils.hexToBuffer('0x' + '5a'.repeat(20));
    const address = utils.format('P', ctx.hrp, holder);
    const tx = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [holder], locktime)],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    await api.issueSignedTx(tx.getSignedTx());
    const height = (await api.getHeight()).height;
    const locked = await api.getBalance({ addresses: [address] });
    assert.equal(locked.lockedNotStakeable, AVAX);
    assert.equal(locked.unlocked, 0n);

    let balance = locked;
    for (let i = 0; balance.unlocked !== AVAX; i++) {
      assert.ok(i < 100, `still locked: ${balance.lockedNotStakeable} nAVAX`);
      await new Promise((r) => setTimeout(r, 100));
      balance = await api.getBalance({ addresses: [address] });
    }
    assert.equal(balance.lockedNotStakeable, 0n);
    assert.equal((await api.getHeight()).height, height, 'no block came in between');
  });

  it('sums every asset the addresses hold, AVAX also in the top-level members', async () => {
    // A token made on the X-chain comes to the P-chain with the AVAX that pays the import.
    const signed = await fungibleAssetTx(net.url, ctx, {
      name: 'Plate',
      symbol: 'PLT',
      denomination: 0,
      supply: 1_000n,
    });
    const assetID = await issue(net.url, signed);
    await waitAccepted(net.url, assetID);
    const exp = avm.newExportTx(ctx, ctx.pBlockchainID, [EWOQ_ADDR], await utxosOf(net.url, EWOQ_X), [
      TransferableOutput.fromNative(assetID, 400n, [EWOQ_ADDR]),
      TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [EWOQ_ADDR]),
    ]);
    await addTxSignatures({ unsignedTx: exp, privateKeys: [EWOQ_KEY] });
    await waitAccepted(net.url, (await new avm.AVMApi(net.url).issueSignedTx(exp.getSignedTx())).txID);
    const holder = utils.hexToBuffer('0x' + '6b'.repeat(20));
    const address = utils.format('P', ctx.hrp, holder);
    // avalanchejs's import builder takes AVAX alone, so the import is put together by hand; it
    // burns far more than its fee.
    const atomic = (await api.getUTXOs({ addresses: [EWOQ_P], sourceChain: 'X' })).utxos;
    const amount = (u: Utxo) => (u.output as TransferOutput).amount();
    // In the order the reference demands: inputs by UTXO, outputs by asset.
    const ins = atomic
      .map((u) => new TransferableInput(u.utxoId, u.assetId, TransferInput.fromNative(amount(u), [0])))
      .sort(TransferableInput.compare);
    const outs = [
      TransferableOutput.fromNative(assetID, 400n, [holder]),
      TransferableOutput.fromNative(ctx.avaxAssetID, AVAX / 2n, [holder]),
    ].sort((a, b) => Buffer.compare(a.assetId.toBytes(), b.assetId.toBytes()));
    const imp = new pvmSerial.ImportTx(
      avaxSerial.BaseTx.fromNative(ctx.networkID, ctx.pBlockchainID, outs, [], new Uint8Array()),
      Id.fromString(ctx.xBlockchainID),
      ins,
    );
    const signature = await secp256k1.sign(utils.getManagerForVM('PVM').packCodec(imp), EWOQ_KEY);
    const credentials = ins.map(() => new Credential([new Signature(signature)]));
    await api.issueSignedTx(new avaxSerial.SignedTx(imp, credentials));

    const balance = await result('getBalance', { addresses: [address] });
    const both = { [ctx.avaxAssetID]: String(AVAX / 2n), [assetID]: '400' };
    assert.equal(balance.balance, String(AVAX / 2n));
    assert.deepEqual(balance.balances, both);
    assert.deepEqual(balance.unlockeds, both);
    assert.deepEqual(balance.lockedStakeables, {});
    assert.equal(balance.utxoIDs.length, 2);
  });

  it('bounds the address lists as the reference does', async () => {
    const many = (n: number) => Array.from({ length: n }, () => EWOQ_P);
    assert.equal(await error('getUTXOs', { addresses: [] }), 'no addresses provided');
    assert.equal(
      await error('getUTXOs', { addresses: many(1025) }),
      'number of addresses given, 1025, exceeds maximum, 1024',
    );
    assert.equal(
      await error('getStake', { addresses: many(257) }),
      '257 addresses provided but this method can take at most 256',
    );
    assert.equal((await result('getStake', { addresses: [] })).staked, '0');
    assert.equal((await result('getBalance', { addresses: [] })).balance, '0');
    const all = await result('getBalance', { addresses: many(1025) });
    assert.equal(all.balance, (await result('getBalance', { addresses: [EWOQ_P] })).balance);
  });

  it('refuses a validator set at a height not accepted yet in the reference words', async () => {
    const height = BigInt((await api.getHeight()).height);
    const ahead = height + 5n;
    assert.equal(
      await error('getValidatorsAt', { height: Number(ahead) }),
      `failed to get validator set at ${ahead}: failed to fetch validator set at unfinalized height ` +
        `with SubnetID = ${PRIMARY}: current P-chain height (${height}) < requested P-Chain height (${ahead})`,
    );
    assert.equal(
      await error('getAllValidatorsAt', { height: String(ahead) }),
      `failed to get validator sets at ${ahead}: failed to fetch validator set at unfinalized height: ` +
        `current P-chain height (${height}) < requested P-Chain height (${ahead})`,
    );
  });
});
