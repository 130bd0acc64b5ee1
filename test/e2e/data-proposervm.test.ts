/**
 * The data platform against a node whose index holds proposervm-wrapped blocks, as a real
 * AvalancheGo node's does. The devnet node runs alone; a relay written here stands in front of
 * it, passing every request through unchanged except the X and P block indexes, whose containers
 * (unsigned proposervm blocks on the devnet) it unwraps and wraps again in every variant
 * AvalancheGo lays out (signed with a test certificate, unsigned, Granite, options around P-chain
 * commit blocks; the first P block left unwrapped, as the earliest blocks of a real P-chain are;
 * neither index holds a genesis block, as no real node's does)
 * and names by their proposervm ids. `flurry indexer` and `flurry api` read the relay; through
 * @avalanche-sdk/chainkit the block routes must give the blocks the node itself names (inner ids,
 * heights, txs), the proposer details the relay wrapped in, and `nodes/{nodeId}/blocks` exactly
 * the blocks signed with the test certificate.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { addTxSignatures, avm, Context, pvm, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { call, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { TEST_CERT_DER, TEST_CERT_NODE_ID, wrapOption, wrapSigned } from '../helpers/proposervm.js';
import { unwrapContainer } from './proposer-helpers.js';
import { collectPages, startRole, waitIndexed, type Role } from './data-helpers.js';
import { blsKey, EWOQ_ADDR, EWOQ_KEY, signAndIssue, testNodeId } from './pchain-helpers.js';
import { waitAccepted } from './xchain-helpers.js';

const AVAX = 1_000_000_000n;
const HRP = 'fuji';
const cb58 = (b: Uint8Array) => utils.base58check.encode(b);

/** What the relay put around one inner block, as the block routes should report it. */
interface Wrapped {
  index: number;
  innerId: string;
  innerSize: number;
  /** Undefined for a container left unwrapped. */
  proposer?: {
    proposerId: string;
    proposerParentId: string;
    proposerNodeId?: string;
    proposerPChainHeight?: number;
    proposerTimestamp?: number;
  };
  /** The container as the relay serves it. */
  container: { id: string; bytes: string; timestamp: string; encoding: 'hex'; index: string };
}

/** Checksummed hex, as the index API writes container bytes. */
const checkedHex = (bytes: Uint8Array) =>
  utils.bufferToHex(new Uint8Array([...bytes, ...sha256(bytes).subarray(28)]));

/**
 * An HTTP relay to `nodeUrl`: every request is forwarded unchanged, except `index.*` calls on
 * `/ext/index/{X,P}/block`, whose containers are replaced by proposervm blocks around them.
 */
