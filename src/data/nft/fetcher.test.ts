/**
 * The metadata fetcher beside the writers that make a token due again while it is being fetched
 * (a reindex request from an API process, a burn recorded by the indexer): the request is
 * honoured, the token fetched again, on SQLite and on PostgreSQL. The fetcher used to write its
 * outcome, read before the request, with its next visit a day away, so the request was lost.
 * Two requests at once (two API processes) are held to the shared once-a-minute limit.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { describeEachStore } from '../../../test/helpers/each-store.js';
import { word } from '../evm/abi.js';
import { startNftFetcher } from './fetcher.js';
import type { MetadataResolver, ResolvedMetadata } from './metadata-resolver.js';
import { requestNftReindex } from './reindex.js';

const CHAIN = 43_112;
const CONTRACT = '0x' + '5a'.repeat(20);
const URI = 'https://metadata.example/1';

/** ABI return data of a `string`. */
function abiString(text: string): string {
  const hex = Buffer.from(text, 'utf8').toString('hex');
  return '0x' + word(32n) + word(BigInt(hex.length / 2)) + hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
}

/** A node that answers every eth_call with the token's URI. */
async function startNode(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: abiString(URI) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describeEachStore(`a token made due while the fetcher visits it`, 'nft_fetcher', (store) => {
  let node: Awaited<ReturnType<typeof startNode>>;

  before(async () => {
    node = await startNode();
    await store()
      .db.insertInto('evm_chains')
      .values({
        blockchain_id: 'chain',
        evm_chain_id: CHAIN,
        name: 'L1',
        description: '',
        subnet_id: 'subnet',
        vm_id: 'vm',
        rpc_url: node.url,
        ws_url: '',
        token_name: 'T',
        token_symbol: 'T',
        token_decimals: 18,
        network: 'local',
        is_testnet: 1,
        features: '[]',
        discovered_at: 0,
      })
      .execute();
    await store()
      .db.insertInto('evm_nft_tokens')
      .values({
        chain: CHAIN,
        contract: CONTRACT,
        token_key: '1'.padStart(78, '0'),
        token_id: '1',
        erc_type: 'ERC-721',
        owner: '0x' + '11'.repeat(20),
        token_uri: null,
        index_status: 'UNINDEXED',
        metadata: '{}',
        metadata_updated_at: null,
        next_fetch_at: 0,
        attempts: 0,
      })
      .execute();
  });
  after(async () => {
    await node?.close();
  });

  it('fetches the token again when a reindex is requested during a visit', async () => {
    // The first visit's metadata host answers only once the reindex request is in the store.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let visiting!: () => void;
    const firstVisit = new Promise<void>((resolve) => (visiting = resolve));
    const names: string[] = [];
    const resolver = {
      async resolve(): Promise<ResolvedMetadata> {
        const name = names.length === 0 ? 'before the request' : 'after the request';
        names.push(name);
        if (names.length === 1) {
          visiting();
          await held;
        }
        return { indexStatus: 'INDEXED', metadata: { name } };
      },
    } as unknown as MetadataResolver;
    const fetcher = startNftFetcher({ db: store().db, resolver, idleMs: 20 });
    try {
      await firstVisit;
      await requestNftReindex(store().db, { chain: CHAIN, contract: CONTRACT, tokenId: '1' });
      release();
      await fetcher.idle();
    } finally {
      await fetcher.stop();
    }
    assert.deepEqual(names, ['before the request', 'after the request']);
    const row = await store()
      .db.selectFrom('evm_nft_tokens')
      .select(['metadata', 'index_status', 'next_fetch_at'])
      .executeTakeFirstOrThrow();
    assert.equal(row.index_status, 'INDEXED');
    assert.deepEqual(JSON.parse(row.metadata), { name: 'after the request' });
    assert.ok(Number(row.next_fetch_at) > Date.now() + 3600_000, 'the next visit is the refetch a day away');
  });

  it('accepts one of two reindex requests of a token made at once (two API processes)', async () => {
    await store()
      .db.insertInto('evm_nft_tokens')
      .values({
        chain: CHAIN,
        contract: CONTRACT,
        token_key: '2'.padStart(78, '0'),
        token_id: '2',
        erc_type: 'ERC-721',
        owner: '0x' + '11'.repeat(20),
        token_uri: null,
        index_status: 'INDEXED',
        metadata: '{}',
        metadata_updated_at: null,
        next_fetch_at: Date.now() + 3600_000,
        attempts: 0,
      })
      .execute();
    // Two connections open, so each request's read goes out before either's write.
    await Promise.all([0, 1].map(() => store().db.selectFrom('meta').selectAll().execute()));
    // Token 2 was never reindexed; token 1 was, by the test above, a while before `later`.
    const later = Date.now() + 10 * 60_000;
    for (const [tokenId, now] of [
      ['2', undefined],
      ['1', later],
    ] as const) {
      const outcomes = await Promise.allSettled(
        [0, 1].map(() => requestNftReindex(store().db, { chain: CHAIN, contract: CONTRACT, tokenId, now })),
      );
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected'], `token ${tokenId}`);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      assert.match(String(refused.reason), /reindexing is allowed once a minute per token/);
    }
  });
});
