/**
 * A store indexed from one devnet is not resumed on another: a devnet started again with
 * `--reset` has the same network id, chain ids and (same seed) genesis, so only the blocks tell
 * them apart. The indexer refuses at start when the node's blocks differ from the store's, and
 * stops (writing nothing) when a chain that had only its genesis at start grows other blocks,
 * for the X-chain and the C-chain alike, instead of appending the new chain to the old rows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addTxSignatures, avm, Context, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { createPublicClient, createWalletClient, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createDatabase, type DataDatabase } from '../../src/data/store/database.js';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { startRole, type Role } from './data-helpers.js';
import { waitAccepted } from './xchain-helpers.js';

async function sendX(net: Devnet, count: number, amount: bigint): Promise<void> {
  const ctx = await Context.getContextFromURI(net.url);
  const api = new avm.AVMApi(net.url);
  const key = net.facts.keys[0]!;
  const from = utils.bech32ToBytes(key.xAddress);
  for (let i = 0; i < count; i++) {
    const { utxos } = await api.getUTXOs({ addresses: [key.xAddress] });
    const tx = avm.newBaseTx(ctx, [from], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, amount, [new Uint8Array(20).fill(3)]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [utils.hexToBuffer(key.privateKey)] });
    const { txID } = await api.issueSignedTx(tx.getSignedTx());
    await waitAccepted(net.url, txID);
  }
}

async function sendC(net: Devnet, count: number, wei: bigint): Promise<void> {
  const c = net.facts.chains.C;
  const chain = {
    id: c.evmChainId!,
    name: 'C',
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [c.rpc] } },
  } as const;
  const wallet = createWalletClient({
    account: privateKeyToAccount(net.facts.keys[1]!.privateKey as `0x${string}`),
    chain,
    transport: http(c.rpc),
  });
  const client = createPublicClient({ chain, transport: http(c.rpc) });
  for (let i = 0; i < count; i++) {
    const hash = await wallet.sendTransaction({
      to: '0x0000000000000000000000000000000000001234',
      value: wei,
    });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  }
}

async function checkpoints(db: DataDatabase['db']): Promise<Record<string, number>> {
  const rows = await db.selectFrom('checkpoints').select(['source', 'next_index']).execute();
  return Object.fromEntries(rows.map((r) => [r.source, Number(r.next_index)]));
}

async function stopRole(role: Role): Promise<void> {
  if (role.child.exitCode !== null || role.child.signalCode !== null) return;
  role.child.kill('SIGTERM');
  await role.exited;
}

describe('indexer on a store of another devnet', () => {
  const nodeDir = tempDir();
  const storeDir = tempDir();
  let store: DataDatabase;
  let indexed: Record<string, number>;
  let net: Devnet | undefined;

  before(async () => {
    // The first devnet: X blocks 1–3 and C blocks 1–2, all indexed.
    net = await startDevnet({ command: 'node', dataDir: nodeDir });
    await sendX(net, 3, 1_000n);
    await sendC(net, 2, parseEther('0.001'));
    const indexer = await startRole(['indexer', '--node-url', net.url, '--data-dir', storeDir]);
    store = await createDatabase({ dataDir: storeDir });
    const cSource = `evm:${net.facts.chains.C.blockchainID}`;
    for (let i = 0; i < 400; i++) {
      indexed = await checkpoints(store.db);
      if (indexed['X/block'] === 3 && indexed[cSource] === 3) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(indexed['X/block'], 3);
    assert.equal(indexed[cSource], 3);
    await stopRole(indexer);
    await net.stop();
  });
  after(async () => {
    await net?.stop();
    await store?.close();
  });

  it('refuses to start when the node has other blocks than the store', async () => {
    net = await startDevnet({ command: 'node', dataDir: nodeDir, args: ['--reset'] });
    await sendX(net, 1, 2_000n);
    await assert.rejects(
      startRole(['indexer', '--node-url', net.url, '--data-dir', storeDir]),
      /exited 1: flurry: indexer did not start: the data store was indexed from another X-chain than the node serves \(block 1 is \w+ in the store, \w+ on the node; was the devnet reset\?\)/,
    );
    assert.deepEqual(await checkpoints(store.db), indexed);
    await net.stop();
  });

  it('writes nothing of a chain that grows other blocks after the start', async () => {
    // Only the genesis, which every devnet of the seed shares: the start cannot tell them apart.
    net = await startDevnet({ command: 'node', dataDir: nodeDir, args: ['--reset'] });
    const indexer = await startRole(['indexer', '--node-url', net.url, '--data-dir', storeDir], 'error');
    let stderr = '';
    indexer.child.stderr!.on('data', (d) => (stderr += d));
    try {
      // Past the store's checkpoints, on both chains.
      await sendX(net, 6, 2_000n);
      await sendC(net, 5, parseEther('0.002'));
      for (let i = 0; i < 200 && !(/X-chain/.test(stderr) && /EVM chain/.test(stderr)); i++)
        await new Promise((r) => setTimeout(r, 25));
      assert.match(stderr, /the data store was indexed from another X-chain than the node serves/);
      assert.match(stderr, /the data store was indexed from another EVM chain 43112 than the node serves/);
      assert.deepEqual(await checkpoints(store.db), indexed);
      const heights = await store.db
        .selectFrom('blocks')
        .select('height')
        .where('chain_id', '=', net.facts.chains.X.blockchainID)
        .orderBy('height')
        .execute();
      assert.deepEqual(
        heights.map((h) => Number(h.height)),
        [0, 1, 2, 3],
      );
    } finally {
      await stopRole(indexer);
    }
  });
});
