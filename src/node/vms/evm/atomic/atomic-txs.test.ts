import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  addTxSignatures,
  avaxSerial,
  BigIntPr,
  evm,
  Id,
  OutputOwners,
  TransferOutput,
  utils,
  Utxo,
  type Context,
} from '@avalabs/avalanchejs';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { toCb58 } from '../../../../shared/encoding.js';
import { NETWORKS, EWOQ_PRIVATE_KEY_HEX } from '../../../../shared/networks.js';
import { NodeDatabase } from '../../../storage/database.js';
import { SharedMemory } from '../../components/shared-memory.js';
import { inputIdOf } from '../../components/utxo-id.js';
import { AtomicMempool } from './atomic-txs.js';
import { packUtxo } from './codec.js';

const net = NETWORKS.local;
const KEY = utils.hexToBuffer(EWOQ_PRIVATE_KEY_HEX);
const OWNER = utils.bech32ToBytes('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
const BASE_FEE = 25_000_000_000n;

describe('atomic mempool', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-atomic-'));
  const db = new NodeDatabase(path.join(dir, 'node.db'));
  after(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One X→C export waiting in shared memory, and a signed import of it to a fresh account. */
  async function exportedAndImport(sharedMemory: SharedMemory): Promise<Uint8Array> {
    const txId = new Uint8Array(32).fill(7);
    const output = new TransferOutput(new BigIntPr(5_000_000_000n), OutputOwners.fromNative([OWNER]));
    sharedMemory.put(net.xChainID, net.cChainID, [
      {
        inputId: inputIdOf(txId, 0),
        bytes: packUtxo(txId, 0, utils.base58check.decode(net.avaxAssetID), output),
        addresses: [OWNER],
      },
    ]);
    const utxo = new Utxo(
      avaxSerial.UTXOID.fromNative(toCb58(txId), 0),
      Id.fromString(net.avaxAssetID),
      output,
    );
    const context = {
      networkID: net.networkID,
      cBlockchainID: net.cChainID,
      xBlockchainID: net.xChainID,
      avaxAssetID: net.avaxAssetID,
    } as Context.Context;
    const tx = evm.newImportTxFromBaseFee(
      context,
      utils.hexToBuffer('0x' + '42'.repeat(20)),
      [OWNER],
      [utxo],
      net.xChainID,
      BASE_FEE / 1_000_000_000n,
    );
    await addTxSignatures({ unsignedTx: tx, privateKeys: [KEY] });
    return tx.getSignedTx().toBytes();
  }

  it('answers a pending tx issued again with its id, as coreth does; an accepted one is refused', async () => {
    const sharedMemory = new SharedMemory(db);
    const state = new MerkleStateManager();
    let requests = 0;
    const mempool = new AtomicMempool(
      {
        networkID: net.networkID,
        cChainID: net.cChainID,
        avaxAssetID: net.avaxAssetID,
        peers: [net.xChainID, net.pChainID],
        sharedMemory,
        now: () => BigInt(Math.floor(Date.now() / 1000)),
      },
      { latestState: () => state, baseFee: () => BASE_FEE, requestBlock: () => requests++ },
    );
    const bytes = await exportedAndImport(sharedMemory);
    const id = await mempool.issue(bytes);
    assert.deepEqual(await mempool.issue(bytes), id, 'the same tx again: its id, no error');
    assert.equal(requests, 1, 'pooled once');
    assert.deepEqual(mempool.status(id), { status: 'Processing' });

    const part = await mempool.build(state, { baseFee: BASE_FEE, capacityLeft: 1_000_000n });
    assert.equal(part?.atomicTxs.length, 1, 'one tx in the block');
    part!.commit();
    part!.accepted();
    await assert.rejects(
      mempool.issue(bytes),
      /failed to fetch import UTXOs from \w+ due to: not found \(atomic UTXO \w+:0 was never exported or is already spent\)$/,
    );
  });
});
