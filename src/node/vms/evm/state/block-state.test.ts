import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { NodeDatabase } from '../../../storage/database.js';
import { createEvmCommon } from '../common.js';
import { TrieDb, TrieNodeTable } from './trie-db.js';
import { blockStateAt, stateManagerAt } from './world.js';

const common = createEvmCommon(43112);
const addr = (i: number) => createAddressFromString('0x' + (0x1000 + i).toString(16).padStart(40, '0'));
const slot = (i: number) => setLengthLeft(hexToBytes(`0x${(i + 1).toString(16).padStart(2, '0')}`), 32);
const CODE = hexToBytes('0x6001600055');

/** One "transaction": a checkpoint, some changes, committed (or reverted). */
async function tx(state: MerkleStateManager, change: () => Promise<void>, revert = false): Promise<void> {
  await state.checkpoint();
  await change();
  if (revert) await state.revert();
  else await state.commit();
}

/** A block of transactions touching the same sender, new recipients, a contract's storage and code. */
async function runBlock(state: MerkleStateManager, block: number): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await tx(state, async () => {
      const sender = (await state.getAccount(addr(0)))!;
      sender.nonce += 1n;
      sender.balance -= 10n;
      await state.putAccount(addr(0), sender);
      const to = addr(100 + block * 10 + i);
      await state.putAccount(to, new Account(0n, 10n));
      await state.putStorage(addr(1), slot(i), hexToBytes(`0x${(block * 100 + i + 1).toString(16)}`));
    });
  }
  // A reverted transaction leaves nothing behind.
  await tx(state, async () => state.putAccount(addr(2), new Account(0n, 999n)), true);
  // Reads only.
  await tx(state, async () => {
    await state.getAccount(addr(3));
    await state.getStorage(addr(1), slot(50));
    await state.getCode(addr(1));
  });
  if (block === 1) await tx(state, async () => state.putCode(addr(4), CODE));
}

describe('block state: changes reach the trie once per block, only reachable nodes are stored', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-block-state-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the per-transaction state root, stores fewer nodes, and reads back after a reopen', async () => {
    const file = path.join(dir, 'node.db');
    let db = new NodeDatabase(file);
    const trieDb = new TrieDb(new TrieNodeTable(db, 't_trie'));
    const genesis = stateManagerAt(common, trieDb, undefined);
    await genesis.putAccount(addr(0), new Account(0n, 1_000_000n));
    await genesis.putAccount(addr(1), new Account(1n, 0n));
    await genesis.putCode(addr(1), CODE);
    await genesis.putAccount(addr(3), new Account(0n, 5n));
    let root = await genesis.getStateRoot();
    db.transaction(() => trieDb.flushInto(root));
    trieDb.committed();

    // The engine's own behaviour (the trie written at every commit) on a throwaway overlay.
    const reference = stateManagerAt(common, trieDb.scratch(), root);
    const live = blockStateAt(common, trieDb, root);
    for (const block of [1, 2]) {
      await runBlock(reference, block);
      await runBlock(live, block);
      const expected = await reference.getStateRoot();
      root = await live.getStateRoot();
      assert.equal(bytesToHex(root), bytesToHex(expected), `block ${block} state root`);
      const written = trieDb.pendingCount;
      db.transaction(() => trieDb.flushInto(root));
      assert.ok(trieDb.pendingCount < written, `block ${block}: ${trieDb.pendingCount} of ${written} stored`);
      trieDb.committed();
    }
    db.close();

    // A fresh process: nothing in memory, only what was stored.
    db = new NodeDatabase(file);
    await assertStored(stateManagerAt(common, new TrieDb(new TrieNodeTable(db, 't_trie')), root));

    // A data dir of the first layout (nodes in a key-ordered table) is migrated on open.
    db.exec(`CREATE TABLE t_trie (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID`);
    db.exec(`INSERT INTO t_trie SELECT k, v FROM t_trie_nodes`);
    db.exec(`DROP TABLE t_trie_nodes`);
    db.close();
    db = new NodeDatabase(file);
    await assertStored(stateManagerAt(common, new TrieDb(new TrieNodeTable(db, 't_trie')), root));
    assert.equal(db.prepare(`SELECT name FROM sqlite_master WHERE name = 't_trie'`).get(), undefined);
    db.close();
  });

  async function assertStored(state: MerkleStateManager): Promise<void> {
    assert.equal((await state.getAccount(addr(0)))!.nonce, 12n);
    assert.equal((await state.getAccount(addr(0)))!.balance, 1_000_000n - 120n);
    assert.equal((await state.getAccount(addr(125)))!.balance, 10n);
    assert.equal(await state.getAccount(addr(2)), undefined);
    assert.equal(bytesToHex(await state.getStorage(addr(1), slot(5))), '0xce');
    assert.equal(bytesToHex(await state.getCode(addr(4))), bytesToHex(CODE));
    assert.equal(bytesToHex(await state.getCode(addr(1))), bytesToHex(CODE));
  }
});
