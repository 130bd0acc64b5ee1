/**
 * X-chain throughput end to end: pre-signed base txs (each spending its own UTXO) are issued
 * over HTTP to a real `flurry node` (the node alone) with block time 0, and timed until every one is
 * accepted (the X/tx index holds them all). The share of that time a node spends verifying
 * signatures is the cost of the same number of secp256k1 recoveries, measured here with the
 * node's own spend rule.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import {
  avaxSerial,
  avmSerial,
  BigIntPr,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  secp256k1,
  Signature,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  utils,
  Utxo,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { recoverSigner } from '../src/node/vms/components/secp256k1fx.js';
import { startDevnet } from '../test/helpers/devnet.js';
import type { BenchResult } from './index.js';

const KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const ADDR = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(KEY));
const TXS = Number(process.env.FLURRY_BENCH_X_TXS ?? 3000);
const IN_FLIGHT = 64;
const AMOUNT = 10_000_000n;
const codec = avmSerial.getAVMManager().getDefaultCodec();

/** Keep-alive connections: the client must not be the bottleneck of a node benchmark. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(url: string, method: string, params: unknown = {}): Promise<any> {
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            result?: any;
            error?: { message: string };
          };
          if (body.error) reject(new Error(`${method}: ${body.error.message}`));
          else resolve(body.result);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function withVersion(bytes: Uint8Array): Uint8Array {
  return utils.concatBytes(new Uint8Array([0, 0]), bytes);
}

/** Signs a one-input BaseTx; returns its checksummed hex, id and signing hash. */
async function signBase(
  facts: { networkID: number; chain: string; asset: string },
  input: TransferableInput,
  outputs: TransferableOutput[],
) {
  const tx = new avmSerial.BaseTx(
    new avaxSerial.BaseTx(
      new Int(facts.networkID),
      Id.fromString(facts.chain),
      outputs,
      [input],
      new Bytes(new Uint8Array()),
    ),
  );
  const unsigned = withVersion(codec.PackPrefix(tx));
  const hash = sha256(unsigned);
  const sig = await secp256k1.signHash(hash, KEY);
  const bytes = withVersion(
    utils.concatBytes(codec.PackPrefix(tx), codec.PackPrefixList([new Credential([new Signature(sig)])])),
  );
  return {
    hex: utils.bufferToHex(utils.addChecksum(bytes)),
    id: utils.base58check.encode(sha256(bytes)),
    hash,
    sig,
  };
}

/**
 * One keep-alive connection issuing requests until none are left: writes one request, reads
 * one response (headers, then Content-Length bytes), counts answers carrying an error.
 */
function issueOnSocket(
  port: string,
  requests: Buffer[],
  take: () => number,
  onRefused: () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let buffered: Buffer = Buffer.alloc(0);
    const sendNext = () => {
      const i = take();
      if (i >= requests.length) {
        socket.end();
        resolve();
        return;
      }
      socket.write(requests[i]);
    };
    socket.on('connect', sendNext);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      for (;;) {
        const headerEnd = buffered.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const match = /content-length: *(\d+)/i.exec(buffered.subarray(0, headerEnd).toString('latin1'));
        if (!match) return reject(new Error('response without content-length'));
        const total = headerEnd + 4 + Number(match[1]);
        if (buffered.length < total) return;
        if (buffered.subarray(headerEnd + 4, total).includes('"error"')) onRefused();
        buffered = buffered.subarray(total);
        sendNext();
      }
    });
  });
}

