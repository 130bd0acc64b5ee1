/**
 * The X- and P-chain block indexes start at height 1, as on the reference: AvalancheGo's indexer
 * only hears of blocks accepted through consensus, and each VM sets its genesis block as last
 * accepted at initialization. A data dir indexed when the node still put the genesis at
 * position 0 keeps serving it there; the X-chain catch-up and new blocks continue after it, and
 * the chain-data platform reads either layout into the same blocks (heights from 0, each once).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { addTxSignatures, avm, Context, pvm, TransferableOutput, utils } from '@avalabs/avalanchejs';
import Database from 'libsql';
import { call, rpc, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { EWOQ_ADDR, EWOQ_KEY, EWOQ_P, signAndIssue } from './pchain-helpers.js';
import { unwrapContainer } from './proposer-helpers.js';
import { waitAccepted } from './xchain-helpers.js';

interface Genesis {
  id: string;
  /** Raw block bytes (no checksum). */
  bytes: Buffer;
  time: number;
}

describe('genesis blocks and the X/P block indexes', () => {
  const dataDir = tempDir('flurry-index-genesis-');
  let net: Devnet | undefined;
  after(async () => {
    await net?.stop();
  });

  const index = (chain: 'X' | 'P', kind = 'block') => `${net!.url}/ext/index/${chain}/${kind}`;
  const containers = async (chain: 'X' | 'P') => {
    const last = await call(index(chain), 'index.getLastAccepted', { encoding: 'hex' });
    return (
      await call(index(chain), 'index.getContainerRange', {
        startIndex: 0,
        numToFetch: Number(last.index) + 1,
        encoding: 'hex',
      })
    ).containers as { id: string; bytes: string; index: string }[];
  };
  async function xTransfer(amount: bigint): Promise<string> {
    const url = net!.url;
    const ctx = await Context.getContextFromURI(url);
    const xApi = new avm.AVMApi(url);
    const { utxos } = await xApi.getUTXOs({ addresses: [utils.format('X', 'local', EWOQ_ADDR)] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, amount, [new Uint8Array(20).fill(0x42)]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);
    return txID;
  }
  async function pTransfer(amount: bigint): Promise<string> {
    const api = new pvm.PVMApi(net!.url);
    const ctx = await Context.getContextFromURI(net!.url);
    const tx = pvm.newBaseTx(
      {
        feeState: await api.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [new Uint8Array(20).fill(0x43)])],
      },
      ctx,
    );
    return signAndIssue(api, tx);
  }
  async function genesisOf(chain: 'X' | 'P'): Promise<Genesis> {
    const method = chain === 'X' ? 'avm.getBlockByHeight' : 'platform.getBlockByHeight';
    const hex = await call(`${net!.url}/ext/bc/${chain}`, method, { height: 0, encoding: 'hex' });
    const json = await call(`${net!.url}/ext/bc/${chain}`, method, { height: 0, encoding: 'json' });
    const devnet = await call(`${net!.url}/ext/devnet`, 'devnet.getGenesis');
    return {
      id: json.block.id,
      bytes: Buffer.from(utils.hexToBuffer(hex.block).subarray(0, -4)),
      time: devnet.startTime,
    };
  }

  const genesis: Partial<Record<'X' | 'P', Genesis>> = {};
  const xTxs: string[] = [];

  it('indexes no genesis block or tx: position 0 is height 1, chained to the genesis block', async () => {
    net = await startDevnet({ dataDir, command: 'node' });
    xTxs.push(await xTransfer(1_000n));
    await pTransfer(2_000n);
    for (const chain of ['X', 'P'] as const) {
      const g = (genesis[chain] = await genesisOf(chain));
      const list = await containers(chain);
      assert.equal(list.length, 1, `${chain}: block 1 only`);
      const w = unwrapContainer(list[0].bytes);
      assert.equal(w.parentId, g.id, 'the first container is built on the genesis block');
      const method = chain === 'X' ? 'avm.getBlock' : 'platform.getBlock';
      const { block }: any = await call(`${net!.url}/ext/bc/${chain}`, method, {
        blockID: w.innerId,
        encoding: 'json',
      });
      assert.equal(block.height, 1);
      assert.deepEqual(await call(index(chain), 'index.isAccepted', { id: g.id }), { isAccepted: false });
      const { body } = await rpc(index(chain), 'index.getIndex', { id: g.id });
      assert.equal(body.error?.message, 'not found');
    }
    // The genesis CreateAssetTx is not a container of X/tx either: the first is the first issued tx.
    const { avaxAssetID } = await Context.getContextFromURI(net.url);
    assert.deepEqual(await call(index('X', 'tx'), 'index.isAccepted', { id: avaxAssetID }), {
      isAccepted: false,
    });
    const firstTx = await call(index('X', 'tx'), 'index.getContainerByIndex', { index: 0, encoding: 'hex' });
    assert.equal(firstTx.id, xTxs[0]);
  });

  it('keeps serving a data dir indexed with the genesis at position 0, catching up after it', async () => {
    await net!.stop();
    // Lay the store out as the node did before it left the genesis out: every container one
    // position later, the plain genesis block at position 0.
    const db = new Database(path.join(dataDir, 'node.db'));
    for (const chain of ['X', 'P'] as const) {
      const name = `${chain}/block`;
      const g = genesis[chain]!;
      db.prepare('UPDATE index_containers SET position = -position - 1 WHERE idx_name = ?').run(name);
      db.prepare('UPDATE index_containers SET position = -position WHERE idx_name = ?').run(name);
      db.prepare(
        'INSERT INTO index_containers (idx_name, position, id, bytes, accepted_ms) VALUES (?, 0, ?, ?, ?)',
      ).run(name, g.id, g.bytes, g.time * 1000);
    }
    db.close();

    // X-chain block 2 is accepted while indexing is off, then caught up when it is back on.
    net = await startDevnet({
      dataDir,
      command: 'node',
      args: ['--index-enabled', 'false', '--index-allow-incomplete'],
    });
    xTxs.push(await xTransfer(3_000n));
    await net.stop();
    net = await startDevnet({ dataDir, command: 'node', args: ['--index-allow-incomplete'] });
    await pTransfer(4_000n);

    for (const chain of ['X', 'P'] as const) {
      const list = await containers(chain);
      const height: number = chain === 'X' ? 2 : Number((await new pvm.PVMApi(net.url).getHeight()).height);
      assert.equal(list.length, height + 1, `${chain}: the genesis and blocks 1 to ${height}`);
      assert.equal(list[0].id, genesis[chain]!.id);
      assert.equal(
        Buffer.from(utils.hexToBuffer(list[0].bytes).subarray(0, -4)).compare(genesis[chain]!.bytes),
        0,
      );
      assert.equal((await call(index(chain), 'index.getIndex', { id: genesis[chain]!.id })).index, '0');
      const method = chain === 'X' ? 'avm.getBlock' : 'platform.getBlock';
      for (let i = 1; i < list.length; i++) {
        const w = unwrapContainer(list[i].bytes);
        assert.equal(w.parentId, list[i - 1].id, 'chained to the previous container');
        const { block }: any = await call(`${net!.url}/ext/bc/${chain}`, method, {
          blockID: w.innerId,
          encoding: 'json',
        });
        assert.equal(block.height, i, 'position n holds height n in this layout');
      }
    }
    const txs = await call(index('X', 'tx'), 'index.getContainerRange', {
      startIndex: 0,
      numToFetch: 10,
      encoding: 'hex',
    });
    assert.deepEqual(
      txs.containers.map((c: any) => c.id),
      xTxs,
    );
  });

  it('gives the chain-data platform the same blocks from either layout, genesis included', async () => {
    const layouts: { name: string; dir: string }[] = [{ name: 'genesis at position 0', dir: dataDir }];
    // A fresh devnet with the same history lays its indexes out as the reference does.
    const fresh = tempDir('flurry-index-genesis-fresh-');
    await net!.stop();
    net = await startDevnet({ dataDir: fresh, command: 'node' });
    await xTransfer(1_000n);
    await xTransfer(3_000n);
    await pTransfer(2_000n);
    await net.stop();
    layouts.push({ name: 'from height 1', dir: fresh });

    for (const layout of layouts) {
      net = await startDevnet({ dataDir: layout.dir, args: ['--index-allow-incomplete'] });
      const data = net.facts.urls.data;
      for (const chain of ['X', 'P'] as const) {
        const method = chain === 'X' ? 'avm.getHeight' : 'platform.getHeight';
        const height: number = Number((await call(`${net.url}/ext/bc/${chain}`, method)).height);
        const blockchainId = chain === 'X' ? 'x-chain' : 'p-chain';
        let blocks: any[] = [];
        for (let i = 0; i < 400; i++) {
          const page = await fetch(
            `${data}/v1/networks/local/blockchains/${blockchainId}/blocks?pageSize=100`,
          );
          blocks = ((await page.json()) as any).blocks;
          if (blocks.length > height) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        assert.deepEqual(
          blocks.map((b) => Number(b.blockNumber)),
          Array.from({ length: height + 1 }, (_, i) => height - i),
          `${layout.name}: ${chain} blocks 0 to ${height}, each once`,
        );
        const first = blocks[blocks.length - 1];
        const g = await genesisOf(chain);
        assert.equal(first.blockHash, g.id, `${layout.name}: the ${chain} genesis block`);
        assert.equal(first.blockTimestamp, g.time, `${layout.name}: at the genesis time`);
        assert.equal(blocks[blocks.length - 2].parentHash, g.id);
      }
      await net.stop();
    }
    net = undefined;
  });
});
