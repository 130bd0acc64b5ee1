/**
 * The REST service over both stores (SQLite always; PostgreSQL when this machine can start a
 * cluster): every route's bad-input table, API keys and rate limits, page tokens, and list walks
 * that find each row exactly once. Rows are written through the indexer's own batch writer.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { utils } from '@avalabs/avalanchejs';
import type { FastifyInstance } from 'fastify';
import { NETWORKS } from '../../shared/networks.js';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../../../test/helpers/postgres.js';
import { transferOutputRow } from '../../../test/helpers/utxo-rows.js';
import { amountKey } from '../store/amounts.js';
import { emptyBatch, writeBatch } from '../store/batch.js';
import { createDatabase, type DataDatabase } from '../store/database.js';
import { parseApiAccessConfig } from './api-keys.js';
import { buildDataApp } from './app.js';
import { createRateLimiter } from './rate-limiter.js';
import { createRouteDeps } from './server.js';

const fuji = NETWORKS.fuji;
const id = (n: number, salt = 0) => {
  const b = new Uint8Array(32);
  new DataView(b.buffer).setUint32(0, n);
  b[31] = salt;
  return utils.base58check.encode(b);
};
const addr = (n: number) => {
  const b = new Uint8Array(20);
  b[0] = n;
  return utils.formatBech32('fuji', b);
};
const NODE = 'NodeID-' + utils.base58check.encode(new Uint8Array(20).fill(7));
const A = addr(1);
const B = addr(2);
const UTXOS_OF_A = 57;
const SUBNETS = 23;
const REWARDS = 14;

/** Rows for: 57 UTXOs of A on the P-chain (some spent, some also owned by B), X-chain txs of an
 * asset, 23 subnets with a chain each, one validator of NODE with 14 reward payouts. */
