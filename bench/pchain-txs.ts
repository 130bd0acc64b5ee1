/**
 * Independent signed P-chain BaseTxs for benches. The P-chain's ACP-103 gas capacity (1,000,000
 * gas, refilled at 100,000 gas/s) holds about 190 BaseTxs, so a batch is at most BURST txs and
 * the devnet clock moves forward before each one to refill it.
 */
import { addTxSignatures, Context, pvm, TransferableOutput, utils, type Utxo } from '@avalabs/avalanchejs';

export const EWOQ_KEY = utils.hexToBuffer(
  '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027',
);
const EWOQ_P = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const AVAX = 1_000_000_000n;
/** The most BaseTxs one refill of gas capacity takes with margin. */
export const BURST = 150;

export type SignedPTx = ReturnType<Awaited<ReturnType<typeof pvm.newBaseTx>>['getSignedTx']>;

async function advanceTime(url: string, seconds: number): Promise<void> {
  const res = await fetch(`${url}/ext/bc/P`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.advanceTime', params: { seconds } }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`platform.advanceTime: ${body.error.message}`);
}

/**
 * `count` (at most BURST) signed BaseTxs, each spending its own 1-AVAX coin of the ewoq key: one
 * fan-out tx makes the coins; the clock moves before it and after it, so capacity is full for
 * each.
 */
export async function preparePBaseTxs(url: string, count: number): Promise<SignedPTx[]> {
  if (count > BURST) throw new Error(`at most ${BURST} P-chain txs per refill of gas capacity`);
  const ctx = await Context.getContextFromURI(url);
  const api = new pvm.PVMApi(url);
  const ewoq = utils.bech32ToBytes(EWOQ_P);
  const sink = utils.hexToBuffer('0x' + '22'.repeat(20));
  // The fan-out alone needs about a third of the capacity: refill it after any earlier burst.
  await advanceTime(url, 20);
  const fan = pvm.newBaseTx(
    {
      feeState: await api.getFeeState(),
      fromAddressesBytes: [ewoq],
      utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
      outputs: Array.from({ length: count }, () =>
        TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [ewoq]),
      ),
    },
    ctx,
  );
  await addTxSignatures({ unsignedTx: fan, privateKeys: [EWOQ_KEY] });
  await api.issueSignedTx(fan.getSignedTx());
  await advanceTime(url, 20);
  const coins = (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos
    .filter((u: Utxo) => (u.output as unknown as { amount(): bigint }).amount() === AVAX)
    .slice(0, count);
  const feeState = await api.getFeeState();
  const signed: SignedPTx[] = [];
  for (const coin of coins) {
    const tx = pvm.newBaseTx(
      {
        feeState,
        fromAddressesBytes: [ewoq],
        utxos: [coin],
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX / 2n, [sink])],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    signed.push(tx.getSignedTx());
  }
  return signed;
}

/** Issues `txs` with `concurrency` requests in flight; `platform.issueTx` answers once accepted. */
export async function issuePTxs(url: string, txs: SignedPTx[], concurrency: number): Promise<void> {
  const api = new pvm.PVMApi(url);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < txs.length) await api.issueSignedTx(txs[next++]);
    }),
  );
}
