/**
 * Crash safety of the EVM indexer: `flurry indexer` backfills a busy C-chain in small ranges and
 * is killed with SIGKILL again and again; after the last restart its store must hold exactly
 * the rows (transfers, transactions, internal transactions, metric buckets) of the indexer that
 * `flurry start` ran undisturbed beside the node — nothing lost, nothing counted twice. And a
 * store failing a moment at start (its first reads, the first chain discovery) only delays it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createPublicClient, createWalletClient, defineChain, http as viemHttp, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createDatabase, type DataDatabase } from '../../src/data/store/database.js';
import { EvmChainIndexer } from '../../src/data/indexer/evm/chain-indexer.js';
import { startEvmIndexer } from '../../src/data/indexer/evm/evm-indexer.js';
import { NETWORKS } from '../../src/shared/networks.js';
import { compileContracts } from '../helpers/evm-contracts.js';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/flurry.js');
let devnet: Devnet;
let child: ChildProcess | undefined;

before(async () => {
  devnet = await startDevnet();
});

after(async () => {
  child?.kill('SIGKILL');
  await devnet?.stop();
});

function startIndexer(dataDir: string): ChildProcess {
  return spawn(
    process.execPath,
    [BIN, 'indexer', '--node-url', devnet.url, '--data-dir', dataDir, '--indexer-batch-size', '3', '--json'],
    {
      stdio: 'ignore',
      env: { ...process.env, FLURRY_LOG_LEVEL: 'error' },
    },
  );
}

/**
 * Waits for `reached`, polling every `everyMs`. A store that stops moving fails the test after
 * `withinMs` with what `flurry start` logged, instead of holding the suite until its timeout.
 */
