/**
 * P-chain figures: BaseTxs accepted per second (a burst of independent signed txs issued with
 * bounded concurrency; `platform.issueTx` answers once the tx's block is accepted), and the
 * latency of `platform.getValidatorsAt` at a past height on a network with 1,000 validators.
 *
 * The burst stays within the ACP-103 gas capacity (1,000,000 gas, about 190 BaseTxs); beyond it a
 * real P-chain — and this one — refuses txs until capacity refills at 100,000 gas/s.
 */
import fs from 'node:fs';
import { addTxSignatures, Context, pvm, TransferableOutput, utils, type Utxo } from '@avalabs/avalanchejs';
import { startDevnet } from '../test/helpers/devnet.js';
import type { BenchResult } from './index.js';

const EWOQ_KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const EWOQ_P = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const AVAX = 1_000_000_000n;
const BURST = 150;
const CONCURRENCY = 16;
const VALIDATORS = 1000;
const QUERIES = 50;

async function post(url: string, method: string, params: unknown = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function pchainBench(): Promise<BenchResult[]> {
  const devnet = await startDevnet({
    args: ['--validators', String(VALIDATORS)],
    env: { FLURRY_LOG_LEVEL: 'error' },
  });
  try {
    const url = devnet.url;
    const pUrl = `${url}/ext/bc/P`;
    const ctx = await Context.getContextFromURI(url);
    const api = new pvm.PVMApi(url);
    const ewoq = utils.bech32ToBytes(EWOQ_P);
    const sink = utils.hexToBuffer('0x' + '22'.repeat(20));

    // Fan out: one tx makes BURST independent 1-AVAX UTXOs, then the clock moves so gas
    // capacity is full again for the burst.
    const fan = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [ewoq],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: Array.from({ length: BURST }, () =>
          TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [ewoq]),
        ),
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: fan, privateKeys: [EWOQ_KEY] });
    await api.issueSignedTx(fan.getSignedTx());
    await post(pUrl, 'platform.advanceTime', { seconds: 20 });
    const all = (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos;
    const coins = all
      .filter((u: Utxo) => (u.output as unknown as { amount(): bigint }).amount() === AVAX)
      .slice(0, BURST);
    const feeState = await api.getFeeState();
    const signed: ReturnType<typeof fan.getSignedTx>[] = [];
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
    const heightBefore = Number((await api.getHeight()).height);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < signed.length) await api.issueSignedTx(signed[next++]);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const heightAfter = Number((await api.getHeight()).height);

    const pastHeight = 1;
    const latencies: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const q0 = performance.now();
      const r = await post(pUrl, 'platform.getValidatorsAt', { height: pastHeight });
      latencies.push(performance.now() - q0);
      if (Object.keys(r.validators).length !== VALIDATORS) throw new Error('unexpected validator count');
    }
    const allLatencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const q0 = performance.now();
      await post(pUrl, 'platform.getAllValidatorsAt', { height: pastHeight });
      allLatencies.push(performance.now() - q0);
    }
    return [
      {
        name: 'P-chain BaseTxs accepted per second',
        value: signed.length / seconds,
        unit: 'tx/s',
        note: `${signed.length} txs in ${heightAfter - heightBefore} blocks, ${CONCURRENCY} in flight`,
      },
      {
        name: `getValidatorsAt(height ${pastHeight}) with ${VALIDATORS} validators, median`,
        value: median(latencies),
        unit: 'ms',
        note: `${heightAfter - pastHeight} blocks above`,
      },
      {
        name: `getAllValidatorsAt(height ${pastHeight}) canonical sets, median`,
        value: median(allLatencies),
        unit: 'ms',
      },
    ];
  } finally {
    await devnet.stop();
    fs.rmSync(devnet.dataDir, { recursive: true, force: true });
  }
}