export async function xchainBench(): Promise<BenchResult[]> {
  // The node alone: the data platform's indexer is measured in its own suites.
  const devnet = await startDevnet({
    command: 'node',
    // e.g. FLURRY_BENCH_NODE_ARGS="--cpu-prof" to profile the node under load
    nodeOptions: (process.env.FLURRY_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    env: { FLURRY_LOG_LEVEL: 'error' },
  });
  try {
    const ready = devnet.facts;
    const x = `${ready.urls.node}/ext/bc/X`;
    const facts = {
      networkID: ready.networkID,
      chain: ready.chains.X.blockchainID,
      asset: ready.avaxAssetID,
    };
    const { txFee } = await call(x, 'avm.getTxFee');

    // 1. Fan the genesis UTXO out into one UTXO per benchmark tx.
    const [genesisHex] = (await call(x, 'avm.getUTXOs', { addresses: [utils.format('X', 'local', ADDR)] }))
      .utxos;
    const genesis = avmSerial.getAVMManager().unpack(utils.hexToBuffer(genesisHex), Utxo);
    const total = (genesis.output as TransferOutput).amount();
    const fanOut = await signBase(
      facts,
      new TransferableInput(
        genesis.utxoId,
        genesis.assetId,
        new TransferInput(new BigIntPr(total), Input.fromNative([0])),
      ),
      [
        ...Array.from({ length: TXS }, () => TransferableOutput.fromNative(facts.asset, AMOUNT, [ADDR])),
        TransferableOutput.fromNative(facts.asset, total - AMOUNT * BigInt(TXS) - BigInt(txFee), [ADDR]),
      ].sort((a, b) => Buffer.compare(Buffer.from(a.toBytes(codec)), Buffer.from(b.toBytes(codec)))),
    );
    await call(x, 'avm.issueTx', { tx: fanOut.hex });
    while ((await call(x, 'avm.getTxStatus', { txID: fanOut.id })).status !== 'Accepted')
      await new Promise((r) => setTimeout(r, 20));

    // 2. Pre-sign one tx per fan-out UTXO (outputs 0..TXS-1 hold AMOUNT; the change sorts last).
    const txs: Awaited<ReturnType<typeof signBase>>[] = [];
    for (let i = 0; i < TXS; i++) {
      const input = new TransferableInput(
        avaxSerial.UTXOID.fromNative(fanOut.id, i),
        Id.fromString(facts.asset),
        new TransferInput(new BigIntPr(AMOUNT), Input.fromNative([0])),
      );
      txs.push(
        await signBase(facts, input, [
          TransferableOutput.fromNative(facts.asset, AMOUNT - BigInt(txFee), [ADDR]),
        ]),
      );
    }
    const indexUrl = `${ready.urls.node}/ext/index/X/tx`;
    const startIndex = BigInt((await call(indexUrl, 'index.getLastAccepted', { encoding: 'hex' })).index);

    // 3. Issue them all over HTTP and wait until every one is accepted. Requests are written
    // ahead as raw HTTP/1.1 on keep-alive sockets, so the client spends as little CPU as it
    // can: on a shared 2-core machine every cycle it burns is one the node does not get.
    const { host, port } = new URL(x);
    const requests = txs.map((tx) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'avm.issueTx',
        params: { tx: tx.hex, encoding: 'hex' },
      });
      return Buffer.from(
        `POST /ext/bc/X HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    const t0 = performance.now();
    let next = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, () =>
        issueOnSocket(
          port,
          requests,
          () => next++,
          () => refused++,
        ),
      ),
    );
    if (refused > 0) throw new Error(`${refused} txs were refused`);
    for (;;) {
      const last = await call(indexUrl, 'index.getLastAccepted', { encoding: 'hex' });
      if (BigInt(last.index) - startIndex >= BigInt(TXS)) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const seconds = (performance.now() - t0) / 1000;
    const height = (await call(x, 'avm.getHeight')).height;

    // 4. What the same signature checks cost on this machine with the node's own rule.
    const s0 = performance.now();
    for (const tx of txs) recoverSigner(tx.hash, tx.sig);
    const sigSeconds = (performance.now() - s0) / 1000;

    return [
      {
        name: 'X-chain base txs accepted per second (HTTP issue → accepted)',
        value: TXS / seconds,
        unit: 'tx/s',
        target: '≥ 1000',
        note: `${TXS} txs in ${seconds.toFixed(2)} s, ${height} blocks; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
      },
      {
        name: 'X-chain share of that time spent verifying signatures',
        value: (100 * sigSeconds) / seconds,
        unit: '%',
        note: `${((sigSeconds / TXS) * 1e6).toFixed(0)} µs per secp256k1 recovery`,
      },
    ];
  } finally {
    agent.destroy();
    await devnet.stop();
    fs.rmSync(devnet.dataDir, { recursive: true, force: true });
  }
}