async function waitUntil(what: string, reached: () => Promise<boolean>, everyMs: number, withinMs = 120_000) {
  const deadline = Date.now() + withinMs;
  while (!(await reached())) {
    if (Date.now() > deadline)
      assert.fail(
        `${what}: not reached within ${withinMs} ms; flurry start logged:\n${devnet.stderr().slice(-6000)}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function killed(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await exited;
}

async function snapshot(db: DataDatabase['db'], chain: number) {
  const rows = async (
    table:
      | 'evm_native_txs'
      | 'evm_token_transfers'
      | 'evm_internal_txs'
      | 'evm_metric_buckets'
      | 'evm_contracts'
      | 'evm_blocks',
  ) =>
    (await db.selectFrom(table).selectAll().where('chain', '=', chain).execute())
      .map((r) => JSON.stringify(r))
      .sort();
  return {
    blocks: await rows('evm_blocks'),
    native: await rows('evm_native_txs'),
    transfers: await rows('evm_token_transfers'),
    internals: await rows('evm_internal_txs'),
    contracts: await rows('evm_contracts'),
    buckets: await rows('evm_metric_buckets'),
  };
}

test('kill -9 during the EVM backfill loses and duplicates nothing', async () => {
  const facts = devnet.facts;
  const chainId = facts.chains.C.evmChainId!;
  const chain = defineChain({
    id: chainId,
    name: 'Flurry C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [facts.urls.cChainRpc] } },
  });
  const account = privateKeyToAccount(facts.keys[0].privateKey as Hex);
  const pub = createPublicClient({ chain, transport: viemHttp(facts.urls.cChainRpc) });
  const wallet = createWalletClient({ chain, account, transport: viemHttp(facts.urls.cChainRpc) });
  const c = compileContracts();
  const deploy = await wallet.deployContract({
    abi: c.Token20.abi,
    bytecode: c.Token20.bytecode,
    args: ['Crash', 'CRSH', 18, 10n ** 24n],
  });
  const token = (await pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
  const factoryHash = await wallet.deployContract({ abi: c.Factory.abi, bytecode: c.Factory.bytecode });
  const factory = (await pub.waitForTransactionReceipt({ hash: factoryHash })).contractAddress!;
  for (let i = 0; i < 60; i++) {
    const last =
      i % 10 === 9
        ? await wallet.writeContract({
            address: factory,
            abi: c.Factory.abi,
            functionName: 'deployAndForward',
            args: [account.address, `0x${i.toString(16).padStart(64, '0')}`],
            value: 1000n,
          })
        : await wallet.writeContract({
            address: token,
            abi: c.Token20.abi,
            functionName: 'transfer',
            args: [`0x${(0xbeef00 + i).toString(16).padStart(40, '0')}`, BigInt(i + 1)],
          });
    await pub.waitForTransactionReceipt({ hash: last });
  }
  const head = Number(await pub.getBlockNumber());

  // The undisturbed store: flurry start's own indexer.
  const reference = await createDatabase({ dataDir: devnet.dataDir });
  const referenceHead = async () =>
    Number(
      (
        await reference.db
          .selectFrom('checkpoints')
          .select('next_index')
          .where('source', '=', `evm:${facts.chains.C.blockchainID}`)
          .executeTakeFirst()
      )?.next_index ?? 0,
    );
  await waitUntil(
    `flurry start's own indexer passes block ${head}`,
    async () => (await referenceHead()) > head,
    100,
  );

  const dataDir = tempDir('flurry-evm-crash-');
  const store = await createDatabase({ dataDir });
  const checkpoint = async () =>
    Number(
      (
        await store.db
          .selectFrom('checkpoints')
          .select('next_index')
          .where('source', '=', `evm:${facts.chains.C.blockchainID}`)
          .executeTakeFirst()
      )?.next_index ?? 0,
    );
  const seen: number[] = [];
  // Kill as soon as the checkpoint moves, several times, then let it finish.
  for (let round = 0; round < 4; round++) {
    const before = await checkpoint();
    child = startIndexer(dataDir);
    const deadline = Date.now() + 30_000;
    while ((await checkpoint()) === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    await killed(child);
    seen.push(await checkpoint());
  }
  assert.ok(
    seen.some((cp) => cp > 0 && cp <= head),
    `at least one kill landed mid-backfill (checkpoints ${seen.join(', ')}, head ${head})`,
  );
  child = startIndexer(dataDir);
  await waitUntil(`the restarted indexer passes block ${head}`, async () => (await checkpoint()) > head, 50);
  await killed(child);

  const mine = await snapshot(store.db, chainId);
  const theirs = await snapshot(reference.db, chainId);
  const trim = (s: typeof mine) => ({ ...s, blocks: s.blocks.filter((b) => JSON.parse(b).number <= head) });
  assert.equal(mine.transfers.length, theirs.transfers.length);
  assert.deepEqual(trim(mine), trim(theirs));
  assert.ok(mine.internals.length >= 18, 'factory deployments and value forwards were traced');
  await store.close();
  await reference.close();
});

/**
 * The store as the indexer sees it when it is busy a moment: its first `count` statements of one
 * kind fail as SQLite's do when another connection holds the lock.
 */
function busyAtFirst(db: DataDatabase['db'], kind: 'SelectQueryNode' | 'InsertQueryNode', count: number) {
  let faults = count;
  const busy = db.withPlugin({
    transformQuery(args) {
      if (faults > 0 && args.node.kind === kind) {
        faults--;
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db: busy, faultsLeft: () => faults };
}

test('a store failing the EVM indexer’s first reads delays it and never stops it', async () => {
  const facts = devnet.facts;
  const head = Number(
    BigInt(
      (
        (await (
          await fetch(facts.urls.cChainRpc, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
          })
        ).json()) as { result: string }
      ).result,
    ),
  );
  const store = await createDatabase({ dataDir: tempDir('flurry-evm-start-') });
  // The store is busy for the first two reads, as when another process holds its lock.
  const { db, faultsLeft } = busyAtFirst(store.db, 'SelectQueryNode', 2);
  let stopped!: (reason: Error) => void;
  const stoppedForGood = new Promise<never>((_, reject) => (stopped = reject));
  const quiet = () => {};
  const logger = {
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: quiet,
    error: (_: unknown, msg: string) => stopped(new Error(`the indexer logged an error: ${msg}`)),
  };
  const indexer = new EvmChainIndexer(
    db,
    {
      blockchainId: facts.chains.C.blockchainID,
      evmChainId: facts.chains.C.evmChainId!,
      rpcUrl: facts.urls.cChainRpc,
    },
    { logger: logger as never, pollMs: 20 },
  );
  indexer.start();
  try {
    await Promise.race([indexer.waitFor(head), stoppedForGood]);
    assert.equal(faultsLeft(), 0, 'both faults were met');
  } finally {
    await indexer.stop();
    await store.close();
  }
});

test('a failed first EVM chain discovery is tried again, not given up', async () => {
  const facts = devnet.facts;
  const store = await createDatabase({ dataDir: tempDir('flurry-evm-discovery-') });
  // The store refuses the first chain record, as a busy or unreachable store would.
  const { db, faultsLeft } = busyAtFirst(store.db, 'InsertQueryNode', 1);
  const evm = await startEvmIndexer({
    db,
    nodeUrl: devnet.url,
    network: NETWORKS.local,
    discoveryMs: 50,
    pollMs: 20,
  });
  try {
    assert.equal(faultsLeft(), 0, 'the fault was met');
    const deadline = Date.now() + 30_000;
    while (!evm.chains.has(facts.chains.C.blockchainID)) {
      assert.ok(Date.now() < deadline, 'the C-chain was discovered again within 30 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    await evm.waitFor(facts.chains.C.blockchainID, 1);
  } finally {
    await evm.stop();
    await store.close();
  }
});
