/**
 * Scripted durability check (minutes long, so not part of `npm test`): kill -9 under mixed load.
 *   node --import tsx scripts/durability/chaos.ts <start|node> <dataDir> <loadSeconds>
 * (CHAOS_NORESET=1 keeps an existing data dir, to kill the same node again.)
 * Starts the binary, drives EVM txs (viem, 4 senders, pipelined), X and P base txs (avalanchejs),
 * records every tx the node reported accepted, SIGKILLs the process mid-load, restarts it on the
 * same data dir and checks every recorded tx, the chain's links, balances replayed from the
 * blocks, nonces and that new txs are still accepted. Then compare the killed store's rows with
 * those of indexers that were never interrupted, or were killed over and over (compare.ts, with a
 * PostgreSQL cluster from pg.ts): only `updated_at_ms`/`discovered_at` may differ.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import path from 'node:path';
import fs from 'node:fs';
import { Context, TransferableOutput, addTxSignatures, avm, pvm, utils } from '@avalabs/avalanchejs';
import { createPublicClient, createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const BIN = path.resolve(import.meta.dirname, '../../bin/flurry.js');
const [command = 'start', dataDir = '/tmp/chaos', seconds = '8'] = process.argv.slice(2);

async function start(reset: boolean, extra: string[] = []): Promise<{ child: ChildProcess; facts: any }> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      command,
      '--json',
      '--node-port',
      '19850',
      '--data-port',
      '19900',
      '--metrics-port',
      '19901',
      '--data-dir',
      dataDir,
      ...(reset ? ['--reset'] : []),
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLURRY_LOG_LEVEL: 'warn' } },
  );
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const facts = await new Promise<any>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (c) => reject(new Error(`exited ${c}: ${err}`)));
  });
  (child as any).stderrText = () => err;
  return { child, facts };
}

async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const j: any = await r.json();
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const keep = process.env.CHAOS_NORESET === '1';
  if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  const first = await start(!keep);
  let child = first.child;
  const facts = first.facts;
  const url = facts.urls.node as string;
  const cUrl = facts.urls.cChainRpc as string;
  const chain = defineChain({
    id: 43112,
    name: 'c',
    nativeCurrency: { name: 'A', symbol: 'A', decimals: 18 },
    rpcUrls: { default: { http: [cUrl] } },
  });
  const pub = createPublicClient({ chain, transport: http(cUrl), cacheTime: 0, pollingInterval: 20 });
  const keys: Hex[] = facts.keys.slice(0, 4).map((k: any) => k.privateKey);
  const accepted: { hash: Hex; block: bigint; blockHash: Hex; from: string; nonce: number }[] = [];
  const xAccepted: string[] = [];
  const pAccepted: string[] = [];
  let stop = false;
  const errors: string[] = [];

  const evmLoad = keys.map(async (key) => {
    const account = privateKeyToAccount(key);
    const wallet = createWalletClient({ account, chain, transport: http(cUrl) });
    let nonce = await pub.getTransactionCount({ address: account.address });
    while (!stop) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const n = nonce + i;
          const hash = await wallet.sendTransaction({
            to: privateKeyToAccount(keys[(i + 1) % keys.length]).address,
            value: BigInt(1000 + n),
            nonce: n,
            gas: 21000n,
            maxFeePerGas: 100_000_000_000n,
            maxPriorityFeePerGas: 1n,
          });
          return { hash, n };
        }),
      ).catch((e) => (errors.push('evm send ' + e.message.slice(0, 80)), []));
      if (batch.length === 0) break;
      nonce += batch.length;
      for (const { hash, n } of batch) {
        try {
          const r = await pub.waitForTransactionReceipt({ hash, timeout: 10_000 });
          accepted.push({
            hash,
            block: r.blockNumber,
            blockHash: r.blockHash,
            from: account.address,
            nonce: n,
          });
        } catch (e) {
          if (!stop) errors.push('evm receipt ' + (e as Error).message.slice(0, 80));
        }
      }
    }
  });

  const ctx = await Context.getContextFromURI(url);
  const ewoqKey = utils.hexToBuffer(keys[0]);
  const xAddr = facts.keys[0].xAddress as string;
  const pAddr = facts.keys[0].pAddress as string;
  const me = utils.bech32ToBytes(xAddr);
  const xLoad = (async () => {
    const api = new avm.AVMApi(url);
    while (!stop) {
      try {
        const { utxos } = await api.getUTXOs({ addresses: [xAddr] });
        const tx = avm.newBaseTx(ctx, [me], utxos, [
          TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [me]),
        ]);
        await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoqKey] });
        const { txID } = await api.issueSignedTx(tx.getSignedTx());
        for (;;) {
          const { status } = await rpc(`${url}/ext/bc/X`, 'avm.getTxStatus', { txID });
          if (status === 'Accepted') {
            xAccepted.push(txID);
            break;
          }
          await sleep(10);
        }
      } catch (e) {
        if (!stop) errors.push('x ' + (e as Error).message.slice(0, 120));
        await sleep(50);
      }
    }
  })();
  const pLoad = (async () => {
    const api = new pvm.PVMApi(url);
    while (!stop) {
      try {
        const { utxos } = await api.getUTXOs({ addresses: [pAddr] });
        const tx = pvm.e.newBaseTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [me],
            utxos,
            outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [me])],
          },
          ctx,
        );
        await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoqKey] });
        const { txID } = await api.issueSignedTx(tx.getSignedTx());
        for (;;) {
          const { status } = await rpc(`${url}/ext/bc/P`, 'platform.getTxStatus', { txID });
          if (status === 'Committed') {
            pAccepted.push(txID);
            break;
          }
          await sleep(10);
        }
      } catch (e) {
        if (!stop) errors.push('p ' + (e as Error).message.slice(0, 120));
        await sleep(50);
      }
    }
  })();

  await sleep(Number(seconds) * 1000);
  child.kill('SIGKILL');
  stop = true;
  await Promise.allSettled([...evmLoad, xLoad, pLoad]);
  console.log(
    `killed with ${accepted.length} EVM, ${xAccepted.length} X, ${pAccepted.length} P accepted; load errors before kill: ${errors.length}`,
    errors.slice(0, 5),
  );

  child = (await start(false)).child;
  const problems: string[] = [];
  // 1. every accepted EVM tx, same block
  for (const a of accepted) {
    const r = await rpc(cUrl, 'eth_getTransactionReceipt', [a.hash]);
    if (!r) problems.push(`lost ${a.hash}`);
    else if (BigInt(r.blockNumber) !== a.block || r.blockHash !== a.blockHash)
      problems.push(`moved ${a.hash}`);
  }
  for (const t of xAccepted)
    if ((await rpc(`${url}/ext/bc/X`, 'avm.getTxStatus', { txID: t })).status !== 'Accepted')
      problems.push(`X lost ${t}`);
  for (const t of pAccepted)
    if ((await rpc(`${url}/ext/bc/P`, 'platform.getTxStatus', { txID: t })).status !== 'Committed')
      problems.push(`P lost ${t}`);
  // 2. chain links and balances replayed from the blocks
  const head = BigInt(await rpc(cUrl, 'eth_blockNumber', []));
  const addrs = new Set<string>(keys.map((k) => privateKeyToAccount(k).address.toLowerCase()));
  const balances = new Map<string, bigint>();
  for (const a of addrs) balances.set(a, BigInt(await rpc(cUrl, 'eth_getBalance', [a, '0x0'])));
  let parent = (await rpc(cUrl, 'eth_getBlockByNumber', ['0x0', false])).hash;
  for (let n = 1n; n <= head; n++) {
    const b = await rpc(cUrl, 'eth_getBlockByNumber', ['0x' + n.toString(16), true]);
    if (b.parentHash !== parent) problems.push(`block ${n} parent link broken`);
    parent = b.hash;
    for (const tx of b.transactions) {
      const r = await rpc(cUrl, 'eth_getTransactionReceipt', [tx.hash]);
      const from = tx.from.toLowerCase();
      const to = (tx.to ?? '').toLowerCase();
      if (balances.has(from))
        balances.set(
          from,
          balances.get(from)! -
            BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice) -
            (r.status === '0x1' ? BigInt(tx.value) : 0n),
        );
      if (balances.has(to) && r.status === '0x1') balances.set(to, balances.get(to)! + BigInt(tx.value));
    }
  }
  for (const [a, expected] of balances) {
    const got = BigInt(await rpc(cUrl, 'eth_getBalance', [a, 'latest']));
    if (got !== expected) problems.push(`balance of ${a}: ${got} != replayed ${expected}`);
  }
  // 3. nonces continue, new txs accepted on every chain
  for (const key of keys) {
    const account = privateKeyToAccount(key);
    const wallet = createWalletClient({ account, chain, transport: http(cUrl) });
    const mine = accepted.filter((a) => a.from === account.address);
    const maxNonce = Math.max(-1, ...mine.map((a) => a.nonce));
    const count = await pub.getTransactionCount({ address: account.address });
    if (count < maxNonce + 1) problems.push(`nonce of ${account.address} ${count} < ${maxNonce + 1}`);
    const hash = await wallet.sendTransaction({ to: account.address, value: 1n });
    const r = await pub.waitForTransactionReceipt({ hash, timeout: 10_000 });
    if (r.status !== 'success') problems.push('post-restart tx failed');
  }
  const api = new avm.AVMApi(url);
  const { utxos } = await api.getUTXOs({ addresses: [xAddr] });
  const tx = avm.newBaseTx(ctx, [me], utxos, [
    TransferableOutput.fromNative(ctx.avaxAssetID, 1_000_000n, [me]),
  ]);
  await addTxSignatures({ unsignedTx: tx, privateKeys: [ewoqKey] });
  await api.issueSignedTx(tx.getSignedTx());
  // 4. index API heights agree with the chains
  const xIdx = await rpc(`${url}/ext/index/X/block`, 'index.getLastAccepted', { encoding: 'hex' });
  const xHeight = await rpc(`${url}/ext/bc/X`, 'avm.getHeight', {});
  console.log('X index last', xIdx.index, 'X height', xHeight.height, 'C head', head);
  console.log(problems.length ? problems.slice(0, 20) : 'no problems');
  fs.writeFileSync(
    path.join(dataDir, '..', 'chaos-result.json'),
    JSON.stringify({ evm: accepted.length, x: xAccepted.length, p: pAccepted.length, problems }),
  );
  console.log('node url', url, 'pid', child.pid);
  child.kill('SIGTERM');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
