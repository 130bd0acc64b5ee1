/**
 * `platform.issueTx` and `getTxStatus` around the mempool, as the reference's gossip mempool
 * answers them: a tx issued again while it waits for its block is not an error, a second tx
 * spending a UTXO a waiting tx spends is refused, and a refused tx is Dropped with its reason, which
 * issuing it again answers. The devnet builds a block every 1.5 s so that txs wait.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  Context,
  pvm,
  pvmSerial,
  TransferableOutput,
  utils,
  Utxo,
  type Common,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { blsKey, EWOQ_ADDR, EWOQ_KEY, EWOQ_P, pCall, testNodeId } from './pchain-helpers.js';

const AVAX = 1_000_000_000n;
const PRIMARY = '11111111111111111111111111111111LpoYY';
/** Where the many small outputs go, so the test key's UTXO set stays small. */
const SINK = utils.hexToBuffer('0x' + '77'.repeat(20));

describe('P-chain mempool', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let api: pvm.PVMApi;

  /** A signed BaseTx sending `amount` to a fresh address, paying `price` per unit of gas. */
  const baseTx = async (amount: bigint, price?: bigint): Promise<Common.UnsignedTx> => {
    const feeState = await api.getFeeState();
    const tx = pvm.newBaseTx(
      {
        feeState: price === undefined ? feeState : { ...feeState, price },
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [EWOQ_ADDR])],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    return tx;
  };
  /** platform.issueTx as a wallet sends it; the whole JSON-RPC answer. */
  const issue = (tx: Common.UnsignedTx) =>
    pCall(net.url, 'platform.issueTx', {
      tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())),
      encoding: 'hex',
    });
  const status = (txID: string) => pCall(net.url, 'platform.getTxStatus', { txID });
  const idOf = (tx: Common.UnsignedTx) => utils.base58check.encode(sha256(tx.getSignedTx().toBytes()));

  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--block-time', '1500'] });
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
  });
  after(async () => {
    await net?.stop();
  });

  it('answers a tx issued again while it waits with its id, and refuses one spending its UTXOs', async () => {
    const first = await baseTx(AVAX);
    const rival = await baseTx(2n * AVAX); // built from the same UTXOs
    const issued = issue(first);
    for (let i = 0; (await status(idOf(first))).result?.status !== 'Processing'; i++)
      assert.ok(i < 200, 'the tx never showed as Processing');

    const conflict = await issue(rival);
    assert.equal(conflict.error?.message, "couldn't issue tx: tx conflicts with other tx");
    assert.deepEqual((await status(idOf(rival))).result, {
      status: 'Dropped',
      reason: 'tx conflicts with other tx',
    });

    const again = await issue(first);
    assert.deepEqual(again.result, { txID: idOf(first) });
    assert.equal((await status(idOf(first))).result.status, 'Committed', 'the repeat waited for the block');
    assert.deepEqual((await issued).result, { txID: idOf(first) });

    // Issued once accepted: the reference has no "already accepted" check; VerifyTx runs the tx
    // again and it fails on the first UTXO it spent.
    const spent = (first.getTx() as pvmSerial.BaseTx).baseTx.inputs[0].utxoID;
    const reason =
      `failed execution: standard tx ${idOf(first)} failed execution: ` +
      `failed to read consumed UTXO ${spent.txID.toString()}:${spent.outputIdx.value()} due to: not found`;
    const accepted = await issue(first);
    assert.equal(accepted.error?.message, `couldn't issue tx: failed verification: ${reason}`);
    assert.equal((await status(idOf(first))).result.status, 'Committed');
    // Kept as a dropped tx's reason, which issuing it once more answers without verifying.
    const third = await issue(first);
    assert.equal(third.error?.message, `couldn't issue tx: ${reason}`);
  });

  it('remembers a refused tx as Dropped with its reason, and answers that reason when it comes again', async () => {
    const unpaid = await baseTx(AVAX, 0n);
    const refused = await issue(unpaid);
    const prefix = "couldn't issue tx: failed verification: ";
    // VerifyTx's stage, then StandardTx's layer naming the tx, then the executor's reason.
    const layers = `failed execution: standard tx ${idOf(unpaid)} failed execution: `;
    assert.ok(refused.error!.message.startsWith(prefix + layers), refused.error!.message);
    assert.match(
      refused.error!.message.slice((prefix + layers).length),
      /^insufficient unlocked funds: needs \d+ more \w+$/,
    );
    // The mempool keeps what VerifyTx returned.
    const reason = refused.error!.message.slice(prefix.length);
    assert.deepEqual((await status(idOf(unpaid))).result, { status: 'Dropped', reason });
    const again = await issue(unpaid);
    assert.equal(again.error?.message, `couldn't issue tx: ${reason}`);
  });

  it("drops a tx that fails as its block is built with StandardTx's error, VerifyTx's stage left off", async () => {
    // Two UTXOs of their own, so two validator txs for one new node spend nothing in common: each
    // passes alone at issue, and the second fails once the first is in the block.
    const amounts = [2_100n * AVAX, 2_200n * AVAX];
    const split = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: amounts.map((a) => TransferableOutput.fromNative(ctx.avaxAssetID, a, [EWOQ_ADDR])),
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: split, privateKeys: [EWOQ_KEY] });
    const splitId = (await api.issueSignedTx(split.getSignedTx())).txID;
    const own = (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos.filter(
      (u) => u.utxoId.txID.toString() === splitId && amounts.includes((u.output as any).amount()),
    );
    assert.equal(own.length, 2);
    const node = testNodeId(77);
    const key = blsKey('mempool-twice');
    const now = BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
    const validator = async (utxo: Utxo) => {
      const tx = pvm.newAddPermissionlessValidatorTx(
        {
          feeState: await api.getFeeState(),
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: [utxo],
          nodeId: node,
          subnetId: PRIMARY,
          start: now,
          end: now + 3600n,
          weight: 2_000n * AVAX,
          rewardAddresses: [EWOQ_ADDR],
          delegatorRewardsOwner: [EWOQ_ADDR],
          shares: 20_000,
          publicKey: key.publicKey,
          signature: key.pop,
        },
        ctx,
      );
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      return tx;
    };
    const [first, second] = [await validator(own[0]!), await validator(own[1]!)];
    const issued = [issue(first), issue(second)];
    for (const tx of [first, second])
      for (let i = 0; (await status(idOf(tx))).result?.status !== 'Processing'; i++)
        assert.ok(i < 200, 'the tx never showed as Processing');
    assert.deepEqual((await issued[0]).result, { txID: idOf(first) });

    // As the reference's builder marks it: StandardTx's error, without `failed execution: `.
    const reason = `standard tx ${idOf(second)} failed execution: duplicate validator: ${node} on ${PRIMARY}`;
    assert.deepEqual((await status(idOf(second))).result, { status: 'Dropped', reason });
    assert.equal((await issue(second)).error?.message, `couldn't issue tx: ${reason}`);
    // Its first issuer, who waited for the block, hears the same.
    assert.equal((await issued[1]).error?.message, `couldn't issue tx: ${reason}`);
  });

  it('refuses a tx past the capacity left at the next block, and refuses past the mempool capacity', async () => {
    // Three UTXOs of their own, so the big txs below spend nothing in common.
    const split = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: [10n, 11n, 12n].map((a) =>
          TransferableOutput.fromNative(ctx.avaxAssetID, a * AVAX, [EWOQ_ADDR]),
        ),
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: split, privateKeys: [EWOQ_KEY] });
    const splitId = (await api.issueSignedTx(split.getSignedTx())).txID;
    const amounts = [10n, 11n, 12n].map((a) => a * AVAX);
    const own = (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos.filter(
      (u) => u.utxoId.txID.toString() === splitId && amounts.includes((u.output as any).amount()),
    );
    assert.equal(own.length, 3);
    /** About 1,080 gas per output: 750 outputs use most of a block's 1,000,000. */
    const big = async (utxo: Utxo, outputs: number) => {
      const tx = pvm.newBaseTx(
        {
          feeState: { ...(await api.getFeeState()), capacity: 10n ** 6n },
          fromAddressesBytes: [EWOQ_ADDR],
          utxos: [utxo],
          outputs: Array.from({ length: outputs }, () =>
            TransferableOutput.fromNative(ctx.avaxAssetID, 1000n, [SINK]),
          ),
        },
        ctx,
      );
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      return tx;
    };
    const { weights } = await api.getFeeConfig();
    const gasOf = (tx: Common.UnsignedTx) => pvm.calculateFee(tx.getTx(), weights, 1n);

    const first = await big(own[0]!, 550);
    const waiting = issue(first);
    for (let i = 0; (await status(idOf(first))).result?.status !== 'Processing'; i++)
      assert.ok(i < 200, 'the tx never showed as Processing');
    // The mempool holds at most 1,000,000 gas: a second big tx does not fit beside the first,
    // though each alone fits the (still full) capacity.
    const second = await big(own[1]!, 450);
    assert.ok(gasOf(first) + gasOf(second) > 1_000_000n);
    assert.equal((await issue(second)).error?.message, "couldn't issue tx: not enough gas");
    assert.deepEqual((await status(idOf(second))).result, { status: 'Dropped', reason: 'not enough gas' });
    assert.deepEqual((await waiting).result, { txID: idOf(first) });
    assert.equal((await status(idOf(first))).result.status, 'Committed');

    // The block left far less capacity than the next tx needs: VerifyTx compares its gas with the
    // capacity at the next block, so it is refused, not kept waiting for the refill.
    const third = await big(own[2]!, 900);
    const gas = gasOf(third);
    assert.ok(gas <= 1_000_000n && gas > (await api.getFeeState()).capacity);
    const answer = await issue(third);
    const prefix = "couldn't issue tx: failed verification: ";
    const m = new RegExp(`^${prefix}tx exceeds current gas capacity: ${gas} > (\\d+)$`).exec(
      answer.error?.message ?? '',
    );
    assert.ok(m, answer.error?.message);
    assert.ok(BigInt(m[1]!) < gas);
    assert.deepEqual((await status(idOf(third))).result, {
      status: 'Dropped',
      reason: answer.error!.message.slice(prefix.length),
    });
  });

  it('refuses a tx past the gas capacity before running it, as VerifyTx checks it first', async () => {
    // 1,000 outputs (about 1,080,000 gas, past a block's 1,000,000) and no fee paid: run, it
    // would fail on its funds; the capacity check comes first and is what is answered.
    const tx = pvm.newBaseTx(
      {
        feeState: { ...(await api.getFeeState()), capacity: 10n ** 7n, price: 0n },
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: Array.from({ length: 1000 }, () =>
          TransferableOutput.fromNative(ctx.avaxAssetID, 1000n, [SINK]),
        ),
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { weights } = await api.getFeeConfig();
    const gas = pvm.calculateFee(tx.getTx(), weights, 1n);
    assert.ok(gas > 1_000_000n);
    const answer = await issue(tx);
    const prefix = "couldn't issue tx: failed verification: ";
    const m = new RegExp(`^${prefix}tx exceeds current gas capacity: ${gas} > (\\d+)$`).exec(
      answer.error?.message ?? '',
    );
    assert.ok(m, answer.error?.message);
    assert.ok(BigInt(m[1]!) <= 1_000_000n);
    // VerifyTx's own refusal, kept as the dropped tx's reason.
    assert.deepEqual((await status(idOf(tx))).result, {
      status: 'Dropped',
      reason: answer.error!.message.slice(prefix.length),
    });
  });
});