async function startRelay(nodeUrl: string) {
  const chains = { X: [] as Wrapped[], P: [] as Wrapped[] };
  const byProposerId = new Map<string, string>();

  /**
   * The chain's block in the node's container `c`: the devnet wraps every block container in an
   * unsigned proposervm block, named by its id.
   */
  function nodeInner(c: any): Uint8Array {
    const raw = utils.hexToBuffer(c.bytes).slice(0, -4);
    const unwrapped = unwrapContainer(raw);
    assert.equal(c.id, unwrapped.id, 'the devnet names a container by its proposervm block id');
    return unwrapped.inner;
  }

  /** Wraps container `c` (at `index`) of `chain`, whose previous block is `prev`. */
  function wrap(chain: 'X' | 'P', c: any, prev: Wrapped | undefined): Wrapped {
    const index = Number(c.index);
    const inner = nodeInner(c);
    const innerId = cb58(sha256(inner));
    const base = { index, innerId, innerSize: inner.length };
    // The earliest indexed P-chain block (height 1) precedes the proposervm fork: not wrapped.
    if (chain === 'P' && index === 0) {
      byProposerId.set(innerId, c.id);
      return { ...base, container: { ...c, id: innerId, bytes: checkedHex(inner) } };
    }
    // A proposervm block's parent is the previous proposervm block (the first one's, the inner
    // block's parent: the last block before the fork; an X block's parent id is at offset 6).
    const parentId = prev
      ? utils.base58check.decode(prev.proposer?.proposerId ?? prev.innerId)
      : inner.slice(6, 38);
    const timestamp = BigInt(Math.floor(Date.parse(c.timestamp) / 1000));
    const pChainHeight = BigInt(1000 + index);
    const blockType = inner[5];
    let w: { bytes: Uint8Array; id: Uint8Array };
    let proposer: Wrapped['proposer'];
    if (chain === 'P' && (blockType === 30 || blockType === 31)) {
      // Banff commit/abort after a proposal block: a proposervm option.
      w = wrapOption(parentId, inner);
      proposer = { proposerId: cb58(w.id), proposerParentId: cb58(parentId) };
    } else {
      const kind = index % 3; // 0 unsigned, 1 signed, 2 signed Granite
      const signed = kind !== 0;
      w = wrapSigned({
        parentId,
        timestamp,
        pChainHeight,
        inner,
        certificate: signed ? TEST_CERT_DER : undefined,
        // Any bytes: the indexer does not verify proposer signatures (the node did).
        signature: signed ? new Uint8Array(64).fill(index & 0xff) : undefined,
        epoch:
          kind === 3
            ? { pChainHeight: pChainHeight - 5n, number: 7n, startTime: timestamp - 60n }
            : undefined,
      });
      proposer = {
        proposerId: cb58(w.id),
        proposerParentId: cb58(parentId),
        ...(signed ? { proposerNodeId: TEST_CERT_NODE_ID } : {}),
        proposerPChainHeight: Number(pChainHeight),
        proposerTimestamp: Number(timestamp),
      };
    }
    byProposerId.set(proposer.proposerId, c.id);
    return {
      ...base,
      proposer,
      container: { ...c, id: proposer.proposerId, bytes: checkedHex(w.bytes) },
    };
  }

  async function forward(pathname: string, body: string): Promise<any> {
    const res = await fetch(nodeUrl + pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(20_000),
    });
    return res.json();
  }

  /** Wraps every container of `chain` up to `index`, in order (each names its parent's id). */
  const queues = { X: Promise.resolve(), P: Promise.resolve() };
  function ensure(chain: 'X' | 'P', index: number): Promise<void> {
    const run = queues[chain].then(async () => {
      const list = chains[chain];
      while (list.length <= index) {
        const start = list.length;
        const answer = await forward(
          `/ext/index/${chain}/block`,
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'index.getContainerRange',
            params: { startIndex: start, numToFetch: Math.min(1024, index - start + 1), encoding: 'hex' },
          }),
        );
        const containers: any[] = answer.result?.containers ?? [];
        if (containers.length === 0) throw new Error(`node has no ${chain} container ${start}`);
        for (const c of containers) {
          assert.equal(Number(c.index), list.length);
          list.push(wrap(chain, c, list[list.length - 1]));
        }
      }
    });
    queues[chain] = run.catch(() => {});
    return run;
  }

  async function indexCall(chain: 'X' | 'P', pathname: string, text: string): Promise<any> {
    const req = JSON.parse(text);
    if (req.method === 'index.getContainerByID' && byProposerId.has(req.params?.id))
      req.params.id = byProposerId.get(req.params.id);
    const answer = await forward(pathname, JSON.stringify(req));
    const r = answer.result;
    if (!r) return answer;
    if (Array.isArray(r.containers)) {
      const last = r.containers.length ? Number(r.containers[r.containers.length - 1].index) : -1;
      await ensure(chain, last);
      r.containers = r.containers.map((c: any) => chains[chain][Number(c.index)].container);
    } else if (r.bytes !== undefined && r.index !== undefined) {
      await ensure(chain, Number(r.index));
      answer.result = chains[chain][Number(r.index)].container;
    }
    return answer;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', async () => {
      try {
        const text = Buffer.concat(chunks).toString('utf8');

        const pathname = req.url ?? '/';
        const m = /^\/ext\/index\/([XP])\/block\/?$/.exec(pathname);
        if (m && req.method === 'POST') {
          const answer = await indexCall(m[1] as 'X' | 'P', pathname, text);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
          return;
        }
        const upstream = await fetch(nodeUrl + pathname, {
          method: req.method,
          headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : text,
          signal: AbortSignal.timeout(20_000),
        });
        const out = Buffer.from(await upstream.arrayBuffer());
        res
          .writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'text/plain',
          })
          .end(out);
      } catch (err) {
        res.writeHead(502).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    chains,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function stopRoleIfRunning(role: Role | undefined): Promise<void> {
  if (!role || role.child.exitCode !== null || role.child.signalCode !== null) return;
  role.child.kill('SIGTERM');
  await role.exited;
}

describe('chain-data blocks from a node whose index holds proposervm blocks', () => {
  let net: Devnet;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let indexer: Role | undefined;
  let api: Role | undefined;
  let data: string;
  let sdk: Avalanche;
  const at = () => ({ serverURL: data });
  const xTxs: string[] = [];
  const pTxs: string[] = [];

  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--network', 'fuji', '--min-stake-duration', '60'] });
    relay = await startRelay(net.url);
    const dataDir = tempDir('flurry-proposervm-');
    indexer = await startRole(['indexer', '--node-url', relay.url, '--data-dir', dataDir]);
    api = await startRole([
      'api',
      '--node-url',
      relay.url,
      '--data-dir',
      dataDir,
      '--data-port',
      '0',
      '--metrics-port',
      '0',
    ]);
    data = api.facts.urls.data;
    sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });

    // Activity through the node itself: X transfers, a P-chain validator rewarded after its
    // period (a proposal block and its commit), and a subnet.
    const url = net.url;
    const ctx = await Context.getContextFromURI(url);
    const xApi = new avm.AVMApi(url);
    const pApi = new pvm.PVMApi(url);
    const ewoqX = utils.format('X', HRP, EWOQ_ADDR);
    const ewoqP = utils.format('P', HRP, EWOQ_ADDR);
    for (const amount of [1n, 2n, 3n, 4n, 5n]) {
      const { utxos } = await xApi.getUTXOs({ addresses: [ewoqX] });
      const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
        TransferableOutput.fromNative(ctx.avaxAssetID, amount * AVAX, [new Uint8Array(20).fill(0x41)]),
      ]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());
      await waitAccepted(url, txID);
      xTxs.push(txID);
    }
    const now = BigInt(Math.floor(Date.parse((await pApi.getTimestamp()).timestamp) / 1000));
    const key = blsKey('proposervm-relay');
    pTxs.push(
      await signAndIssue(
        pApi,
        pvm.newAddPermissionlessValidatorTx(
          {
            feeState: await pApi.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: (await pApi.getUTXOs({ addresses: [ewoqP] })).utxos,
            nodeId: testNodeId(91),
            subnetId: ctx.pBlockchainID,
            start: now,
            end: now + 120n,
            weight: 2_000n * AVAX,
            rewardAddresses: [EWOQ_ADDR],
            delegatorRewardsOwner: [EWOQ_ADDR],
            shares: 100_000,
            publicKey: key.publicKey,
            signature: key.pop,
          },
          ctx,
        ),
      ),
    );
    pTxs.push(
      await signAndIssue(
        pApi,
        pvm.newCreateSubnetTx(
          {
            feeState: await pApi.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: (await pApi.getUTXOs({ addresses: [ewoqP] })).utxos,
            subnetOwners: [EWOQ_ADDR],
          },
          ctx,
        ),
      ),
    );
    // Two subnets: with the first P block left unwrapped, enough blocks for every wrapper kind.
    pTxs.push(
      await signAndIssue(
        pApi,
        pvm.newCreateSubnetTx(
          {
            feeState: await pApi.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: (await pApi.getUTXOs({ addresses: [ewoqP] })).utxos,
            subnetOwners: [EWOQ_ADDR],
          },
          ctx,
        ),
      ),
    );
    await call(`${url}/ext/bc/P`, 'platform.advanceTime', { seconds: 3600 });
    await waitIndexed(url, data);
  });
  after(async () => {
    await stopRoleIfRunning(api);
    await stopRoleIfRunning(indexer);
    await relay?.close();
    await net?.stop();
  });

  for (const chain of ['p-chain', 'x-chain'] as const) {
    const alias = chain === 'p-chain' ? 'P' : 'X';

    it(`lists the ${chain} blocks by the ids the node names them, with the proposer details wrapped around them`, async () => {
      const wrapped = relay.chains[alias];
      const walked = await collectPages<any>(
        await sdk.data.primaryNetwork.blocks.listLatest({ blockchainId: chain, pageSize: 3 }, at()),
        'blocks',
      );
      // Every indexed block, and the genesis block, which no index holds (read from the chain).
      assert.equal(walked.items.length, wrapped.length + 1);
      const byInnerId = new Map(wrapped.map((w) => [w.innerId, w]));
      const genesisMethod = chain === 'p-chain' ? 'platform.getBlockByHeight' : 'avm.getBlockByHeight';
      const genesisHex = (
        await call(`${net.url}/ext/bc/${alias}`, genesisMethod, { height: 0, encoding: 'hex' })
      ).block;
      const genesisBytes = utils.hexToBuffer(genesisHex).slice(0, -4);
      byInnerId.set(cb58(sha256(genesisBytes)), {
        index: -1,
        innerId: cb58(sha256(genesisBytes)),
        innerSize: genesisBytes.length,
        container: undefined as any,
      });
      const method = chain === 'p-chain' ? 'platform.getBlockByHeight' : 'avm.getBlockByHeight';
      for (const b of walked.items) {
        const w = byInnerId.get(b.blockHash);
        assert.ok(w, `block ${b.blockHash} is an inner block id`);
        const json = (
          await call(`${net.url}/ext/bc/${alias}`, method, { height: b.blockNumber, encoding: 'json' })
        ).block;
        const hex = (
          await call(`${net.url}/ext/bc/${alias}`, method, { height: b.blockNumber, encoding: 'hex' })
        ).block;
        // The node's own block: its id is the sha256 of the bytes getBlockByHeight gives.
        assert.equal(cb58(sha256(utils.hexToBuffer(hex).slice(0, -4))), b.blockHash);
        assert.equal(json.parentID, b.parentHash);
        assert.equal(String(json.height), b.blockNumber);
        // A proposal block lists its decision txs (`txs`), then its proposal (`tx`).
        const txs: any[] = [...(json.txs ?? []), ...(json.tx ? [json.tx] : [])];
        assert.equal(b.txCount, txs.length);
        assert.deepEqual(
          b.transactions,
          txs.map((t) => t.id),
        );
        assert.equal(b.blockSizeBytes, w.innerSize);
        assert.deepEqual(b.proposerDetails, w.proposer);
        // The same block by height and by its id.
        for (const blockId of [b.blockNumber, b.blockHash])
          assert.deepEqual(
            await sdk.data.primaryNetwork.blocks.get({ blockchainId: chain, blockId }, at()),
            b,
          );
      }
      const txIds = walked.items.flatMap((b) => b.transactions);
      for (const tx of chain === 'x-chain' ? xTxs : pTxs)
        assert.equal(txIds.filter((t) => t === tx).length, 1, `${tx} in one block`);
      // Every kind of wrapper was served and read back.
      const proposers = walked.items.map((b) => b.proposerDetails);
      assert.ok(proposers.some((p) => p?.proposerNodeId === TEST_CERT_NODE_ID));
      assert.ok(proposers.some((p) => p && p.proposerTimestamp !== undefined && !p.proposerNodeId));
      if (chain === 'p-chain') {
        assert.equal(
          proposers.filter((p) => p === undefined).length,
          2,
          'the genesis and the first P block are not wrapped',
        );
        assert.ok(
          proposers.some((p) => p && p.proposerTimestamp === undefined),
          'an option block',
        );
      }
    });

    it(`lists under nodes/{nodeId}/blocks exactly the ${chain} blocks signed with the test certificate`, async () => {
      const signed = relay.chains[alias]
        .filter((w) => w.proposer?.proposerNodeId === TEST_CERT_NODE_ID)
        .map((w) => w.innerId)
        .reverse();
      assert.ok(signed.length >= 3);
      const walked = await collectPages<any>(
        await sdk.data.primaryNetwork.blocks.listByNodeId(
          { blockchainId: chain, nodeId: TEST_CERT_NODE_ID, pageSize: 2 },
          at(),
        ),
        'blocks',
      );
      assert.deepEqual(
        walked.items.map((b) => b.blockHash),
        signed,
      );
      assert.equal(walked.pages, Math.ceil(signed.length / 2));
      for (const b of walked.items) assert.equal(b.proposerDetails.proposerNodeId, TEST_CERT_NODE_ID);

      // A time window keeps the signed blocks inside it.
      const mid = walked.items[Math.floor(walked.items.length / 2)].blockTimestamp;
      const windowed = await collectPages<any>(
        await sdk.data.primaryNetwork.blocks.listByNodeId(
          { blockchainId: chain, nodeId: TEST_CERT_NODE_ID, startTimestamp: mid, pageSize: 1 },
          at(),
        ),
        'blocks',
      );
      assert.deepEqual(
        windowed.items.map((b) => b.blockHash),
        walked.items.filter((b) => b.blockTimestamp >= mid).map((b) => b.blockHash),
      );

      // Another node signed nothing; a token of one node's list is refused on another's.
      const other = await sdk.data.primaryNetwork.blocks.listByNodeId(
        { blockchainId: chain, nodeId: testNodeId(91) },
        at(),
      );
      assert.deepEqual(other.result.blocks, []);
      const first = await fetch(
        `${data}/v1/networks/fuji/blockchains/${chain}/nodes/${TEST_CERT_NODE_ID}/blocks?pageSize=1`,
      );
      const token = ((await first.json()) as any).nextPageToken;
      assert.ok(token);
      const reused = await fetch(
        `${data}/v1/networks/fuji/blockchains/${chain}/nodes/${testNodeId(91)}/blocks?pageSize=1&pageToken=${token}`,
      );
      assert.equal(reused.status, 400);
    });
  }
});