async function seed(db: DataDatabase['db']): Promise<void> {
  const rows = emptyBatch();
  rows.assets.push({
    asset_id: fuji.avaxAssetID,
    name: 'Avalanche',
    symbol: 'AVAX',
    denomination: 9,
    asset_type: 'secp256k1',
    cap: 'fixed',
    created_at: 0,
    tx_hash: fuji.avaxAssetID,
  });
  for (let i = 0; i < UTXOS_OF_A; i++) {
    const owners = i % 5 === 0 ? [A, B] : [A];
    rows.utxos.push(
      transferOutputRow({
        utxo_id: id(i, 1),
        tx_hash: id(i, 2),
        output_index: 0,
        created_on: fuji.pChainID,
        consumed_on: fuji.pChainID,
        asset_id: fuji.avaxAssetID,
        amount: amountKey(BigInt(1000 + ((i * 37) % 101))),
        addresses: JSON.stringify(owners),
        block_height: i,
        block_ts: 1_700_000_000 + Math.floor(i / 3),
        seq: i * 1_000_000,
      }),
    );
    if (i % 4 === 0)
      rows.spends.push({
        utxo_id: id(i, 1),
        consuming_tx: id(i, 3),
        consuming_height: i + 1,
        consuming_ts: 1_700_000_100,
        credentials: '[]',
      });
  }
  for (let i = 0; i < SUBNETS; i++) {
    rows.subnets.push({
      subnet_id: id(i, 4),
      seq: i,
      create_ts: 1_700_000_000 + i,
      create_block: i,
      owner_addresses: JSON.stringify([A]),
      threshold: 1,
      locktime: 0,
      is_l1: i === 3 ? 1 : 0,
      conversion_tx: i === 3 ? id(i, 5) : null,
      manager_chain_id: i === 3 ? id(i, 6) : null,
      manager_address: i === 3 ? '0x' + 'ab'.repeat(20) : null,
    });
    rows.blockchains.push({
      blockchain_id: id(i, 6),
      subnet_id: id(i, 4),
      seq: i,
      name: `chain ${i}`,
      vm_id: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
      create_ts: 1_700_000_000 + i,
      create_block: i,
      genesis: Buffer.from(
        JSON.stringify({ config: { chainId: 1000 + i }, alloc: {}, gasLimit: 8000000 }),
      ).toString('hex'),
    });
  }
  rows.stakers.push({
    tx_hash: id(1, 7),
    kind: 'validator',
    node_id: NODE,
    subnet_id: fuji.pChainID,
    seq: 1,
    amount_staked: amountKey(2000n * 10n ** 9n),
    delegation_shares: 20000,
    start_ts: 1_700_000_000,
    end_ts: 1_700_003_600,
    bls_public_key: null,
    bls_pop: null,
    reward_addresses: JSON.stringify([A]),
    reward_tx: id(1, 8),
    removed_tx: null,
    removed_ts: null,
  });
  for (let i = 0; i < REWARDS; i++)
    rows.rewards.push({
      utxo_id: id(i, 9),
      staking_tx: id(1, 7),
      reward_tx: id(1, 8),
      node_id: NODE,
      reward_type: i === 0 ? 'VALIDATOR' : 'VALIDATOR_FEE',
      asset_id: fuji.avaxAssetID,
      amount: amountKey(BigInt(10 + i)),
      addresses: JSON.stringify(i % 2 ? [A] : [A, B]),
      output_index: i,
      amount_staked: amountKey(2000n * 10n ** 9n),
      start_ts: 1_700_000_000,
      end_ts: 1_700_003_600,
      seq: Math.floor(i / 2),
    });
  rows.transactions.push({
    tx_hash: id(1, 10),
    chain_id: fuji.xChainID,
    seq: 5,
    block_height: 0,
    block_id: id(1, 11),
    timestamp: 1_700_000_000,
    tx_type: 'BaseTx',
    memo: '0x',
    source_chain: null,
    destination_chain: null,
  });
  rows.assetTransactions.push({
    asset_id: fuji.avaxAssetID,
    seq: 5,
    tx_hash: id(1, 10),
    tx_type: 'BaseTx',
    timestamp: 1_700_000_000,
  });
  await writeBatch(db, 'P/block', 0, 1, rows);
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const KEYS = {
  tiers: { tiny: { cuPerMinute: 250 } },
  keys: [
    { key: 'pro-key-123456', tier: 'pro', name: 'pro' },
    { key: 'tiny-key-123456', tier: 'tiny', name: 'tiny' },
    { key: 'mainnet-only-key', tier: 'pro', networks: ['mainnet'] },
  ],
  prices: { usd: 21.5, eur: 19.75 },
};

for (const kind of ['sqlite', 'postgres'] as const) {
  const skip = kind === 'postgres' ? postgresUnavailable() : undefined;
  describe(`chain-data REST service on ${kind}`, { skip }, () => {
    let cluster: PostgresCluster | undefined;
    let database: DataDatabase;
    let app: FastifyInstance;
    const PRO = { 'x-glacier-api-key': 'pro-key-123456' };

    before(async () => {
      let databaseUrl: string | undefined;
      if (kind === 'postgres') {
        cluster = await startPostgres();
        databaseUrl = await cluster.createDatabase('apptest');
      }
      database = await createDatabase({
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'flurry-app-')),
        databaseUrl,
      });
      await seed(database.db);
      const access = parseApiAccessConfig(KEYS, 'test');
      const deps = await createRouteDeps({
        network: fuji,
        database,
        prices: access.prices,
        nodeUrl: `http://127.0.0.1:${await closedPort()}`,
      });
      app = await buildDataApp({ deps, access, limiter: createRateLimiter(), version: 'test' });
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await database?.close();
      await cluster?.stop();
    });

    const get = async (url: string, headers: Record<string, string> = PRO) => {
      const res = await app.inject({ method: 'GET', url, headers });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    };
    const post = async (url: string, body: unknown, headers: Record<string, string> = PRO) => {
      const res = await app.inject({ method: 'POST', url, payload: body as any, headers });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    };
    const assertError = (r: { status: number; body: any }, status: number, what: string) => {
      assert.equal(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(Object.keys(r.body).sort(), ['error', 'message', 'statusCode'], what);
      assert.equal(r.body.statusCode, status, what);
      assert.equal(typeof r.body.message, 'string', what);
      assert.ok(!/\n\s+at /.test(r.body.message), `${what}: no stack trace`);
    };

    const U = '/v1/networks/fuji/blockchains/p-chain/utxos';
    const ASSET_TXS = `/v1/networks/fuji/blockchains/x-chain/assets/${fuji.avaxAssetID}/transactions`;
    const BAD_INPUT: [string, 'GET' | 'POST', string, unknown?][] = [
      ['utxos pageSize 0', 'POST', `${U}?pageSize=0`, { addresses: A }],
      ['utxos pageSize above 1024', 'POST', `${U}?pageSize=1025`, { addresses: A }],
      ['utxos unknown network', 'POST', '/v1/networks/devnet/blockchains/p-chain/utxos', { addresses: A }],
      ['utxos malformed address', 'POST', U, { addresses: 'fuji1notanaddress' }],
      [
        'utxos address of another network',
        'POST',
        U,
        { addresses: utils.formatBech32('avax', new Uint8Array(20)) },
      ],
      ['utxos unknown blockchainId', 'POST', '/v1/networks/fuji/blockchains/q-chain/utxos', { addresses: A }],
      [
        'utxos blockchainId of another network',
        'POST',
        `/v1/networks/fuji/blockchains/${NETWORKS.mainnet.xChainID}/utxos`,
        { addresses: A },
      ],
      ['utxos bad sortBy', 'POST', `${U}?sortBy=size`, { addresses: A }],
      ['utxos bad sortOrder', 'POST', `${U}?sortOrder=up`, { addresses: A }],
      ['utxos bad token', 'POST', `${U}?pageToken=bm90LWEtdG9rZW4`, { addresses: A }],
      ['utxos includeSpent not boolean', 'POST', `${U}?includeSpent=maybe`, { addresses: A }],
      ['utxos negative minUtxoAmount', 'POST', `${U}?minUtxoAmount=-1`, { addresses: A }],
      ['utxos addresses wrong type', 'POST', U, { addresses: [A] }],
      ['utxos minUtxoAmount not finite', 'POST', `${U}?minUtxoAmount=Infinity`, { addresses: A }],
      ['utxos malformed assetId filter', 'POST', `${U}?assetId=zzz`, { addresses: A }],
      // Ajv coerces these texts to ±Infinity and then skips the range checks.
      ['utxos pageSize Infinity', 'POST', `${U}?pageSize=Infinity`, { addresses: A }],
      ['utxos v1 pageSize -Infinity', 'GET', `${U}?addresses=${A}&pageSize=-Infinity`],
      ['subnets pageSize 1e400', 'GET', '/v1/networks/fuji/subnets?pageSize=1e400'],
      ['asset txs startTimestamp Infinity', 'GET', `${ASSET_TXS}?startTimestamp=Infinity`],
      ['a path with broken percent-encoding', 'GET', '/v1/networks/fu%ZZji/subnets'],
      [
        'a path parameter over the length limit',
        'GET',
        `/v1/networks/fuji/validators/NodeID-${'1'.repeat(500)}`,
      ],
      ['utxos missing body', 'POST', U, {}],
      ['utxos v1 pageSize above 100', 'GET', `${U}?addresses=${A}&pageSize=101`],
      ['asset txs pageSize 0', 'GET', `${ASSET_TXS}?pageSize=0`],
      ['asset txs pageSize 101', 'GET', `${ASSET_TXS}?pageSize=101`],
      ['asset txs unknown network', 'GET', ASSET_TXS.replace('fuji', 'nowhere')],
      ['asset txs on the P-chain', 'GET', ASSET_TXS.replace('x-chain', 'p-chain')],
      ['asset txs malformed asset id', 'GET', ASSET_TXS.replace(fuji.avaxAssetID, 'xyz')],
      ['asset txs bad txTypes', 'GET', `${ASSET_TXS}?txTypes=Teleport`],
      ['asset txs negative startTimestamp', 'GET', `${ASSET_TXS}?startTimestamp=-5`],
      ['asset txs timestamp wrong type', 'GET', `${ASSET_TXS}?endTimestamp=yesterday`],
      ['asset txs bad token', 'GET', `${ASSET_TXS}?pageToken=AAAA`],
      ['subnets pageSize 0', 'GET', '/v1/networks/fuji/subnets?pageSize=0'],
      ['subnets pageSize 10001', 'GET', '/v1/networks/fuji/subnets?pageSize=10001'],
      ['subnets pageSize wrong type', 'GET', '/v1/networks/fuji/subnets?pageSize=ten'],
      ['subnets unknown network', 'GET', '/v1/networks/moon/subnets'],
      ['subnets bad sortOrder', 'GET', '/v1/networks/fuji/subnets?sortOrder=sideways'],
      ['subnets bad token', 'GET', '/v1/networks/fuji/subnets?pageToken=eyJ4IjoxfQ'],
      ['balances unknown network', 'GET', `/v1/networks/zzz/blockchains/p-chain/balances?addresses=${A}`],
      [
        'balances malformed address',
        'GET',
        '/v1/networks/fuji/blockchains/p-chain/balances?addresses=P-fuji1zzz',
      ],
      ['balances missing addresses', 'GET', '/v1/networks/fuji/blockchains/p-chain/balances'],
      [
        'balances blockTimestamp wrong type',
        'GET',
        `/v1/networks/fuji/blockchains/p-chain/balances?addresses=${A}&blockTimestamp=noon`,
      ],
      ['balances bad blockchainId', 'GET', `/v1/networks/fuji/blockchains/abc/balances?addresses=${A}`],
      ['rewards neither addresses nor nodeIds', 'GET', '/v1/networks/fuji/rewards'],
      ['rewards pageSize 0', 'GET', `/v1/networks/fuji/rewards?addresses=${A}&pageSize=0`],
      ['rewards pageSize 101', 'GET', `/v1/networks/fuji/rewards?addresses=${A}&pageSize=101`],
      ['rewards malformed nodeId', 'GET', '/v1/networks/fuji/rewards?nodeIds=NodeID-nope'],
      ['rewards bad currency', 'GET', `/v1/networks/fuji/rewards?addresses=${A}&currency=btc`],
      ['rewards bad sortOrder', 'GET', `/v1/networks/fuji/rewards?addresses=${A}&sortOrder=random`],
      ['rewards bad token', 'GET', `/v1/networks/fuji/rewards?addresses=${A}&pageToken=x.y`],
      ['rewards unknown network', 'GET', `/v1/networks/x/rewards?addresses=${A}`],
      ['validator malformed nodeId', 'GET', '/v1/networks/fuji/validators/NodeID-123'],
      ['validator pageSize 0', 'GET', `/v1/networks/fuji/validators/${NODE}?pageSize=0`],
      ['validator pageSize 101', 'GET', `/v1/networks/fuji/validators/${NODE}?pageSize=101`],
      [
        'validator bad validationStatus',
        'GET',
        `/v1/networks/fuji/validators/${NODE}?validationStatus=sleeping`,
      ],
      ['validator bad token', 'GET', `/v1/networks/fuji/validators/${NODE}?pageToken=abc`],
      ['validator unknown network', 'GET', `/v1/networks/abc/validators/${NODE}`],
    ];
    for (const [what, method, url, body] of BAD_INPUT) {
      it(`answers 400 for ${what}`, async () => {
        const r = method === 'GET' ? await get(url) : await post(url, body);
        assertError(r, 400, what);
      });
    }

    it('answers 404 for unknown routes, networks it does not index, and unknown validators', async () => {
      assertError(await get('/v1/networks/fuji/nothing-here'), 404, 'unknown route');
      assertError(await get('/v2/chains'), 404, 'unknown version');
      assertError(await get('/v1/networks/mainnet/subnets'), 404, 'network not indexed');
      const other = 'NodeID-' + utils.base58check.encode(new Uint8Array(20).fill(9));
      assertError(await get(`/v1/networks/fuji/validators/${other}`), 404, 'unknown node');
    });

    it('answers 503 when the node it asks for live figures cannot be reached', async () => {
      // Move the validator into its active window by asking at a time inside it: the route reads
      // the chain clock, so an active staker is made by a fresh row starting now.
      const now = Math.floor(Date.now() / 1000);
      const rows = emptyBatch();
      rows.stakers.push({
        tx_hash: id(2, 7),
        kind: 'validator',
        node_id: NODE,
        subnet_id: fuji.pChainID,
        seq: 2,
        amount_staked: amountKey(1n),
        delegation_shares: 20000,
        start_ts: now - 10,
        end_ts: now + 3600,
        bls_public_key: null,
        bls_pop: null,
        reward_addresses: '[]',
        reward_tx: null,
        removed_tx: null,
        removed_ts: null,
      });
      await writeBatch(database.db, 'P/block', 1, 2, rows);
      assertError(
        await get(`/v1/networks/fuji/validators/${NODE}?validationStatus=active`),
        503,
        'node down',
      );
      const completed = await get(`/v1/networks/fuji/validators/${NODE}?validationStatus=completed`);
      assert.equal(completed.status, 200);
      assert.equal(completed.body.validators.length, 1);
      assert.equal(completed.body.validators[0].validationStatus, 'completed');
      assert.equal(completed.body.validators[0].rewards.validationRewardAmount, '10');
      assert.equal(
        completed.body.validators[0].rewards.delegationRewardAmount,
        String([...Array(13)].reduce((s, _, i) => s + 11 + i, 0)),
      );
    });

    it('walks the UTXO list to the end, every sort, each UTXO exactly once', async () => {
      for (const sortBy of ['timestamp', 'amount']) {
        for (const sortOrder of ['asc', 'desc']) {
          for (const includeSpent of [false, true]) {
            const seen: string[] = [];
            let token: string | undefined;
            let pages = 0;
            let previous: bigint | undefined;
            do {
              const qs = `pageSize=7&sortBy=${sortBy}&sortOrder=${sortOrder}&includeSpent=${includeSpent}${token ? `&pageToken=${token}` : ''}`;
              const r = await post(`${U}?${qs}`, { addresses: `P-${A},${B}` });
              assert.equal(r.status, 200, JSON.stringify(r.body));
              for (const u of r.body.utxos) {
                seen.push(u.utxoId);
                const key = sortBy === 'amount' ? BigInt(u.amount) : BigInt(u.blockTimestamp);
                if (previous !== undefined)
                  assert.ok(sortOrder === 'asc' ? key >= previous : key <= previous, 'ordered');
                previous = key;
              }
              token = r.body.nextPageToken;
              assert.notEqual(token, null);
              pages++;
            } while (token);
            const expected = includeSpent ? UTXOS_OF_A : UTXOS_OF_A - Math.ceil(UTXOS_OF_A / 4);
            assert.equal(seen.length, expected, `${sortBy} ${sortOrder} includeSpent=${includeSpent}`);
            assert.equal(new Set(seen).size, expected, 'no duplicates');
            assert.equal(pages, Math.ceil(expected / 7));
          }
        }
      }
    });

    it('serves UTXO fields per the spec and marks spends', async () => {
      const r = await post(`${U}?pageSize=1024&includeSpent=true`, { addresses: A });
      const spent = r.body.utxos.find((u: any) => u.utxoId === id(0, 1));
      assert.equal(spent.consumingTxHash, id(0, 3));
      assert.equal(spent.consumingBlockNumber, '1');
      assert.equal(spent.consumingBlockTimestamp, 1_700_000_100);
      assert.deepEqual(spent.addresses, [A, B]);
      assert.equal(spent.asset.symbol, 'AVAX');
      assert.equal(spent.utxoType, 'TRANSFER');
      assert.equal(typeof spent.outputIndex, 'number');
      assert.deepEqual(r.body.chainInfo, { chainName: 'p-chain', network: 'fuji' });
      const min = await post(`${U}?pageSize=1024&minUtxoAmount=1090`, { addresses: A });
      assert.ok(min.body.utxos.length > 0 && min.body.utxos.every((u: any) => BigInt(u.amount) >= 1090n));
      // A minimum above the largest uint64 amount matches nothing (it was a 500).
      const aboveAll = await post(`${U}?minUtxoAmount=1e30`, { addresses: A });
      assert.equal(aboveAll.status, 200, JSON.stringify(aboveAll.body));
      assert.deepEqual(aboveAll.body.utxos, []);
      const testnet = await post('/v1/networks/testnet/blockchains/p-chain/utxos', { addresses: A });
      assert.equal(testnet.body.chainInfo.network, 'testnet');
      const v1 = await get(`${U}?addresses=${A}&pageSize=100`);
      assert.equal(v1.status, 200);
    });

    it('rejects page tokens that were edited or issued for another query', async () => {
      const first = await post(`${U}?pageSize=5`, { addresses: A });
      const token: string = first.body.nextPageToken;
      assert.ok(token);
      const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
      assertError(await post(`${U}?pageSize=5&pageToken=${flipped}`, { addresses: A }), 400, 'edited token');
      assertError(
        await post(`${U}?pageSize=5&sortBy=amount&pageToken=${token}`, { addresses: A }),
        400,
        'other sort',
      );
      assertError(await post(`${U}?pageSize=5&pageToken=${token}`, { addresses: B }), 400, 'other addresses');
      const subnetToken = (await get('/v1/networks/fuji/subnets?pageSize=2')).body.nextPageToken;
      assertError(
        await post(`${U}?pageToken=${subnetToken}`, { addresses: A }),
        400,
        'token of another route',
      );
      const ok = await post(`${U}?pageSize=5&pageToken=${token}`, { addresses: A });
      assert.equal(ok.status, 200);
    });

    it('lets a walk change its page size at every page: the same rows, once each, in order', async () => {
      // A token is a keyset position, not bound to the page size (docs/compatibility.md): a client
      // switching rows-per-page mid-walk continues right after the last row it saw.
      for (const sortOrder of ['asc', 'desc']) {
        const all = await post(`${U}?pageSize=1024&sortOrder=${sortOrder}&includeSpent=true`, {
          addresses: A,
        });
        const expected = all.body.utxos.map((u: any) => u.utxoId);
        const seen: string[] = [];
        let token: string | undefined;
        for (let i = 0; ; i++) {
          const size = [1, 4, 2, 7][i % 4];
          const qs = `pageSize=${size}&sortOrder=${sortOrder}&includeSpent=true${token ? `&pageToken=${token}` : ''}`;
          const r = await post(`${U}?${qs}`, { addresses: A });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          assert.ok(r.body.utxos.length > 0 && r.body.utxos.length <= size);
          seen.push(...r.body.utxos.map((u: any) => u.utxoId));
          token = r.body.nextPageToken;
          if (!token) break;
        }
        assert.deepEqual(seen, expected, sortOrder);
      }
    });

    it('walks subnets both ways with blockchains, ownership, L1 details and genesis data', async () => {
      for (const sortOrder of ['asc', 'desc']) {
        const seen: string[] = [];
        let token: string | undefined;
        do {
          const r = await get(
            `/v1/networks/fuji/subnets?pageSize=4&sortOrder=${sortOrder}${token ? `&pageToken=${token}` : ''}`,
          );
          assert.equal(r.status, 200);
          seen.push(...r.body.subnets.map((s: any) => s.subnetId));
          token = r.body.nextPageToken;
        } while (token);
        assert.equal(new Set(seen).size, SUBNETS);
        assert.equal(seen.length, SUBNETS);
        assert.equal(seen[0], sortOrder === 'asc' ? id(0, 4) : id(SUBNETS - 1, 4));
      }
      const all = (await get('/v1/networks/fuji/subnets')).body.subnets;
      assert.equal(all.length, SUBNETS, 'default page size 100 holds them all');
      const l1 = all.find((s: any) => s.isL1);
      assert.equal(l1.l1ConversionTransactionHash, id(3, 5));
      assert.deepEqual(l1.l1ValidatorManagerDetails, {
        blockchainId: id(3, 6),
        contractAddress: '0x' + 'ab'.repeat(20),
      });
      assert.deepEqual(l1.subnetOwnershipInfo, { locktime: 0, threshold: 1, addresses: [A] });
      assert.equal(l1.blockchains[0].evmChainId, 1003);
      assert.equal(l1.blockchains[0].genesisData.gasLimit, '0x7a1200');
    });

    it('walks rewards by address and by node id with prices in the requested currency', async () => {
      for (const [query, expected] of [
        [`addresses=${A}`, REWARDS],
        [`addresses=${B}`, REWARDS / 2],
        [`nodeIds=${NODE}`, REWARDS],
        [`addresses=${B}&nodeIds=${NODE}`, REWARDS],
      ] as const) {
        const seen: string[] = [];
        let token: string | undefined;
        do {
          const r = await get(
            `/v1/networks/fuji/rewards?${query}&pageSize=3&currency=eur${token ? `&pageToken=${token}` : ''}`,
          );
          assert.equal(r.status, 200, JSON.stringify(r.body));
          for (const rw of r.body.historicalRewards) {
            seen.push(rw.utxoId);
            assert.deepEqual(rw.reward.historicalPrice, { currencyCode: 'eur', value: 19.75 });
          }
          token = r.body.nextPageToken;
        } while (token);
        assert.equal(seen.length, expected, query);
        assert.equal(new Set(seen).size, expected, query);
      }
    });

    it('answers balances by category and asset transactions with their envelope', async () => {
      const r = await get(`/v1/networks/fuji/blockchains/p-chain/balances?addresses=${A}`);
      assert.equal(r.status, 200);
      const unlocked = r.body.balances.unlockedUnstaked[0];
      assert.equal(unlocked.utxoCount, UTXOS_OF_A - Math.ceil(UTXOS_OF_A / 4));
      for (const k of [
        'unlockedStaked',
        'lockedPlatform',
        'lockedStakeable',
        'lockedStaked',
        'pendingStaked',
        'atomicMemoryUnlocked',
        'atomicMemoryLocked',
      ])
        assert.ok(Array.isArray(r.body.balances[k]), k);
      // Before the spends happened every UTXO still counts.
      const earlier = await get(
        `/v1/networks/fuji/blockchains/p-chain/balances?addresses=${A}&blockTimestamp=1700000099`,
      );
      assert.equal(earlier.body.balances.unlockedUnstaked[0].utxoCount, UTXOS_OF_A);
      const txs = await get(`${ASSET_TXS}?txTypes=BaseTx&txTypes=ImportTx`);
      assert.equal(txs.status, 200);
      assert.equal(txs.body.transactions.length, 1);
      assert.equal(txs.body.transactions[0].txType, 'BaseTx');
      assert.deepEqual(txs.body.chainInfo, { chainName: 'x-chain', network: 'fuji' });
      const none = await get(`${ASSET_TXS}?txTypes=ExportTx`);
      assert.equal(none.body.transactions.length, 0);
      assert.equal('nextPageToken' in none.body, false);
    });

    it('knows API keys: unknown is 401, a key for other networks is 403, either header works', async () => {
      assertError(
        await get('/v1/networks/fuji/subnets', { 'x-data-api-key': 'who-is-this' }),
        401,
        'unknown key',
      );
      assertError(
        await get('/v1/networks/fuji/subnets', { 'x-glacier-api-key': 'mainnet-only-key' }),
        403,
        'other network',
      );
      assert.equal(
        (await get('/v1/networks/fuji/subnets', { 'x-data-api-key': 'pro-key-123456' })).status,
        200,
      );
      const anon = await get('/v1/networks/fuji/subnets', {});
      assert.equal(anon.status, 200);
      // The published 6,000 CU a minute, a hundredfold on the devnet (DEVNET_TIER_SCALE); a key
      // of the published pro tier still has more.
      assert.equal(anon.headers['ratelimit-limit'], '600000');
      const pro = await get('/v1/networks/fuji/subnets', PRO);
      assert.equal(pro.headers['ratelimit-limit'], '2000000');
    });

    it('meters compute units per route and answers 429 with retry-after when they run out', async () => {
      const key = { 'x-data-api-key': 'tiny-key-123456' };
      const a = await get('/v1/networks/fuji/subnets', key); // medium: 20 CU
      assert.equal(a.status, 200);
      assert.equal(a.headers['ratelimit-limit'], '250');
      assert.equal(a.headers['ratelimit-remaining'], '230');
      assert.match(String(a.headers['ratelimit-policy']), /tiny/);
      const b = await post(U, { addresses: A }, key); // xl: 100 CU
      assert.equal(b.headers['ratelimit-remaining'], '130');
      await post(U, { addresses: A }, key);
      const c = await post(U, { addresses: A }, key);
      assertError(c, 429, 'budget spent');
      const retry = Number(c.headers['retry-after']);
      assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`);
      assert.equal(c.headers['ratelimit-remaining'], '30');
      assert.equal((await get('/v1/networks/fuji/subnets', key)).status, 200, 'a cheaper route still fits');
      assert.equal((await get('/v1/networks/fuji/subnets')).status, 200, 'other keys are unaffected');
    });

    it('serves the OpenAPI document from the route schemas, and the health check', async () => {
      const doc = await get('/openapi.json');
      assert.equal(doc.status, 200);
      const paths = Object.keys(doc.body.paths);
      for (const p of [
        '/v1/networks/{network}/blockchains/{blockchainId}/utxos',
        '/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions',
        '/v1/networks/{network}/subnets',
        '/v1/networks/{network}/blockchains/{blockchainId}/balances',
        '/v1/networks/{network}/rewards',
        '/v1/networks/{network}/validators',
        '/v1/networks/{network}/delegators',
        '/v1/networks/{network}/validators/{nodeId}',
        '/v1/health-check',
      ])
        assert.ok(paths.includes(p), p);
      const utxoPost = doc.body.paths['/v1/networks/{network}/blockchains/{blockchainId}/utxos'].post;
      const pageSize = utxoPost.parameters.find((p: any) => p.name === 'pageSize');
      assert.deepEqual(
        [pageSize.schema.minimum, pageSize.schema.maximum, pageSize.schema.default],
        [1, 1024, 10],
      );
      // A parameter with a default may be left out, as the real document says.
      assert.equal(pageSize.required, false);
      const everyParam = Object.values<any>(doc.body.paths).flatMap((item) =>
        Object.values<any>(item).flatMap((op) => op.parameters ?? []),
      );
      assert.deepEqual(
        everyParam.filter((p: any) => p.required && p.in !== 'path' && p.schema?.default !== undefined),
        [],
      );
      assert.ok(utxoPost.responses['429'] && utxoPost.responses['503']);
      const page = await app.inject({ method: 'GET', url: '/docs' });
      assert.equal(page.statusCode, 200);
      // This app's node (for live figures) is a closed port: the report says so, the store is up.
      const health = await get('/v1/health-check');
      assert.equal(health.status, 503);
      assert.equal(health.body.status, 'error');
      assert.equal(health.body.info.database.status, 'up');
      assert.equal(health.body.error.node.status, 'down');
      assert.match(health.body.error.node.message, /unreachable/);
      assert.deepEqual(Object.keys(health.body.details).sort(), ['database', 'indexer', 'node']);
    });
  });
}
