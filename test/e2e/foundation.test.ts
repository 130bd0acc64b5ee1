/**
 * Issue 2: a fresh devnet starts from the CLI, answers info and health through the public SDK
 * and raw HTTP, keeps its state across SIGKILL, and answers bad requests in the documented shape.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { call, rpc, startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import { startRole } from './data-helpers.js';

describe('devnet foundation', () => {
  let net: Devnet;
  before(async () => {
    net = await startDevnet();
  });
  after(async () => {
    await net?.stop();
  });

  it('prints one JSON line with every URL, chain id and prefunded key', () => {
    const f = net.facts;
    assert.equal(f.event, 'ready');
    assert.equal(f.networkID, 12345);
    assert.equal(f.chains.X.blockchainID, '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
    assert.equal(f.chains.C.evmChainId, 43112);
    assert.equal(f.keys[0].evmAddress, '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    assert.equal(f.keys[0].xAddress, 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
    assert.match(f.urls.cChainRpc, /^http:\/\/127\.0\.0\.1:\d+\/ext\/bc\/C\/rpc$/);
  });

  it('answers info through @avalanche-sdk/client', async () => {
    // The SDK adds its sub-clients only for Avalanche chain ids, which its types do not track.
    const client: any = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
    const { networkID } = await client.info.getNetworkID();
    assert.equal(Number(networkID), 12345);
    const { blockchainID } = await client.info.getBlockchainID({ alias: 'X' });
    assert.equal(blockchainID, net.facts.chains.X.blockchainID);
    const { nodeID } = await client.info.getNodeID();
    assert.equal(nodeID, net.facts.nodeID);
    const version = await client.info.getNodeVersion();
    assert.match(version.version, /^avalanchego\/\d+\.\d+\.\d+/);
    const fees = await client.info.getTxFee();
    assert.equal(String(fees.txFee), '1000000');
    // The reference's default table (every network but mainnet and fuji): 0.1 AVAX for the
    // subnet, transform and chain fees, 1 milliAVAX for subnet stakers.
    assert.deepEqual(
      [fees.createSubnetTxFee, fees.transformSubnetTxFee, fees.createBlockchainTxFee],
      [100_000_000n, 100_000_000n, 100_000_000n],
    );
    assert.deepEqual([fees.addSubnetValidatorFee, fees.addSubnetDelegatorFee], [1_000_000n, 1_000_000n]);
    const peers = await client.info.peers({ nodeIDs: [] });
    assert.equal(Number(peers.numPeers), 4);
    // The fields of the reference's peer.Info (v1.14.0) and api/info.Peer, no others.
    assert.deepEqual(Object.keys(peers.peers[0]).sort(), [
      'benched',
      'ip',
      'lastReceived',
      'lastSent',
      'nodeID',
      'objectedACPs',
      'observedUptime',
      'publicIP',
      'supportedACPs',
      'trackedSubnets',
      'version',
    ]);
    const upgrades = await client.info.upgrades();
    // A local network, as avalanchego's: Etna active since its InitiallyActiveTime.
    assert.equal(upgrades.etnaTime, '2020-12-05T05:00:00Z');
    // A time.Duration: nanoseconds as a JSON number (the 5-minute ACP-181 epoch).
    assert.equal(upgrades.graniteEpochDuration, 300_000_000_000);
    const { networkName } = await client.info.getNetworkName();
    assert.equal(networkName, 'local');
    // Beside the VMs, the feature extensions the node installs, by id (api/info.GetVMsReply).
    const vms = await client.info.getVMs();
    assert.deepEqual(vms.fxs, {
      spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
      qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
      rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
    });
    assert.deepEqual(vms.vms.jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq, ['avm']);
    // An unknown alias is refused in the words of the reference's chain aliaser.
    await assert.rejects(client.info.getBlockchainID({ alias: 'Q' }), (err: any) => {
      assert.match(err.details, /^there is no ID with alias: Q$/);
      return true;
    });
  });

  it('answers info and health over raw HTTP with the reference conventions', async () => {
    const { status, body } = await rpc(`${net.url}/ext/info`, 'info.getNetworkID', undefined, 0);
    assert.equal(status, 200);
    assert.deepEqual(body, { jsonrpc: '2.0', result: { networkID: '12345' }, id: 0 });
    assert.ok(!('error' in body));
    // params as {}, [], [{}] and null, keys matched case-insensitively
    for (const params of [{ alias: 'P' }, [{ ALIAS: 'P' }], { Alias: 'P' }]) {
      const r = await call(`${net.url}/ext/info`, 'info.getBlockchainID', params);
      assert.equal(r.blockchainID, '11111111111111111111111111111111LpoYY');
    }
    for (const params of [null, [], {}]) {
      const r = await call(`${net.url}/ext/info`, 'info.getNetworkName', params);
      assert.equal(r.networkName, 'local');
    }
    const isBoot = await call(`${net.url}/ext/info`, 'info.isBootstrapped', { chain: 'X' });
    assert.equal(isBoot.isBootstrapped, true);
    const health = await fetch(`${net.url}/ext/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as any).healthy, true);
    const viaRpc = await call(`${net.url}/ext/health`, 'health.health');
    assert.equal(viaRpc.healthy, true);
    const res = await fetch(`${net.url}/ext/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}',
    });
    assert.equal(res.headers.get('node-id'), net.facts.nodeID);
  });

  it('answers with the id as the client wrote it, as the reference echoes its raw text', async () => {
    // Numbers a double cannot hold as written: past 2^53, a fraction's trailing zero, `-0`,
    // beyond a double's range (JSON.parse's Infinity, which JSON.stringify writes as null).
    const ids = ['12345678901234567890123', '1.50', '-0', '1e400', '7'];
    const texts = await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(`${net.url}/ext/info`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"jsonrpc":"2.0","id":${id},"method":"info.getNetworkID"}`,
        });
        return (await res.text()).trim();
      }),
    );
    assert.deepEqual(
      texts,
      ids.map((id) => `{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${id}}`),
    );
  });

  it('reports health checks by tag, readiness and liveness as the reference registers them', async () => {
    const client: any = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
    const primary = '11111111111111111111111111111111LpoYY';
    // No tags: every check; a passing check has no error, contiguousFailures or timeOfFirstFailure.
    const all = await client.health.health({});
    assert.equal(all.healthy, true);
    assert.deepEqual(Object.keys(all.checks).sort(), ['C', 'P', 'X', 'bootstrapped', 'network']);
    assert.deepEqual(all.checks.bootstrapped.message, []);
    // The network check counts the peers info.peers lists (not the chains), and its send fail rate.
    const { numPeers } = await client.info.peers({ nodeIDs: [] });
    assert.equal(all.checks.network.message.connectedPeers, Number(numPeers));
    assert.equal(all.checks.network.message.sendFailRate, 0);
    for (const check of Object.values<any>(all.checks)) {
      assert.deepEqual(Object.keys(check).sort(), ['duration', 'message', 'timestamp']);
    }
    // Chain checks carry their subnet ID; node-wide checks answer every query.
    const byPrimary = await client.health.health({ tags: [primary] });
    assert.deepEqual(Object.keys(byPrimary.checks).sort(), ['C', 'P', 'X', 'bootstrapped', 'network']);
    const byOther = await client.health.health({
      tags: ['2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed'],
    });
    assert.deepEqual(Object.keys(byOther.checks).sort(), ['bootstrapped', 'network']);
    const get = (await (await fetch(`${net.url}/ext/health?tag=nope`)).json()) as any;
    assert.deepEqual(Object.keys(get.checks).sort(), ['bootstrapped', 'network']);
    // Readiness is the bootstrapped check alone; liveness has no checks.
    const ready = await client.health.readiness({});
    assert.deepEqual(Object.keys(ready.checks), ['bootstrapped']);
    assert.equal(ready.healthy, true);
    const readyGet = (await (await fetch(`${net.url}/ext/health/readiness`)).json()) as any;
    assert.deepEqual(Object.keys(readyGet.checks), ['bootstrapped']);
    assert.deepEqual(await client.health.liveness(), { checks: {}, healthy: true });
  });
  it('answers a WebSocket upgrade where no WebSocket is served as the plain request', async () => {
    // The SDK's `ws` transport sends its P/X/info sub-clients to the gorilla endpoints over
    // WebSocket; the reference's handlers ignore the Upgrade header and answer the GET.
    const refusal = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = new WebSocket(`${net.url.replace(/^http/, 'ws')}${path}`);
        socket.once('open', () => reject(new Error(`${path} upgraded`)));
        socket.once('error', reject);
        socket.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
      });
    assert.deepEqual(await refusal('/ext/bc/P'), {
      status: 405,
      body: 'rpc: POST method required, received GET',
    });
    assert.deepEqual(await refusal('/ext/nope'), { status: 404, body: '404 page not found\n' });
    const client: any = createAvalancheClient({
      chain: avalancheLocal,
      // No reconnecting once the refusal is seen (the devnet stops after this file).
      transport: { type: 'ws', url: net.facts.urls.cChainWs, config: { reconnect: false, retryCount: 0 } },
    });
    await assert.rejects(client.pChain.getHeight(), /Unexpected server response: 405/);
    // The node still answers plain requests after those.
    assert.equal((await call(`${net.url}/ext/info`, 'info.getNetworkID')).networkID, '12345');
  });
  it('answers bad requests in the documented shapes', async () => {
    const info = `${net.url}/ext/info`;
    const malformed = await fetch(info, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    assert.equal(malformed.status, 200);
    const m = (await malformed.json()) as any;
    assert.equal(m.error.code, -32700);
    assert.equal(m.id, null);

    const wrongType = await fetch(info, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    assert.equal(wrongType.status, 415);
    assert.match(await wrongType.text(), /unrecognized Content-Type/);

    const get = await fetch(info);
    assert.equal(get.status, 405);
    assert.equal(await get.text(), 'rpc: POST method required, received GET');

    const unknown = await rpc(info, 'info.noSuchMethod');
    assert.deepEqual(unknown.body, {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'rpc: can\'t find method "info.NoSuchMethod"', data: null },
      id: 1,
    });
    const unknownService = await rpc(info, 'nope.method');
    assert.equal(unknownService.body.error.code, -32000);

    const badParams = await rpc(info, 'info.getBlockchainID', { alias: 42 });
    assert.equal(badParams.body.error.code, -32000);
    assert.match(badParams.body.error.message, /couldn't unmarshal an argument/);

    const batch = Array.from({ length: 41 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'info.getNetworkID',
    }));
    const big = await fetch(info, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    const bigBody = (await big.json()) as any;
    assert.equal(bigBody.error.code, -32600);
    assert.match(bigBody.error.message, /batch too large/);

    const small = await fetch(info, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch.slice(0, 40)),
    });
    const smallBody = (await small.json()) as any;
    assert.equal(smallBody.length, 40);
    assert.equal(smallBody[39].result.networkID, '12345');

    const notFound = await fetch(`${net.url}/ext/nowhere`, { method: 'POST' });
    assert.equal(notFound.status, 404);
  });
});

describe('devnet durability', () => {
  it('restarts after SIGKILL on the same data dir with the same state', async () => {
    const dataDir = tempDir();
    const first = await startDevnet({ dataDir, args: ['--seed', 'durable'] });
    const nodeID = first.facts.nodeID;
    const keys = first.facts.keys;
    await first.kill();
    const second = await startDevnet({ dataDir, args: ['--seed', 'durable'] });
    try {
      assert.equal(second.facts.nodeID, nodeID);
      assert.deepEqual(second.facts.keys, keys);
      const r = await call(`${second.url}/ext/info`, 'info.getNodeID');
      assert.equal(r.nodeID, nodeID);
    } finally {
      await second.stop();
    }
  });

  it(
    'restarts after a kill -9 whose process its parent has not reaped yet',
    { skip: process.platform !== 'linux' },
    async () => {
      // A killed process stays a zombie until its parent waits for it: a container whose PID 1
      // does not reap, or a supervisor that is slow to. A zombie holds no files, but it answers
      // kill(pid, 0), so its LOCK was taken for a live node's and the restart refused.
      const dataDir = tempDir();
      const bin = path.resolve(import.meta.dirname, '../../bin/flurry.js');
      const node = [process.execPath, bin, 'node', '--json', '--node-port', '0', '--data-dir', dataDir];
      // `sleep` becomes the node's parent and never waits for it.
      const parent = spawn('sh', ['-c', `"$@" & exec sleep 600`, 'sh', ...node], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, FLURRY_LOG_LEVEL: 'warn' },
      });
      try {
        await new Promise((resolve) =>
          readline.createInterface({ input: parent.stdout! }).once('line', resolve),
        );
        const pid = Number.parseInt(fs.readFileSync(path.join(dataDir, 'LOCK'), 'utf8'), 10);
        process.kill(pid, 'SIGKILL');
        // Wait for the kill to land: the process is then a zombie ('Z' in its stat), not gone.
        while (!/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))) await sleep(20);
        const again = await startDevnet({ dataDir, command: 'node' });
        assert.equal(await again.stop(), 0);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('refuses to reuse a data dir with other genesis options, and --reset starts over', async () => {
    const dataDir = tempDir();
    const first = await startDevnet({ dataDir, args: ['--seed', 'one'] });
    await first.stop();
    await assert.rejects(startDevnet({ dataDir, args: ['--seed', 'two'] }), /--reset/);
    const again = await startDevnet({ dataDir, args: ['--seed', 'two', '--reset'] });
    assert.notEqual(again.facts.nodeID, first.facts.nodeID);
    assert.equal(await again.stop(), 0);
  });

  it('refuses a second node on a data dir in use, and --reset of it, until the first stops', async () => {
    const dataDir = tempDir();
    const first = await startDevnet({ dataDir });
    try {
      for (const args of [[], ['--reset']])
        await assert.rejects(
          startDevnet({ dataDir, command: 'node', args }),
          new RegExp(
            `exited with 1 before ready: flurry: .*data dir ${dataDir} is in use .*pid ${first.process.pid}`,
          ),
        );
      // The first node kept its state and still answers.
      assert.equal((await call(`${first.url}/ext/info`, 'info.getNodeID')).nodeID, first.facts.nodeID);
    } finally {
      assert.equal(await first.stop(), 0);
    }
    // Stopped (and after a SIGKILL, see above), the data dir is free again.
    const again = await startDevnet({ dataDir });
    assert.equal(again.facts.nodeID, first.facts.nodeID);
    assert.equal(await again.stop(), 0);
  });

  it('refuses --reset of a data dir whose SQLite store a running data role reads', async () => {
    // `flurry api` (or `indexer`) takes no node LOCK: --reset deleted data.db under it, and it
    // went on serving (or indexing into) the deleted file while the new process used a new one.
    const dataDir = tempDir();
    const api = await startRole(['api', '--data-dir', dataDir, '--data-port', '0']);
    try {
      await assert.rejects(
        startDevnet({ dataDir, args: ['--reset'] }),
        new RegExp(
          `exited with 1 before ready: flurry: .*data dir ${dataDir} is in use .*pid ${api.child.pid}`,
        ),
      );
      assert.ok(fs.existsSync(path.join(dataDir, 'data.db')));
    } finally {
      api.child.kill('SIGTERM');
      assert.equal(await api.exited, 0);
    }
    // Stopped, it no longer holds the data dir.
    const again = await startDevnet({ dataDir, args: ['--reset'] });
    assert.equal(await again.stop(), 0);
  });

  it('says in one line, without a stack trace, when --reset cannot delete the data dir', async () => {
    // A data dir under a file cannot be deleted (nor created): as a read-only one for a non-root
    // user, rmSync threw out of main and the process printed its stack.
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    await assert.rejects(
      startDevnet({ dataDir, command: 'node', args: ['--reset'] }),
      new RegExp(
        `exited with 1 before ready: flurry: --reset could not delete ${dataDir}: ENOTDIR[^\\n]*\\n$`,
      ),
    );
  });

  it('refuses a host it cannot listen on in one line, without a stack trace', async () => {
    await assert.rejects(
      startDevnet({ command: 'node', args: ['--host', '999.1.1.1'] }),
      /exited with 1 before ready: flurry: getaddrinfo ENOTFOUND 999\.1\.1\.1\n$/,
    );
  });

  it('says in one line which flag names a port already in use, for the node and the data platform', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    const bin = path.resolve(import.meta.dirname, '../../bin/flurry.js');
    const inUse = (flag: string) =>
      `port ${port} on 127.0.0.1 is in use (${flag}); stop what listens there or pick another port\n`;
    try {
      const node = spawnSync(
        process.execPath,
        [bin, 'node', '--data-dir', tempDir(), '--node-port', String(port)],
        { encoding: 'utf8' },
      );
      assert.equal(node.status, 1);
      assert.equal(node.stderr, `flurry: ${inUse('--node-port')}`);
      // At the default log level: the node and the indexer used to log that they were up (`node
      // listening`, `chain-data API listening`) before the data platform's port failed the start.
      for (const [flag, other] of [
        ['--data-port', '--metrics-port'],
        ['--metrics-port', '--data-port'],
      ]) {
        const start = spawnSync(
          process.execPath,
          [bin, 'start', '--data-dir', tempDir(), '--node-port', '0', other, '0', flag, String(port)],
          { encoding: 'utf8', env: { ...process.env, FLURRY_LOG_LEVEL: 'info' } },
        );
        assert.equal(start.status, 1, flag);
        assert.equal(start.stderr, `flurry: the data platform did not start: ${inUse(flag)}`, flag);
      }
    } finally {
      blocker.close();
    }
  });

  it('serves on an IPv6 host with bracketed URLs and peer addresses', async () => {
    // `--host ::1` was written `http://::1:port`, which no URL parser takes: the data platform,
    // reading the node at that URL, failed the start.
    const v6 = await startDevnet({ args: ['--host', '::1'] });
    try {
      const { urls } = v6.facts;
      for (const url of [urls.node, urls.cChainWs, urls.data!, urls.metrics!])
        assert.match(url, /^(http|ws):\/\/\[::1\]:\d+/);
      assert.equal(Number((await call(`${urls.node}/ext/info`, 'info.getNetworkID')).networkID), 12345);
      const peers = await call(`${urls.node}/ext/info`, 'info.peers');
      assert.match(peers.peers[0].ip, /^\[::1\]:\d+$/);
      // The node's own address as its peers reach it (Go's netip.AddrPort form), not `::1:port`.
      const client: any = createAvalancheClient({
        chain: avalancheLocal,
        transport: { type: 'http', url: urls.cChainRpc },
      });
      const { ip } = await client.info.getNodeIP();
      assert.equal(ip, `[::1]:${new URL(urls.node).port}`);
      const health = await fetch(`${urls.data}/v1/health-check`);
      assert.equal(health.status, 200);
    } finally {
      assert.equal(await v6.stop(), 0);
    }
  });

  it('derives validators and keys from the seed deterministically', async () => {
    const a = await startDevnet({ args: ['--seed', 'same', '--validators', '3'] });
    const b = await startDevnet({ args: ['--seed', 'same', '--validators', '3'] });
    try {
      assert.equal(a.facts.nodeID, b.facts.nodeID);
      assert.deepEqual(a.facts.keys, b.facts.keys);
      const peers = await call(`${a.url}/ext/info`, 'info.peers');
      assert.equal(peers.numPeers, '2');
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('flurry binary', () => {
  it('prints its version with --version, for every role, and exits 0', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/flurry.js');
    for (const args of [['--version'], ['indexer', '--version']]) {
      const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^flurry \d+\.\d+\.\d+ \(avalanchego\/\d+\.\d+\.\d+ compatible\)\n$/);
    }
  });

  it("prints a role's own help, and refuses a flag the role does not read as a usage error", () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/flurry.js');
    const flurry = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
    const node = flurry(['node', '--help']);
    assert.equal(node.status, 0, node.stderr);
    assert.match(node.stdout, /^Usage: flurry node \[options\]\n/);
    assert.match(node.stdout, /--node-port PORT/);
    assert.doesNotMatch(node.stdout, /--data-port|--workers|--node-url|--database-url/);
    const api = flurry(['api', '--help']);
    assert.match(api.stdout, /^Usage: flurry api \[options\]\n[\s\S]*--workers N/);
    assert.doesNotMatch(api.stdout, /--seed|--node-port|--tx-pool/);
    assert.match(
      flurry(['--help']).stdout,
      /^Usage: flurry <command> \[options\]\n[\s\S]*--node-port[\s\S]*--workers/,
    );
    const refused = flurry(['node', '--data-port', '1']);
    assert.equal(refused.status, 2);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr.split('\n')[0], 'flurry: --data-port is not an option of the node command');
    assert.match(refused.stderr, /\nUsage: flurry node \[options\]\n/);
    // Variables of flags other roles read are no error: one environment may configure them all.
    const shared = { FLURRY_DATA_PORT: '1', FLURRY_WORKERS: '2', FLURRY_NODE_URL: 'http://127.0.0.1:1' };
    const version = flurry(['node', '--version'], shared);
    assert.equal(version.status, 0, version.stderr);
  });

  it('ignores a bad variable its role does not read, and names the variable of a bad one it reads', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/flurry.js');
    const flurry = (args: string[], env: Record<string, string>) =>
      spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
    // One environment for every role: the node's variables are none of the indexer's business.
    const nodeOnly = { FLURRY_VALIDATORS: 'many', FLURRY_NODE_PORT: '99999', FLURRY_WORKERS: 'x' };
    const indexer = flurry(['indexer', '--version'], nodeOnly);
    assert.equal(indexer.status, 0, indexer.stderr);
    const api = flurry(['api', '--data-dir', tempDir()], { FLURRY_WORKERS: 'x' });
    assert.equal(api.status, 2);
    assert.equal(api.stderr.split('\n')[0], 'flurry: FLURRY_WORKERS must be a whole number, got "x"');
    assert.match(api.stderr, /\nUsage: flurry api \[options\]\n/);
    const flag = flurry(['api', '--workers', 'y', '--data-dir', tempDir()], { FLURRY_WORKERS: 'x' });
    assert.equal(flag.stderr.split('\n')[0], 'flurry: --workers must be a whole number, got "y"');
  });

  it('in a checkout that was never built, says to build it instead of a module-not-found stack', () => {
    // bin/flurry.js runs dist/: a fresh clone run before `npm install` (or installed with
    // --ignore-scripts) has none.
    const root = tempDir('flurry-unbuilt-');
    fs.mkdirSync(path.join(root, 'bin'));
    fs.copyFileSync(
      path.resolve(import.meta.dirname, '../../bin/flurry.js'),
      path.join(root, 'bin/flurry.js'),
    );
    const run = spawnSync(process.execPath, [path.join(root, 'bin/flurry.js'), 'start'], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 1);
    assert.equal(
      run.stderr,
      'flurry: not built yet: run `npm install` (or `npm run build`) in the checkout first\n',
    );
  });
});
