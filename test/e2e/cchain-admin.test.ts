/**
 * Issue 5, the C-chain's switches and admin API: the archival eth_getProof window from
 * --historical-proof-query-window, debug_ off with --debug-api false, and the admin methods
 * (both spellings) writing real profile files and changing the live log level.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { parseGwei } from 'viem';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

describe('C-chain switches and admin API', () => {
  let net: Devnet;
  let url: string;
  let admin: string;
  before(async () => {
    net = await startDevnet({ args: ['--historical-proof-query-window', '2', '--debug-api', 'false'] });
    url = net.facts.urls.cChainRpc;
    admin = `${net.url}/ext/bc/C/admin`;
  });
  after(async () => {
    await net?.stop();
  });

  it('refuses proofs older than the configured window and serves recent ones', async () => {
    const account = privateKeyToAccount(EWOQ_KEY);
    await mineBlocks(url, 4);
    const head = BigInt((await rpc(url, 'eth_blockNumber', [])).body.result);
    assert.ok(head >= 4n);
    const old = await rpc(url, 'eth_getProof', [account.address, [], '0x1']);
    assert.equal(old.body.error.code, -32000);
    assert.equal(
      old.body.error.message,
      `historical proof query not allowed: block number 1 is before the oldest allowed block number ${head - 2n} (window of 2 blocks)`,
    );
    const recent = await rpc(url, 'eth_getProof', [account.address, [], 'latest']);
    assert.ok(recent.body.result.accountProof.length > 0);
    assert.equal(BigInt(recent.body.result.nonce), 4n);
  });

  it('turns the debug namespace off', async () => {
    const r = await rpc(url, 'debug_traceBlockByNumber', ['latest', {}]);
    assert.equal(r.body.error.code, -32601);
  });

  it('writes CPU, heap and contention profiles into the data dir, answering {} as the reference', async () => {
    const profiles = `${net.dataDir}/profiles`;
    const newFile = (before: Set<string>, suffix: string) => {
      const added = fs.readdirSync(profiles).filter((f) => !before.has(f) && f.endsWith(suffix));
      assert.equal(added.length, 1, `one new ${suffix} file`);
      return `${profiles}/${added[0]}`;
    };
    const listing = () => new Set(fs.existsSync(profiles) ? fs.readdirSync(profiles) : []);
    const start = await rpc(admin, 'admin.startCPUProfiler', {});
    assert.deepEqual(start.body.result, {});
    const again = await rpc(admin, 'admin_startCPUProfiler', []);
    assert.match(again.body.error.message, /already running/);
    await rpc(url, 'eth_getBalance', ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'latest']);
    let before = listing();
    const stop = await rpc(admin, 'admin_stopCPUProfiler', []);
    assert.deepEqual(stop.body.result, {});
    const cpu = newFile(before, '.cpuprofile');
    assert.ok(Array.isArray(JSON.parse(fs.readFileSync(cpu, 'utf8')).nodes));
    before = listing();
    assert.deepEqual((await rpc(admin, 'admin.lockProfile', {})).body.result, {});
    const lock = newFile(before, '.json');
    assert.ok(JSON.parse(fs.readFileSync(lock, 'utf8')).eventLoopDelayMs.samples >= 0);
    before = listing();
    assert.deepEqual((await rpc(admin, 'admin_memoryProfile', [])).body.result, {});
    assert.ok(fs.statSync(newFile(before, '.heapsnapshot')).size > 1000);
  });

  it('changes the live log level and reports the running config', async () => {
    assert.deepEqual((await rpc(admin, 'admin_setLogLevel', [{ level: 'debug' }])).body.result, {});
    const bad = await rpc(admin, 'admin.setLogLevel', { level: 'loud' });
    assert.equal(bad.body.error.code, -32000);
    assert.match(bad.body.error.message, /unknown level: loud/);
    const { config } = (await rpc(admin, 'admin.getVMConfig', {})).body.result;
    assert.equal(config.logLevel, 'debug');
    assert.equal(config.historicalProofQueryWindow, 2);
    assert.equal(config.debugApiEnabled, false);
    assert.equal(config.chainId, 43112);
    const unknown = await rpc(admin, 'admin.nope', {});
    assert.match(unknown.body.error.message, /can't find method/);
  });

  it("refuses what the reference's gorilla admin service refuses, in its words", async () => {
    // The admin API is a gorilla service like /ext/info: the same envelope, whatever the path.
    const post = (contentType: string, body: string) =>
      fetch(admin, { method: 'POST', headers: { 'content-type': contentType }, body });
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.getVMConfig' });
    for (const contentType of ['text/plain', '']) {
      const refused = await post(contentType, call);
      assert.equal(refused.status, 415, `content-type "${contentType}"`);
      assert.equal(await refused.text(), `rpc: unrecognized Content-Type: ${contentType}`);
    }
    const accepted = await post('application/json; charset=UTF-8', call);
    assert.equal(accepted.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.ok(((await accepted.json()) as any).result.config);

    const info = `${net.url}/ext/info`;
    const garbled = async (url: string) =>
      (await (
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'nonjson' })
      ).json()) as any;
    assert.deepEqual(await garbled(admin), await garbled(info));

    const get = await fetch(admin);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await get.text(), 'rpc: POST method required, received GET');

    // coreth's errors: avalanchego's profiler, and the EVM logger's level parser wrapped (with
    // the reference's trailing space).
    assert.equal(
      (await rpc(admin, 'admin.stopCPUProfiler', {})).body.error.message,
      "cpu profiler doesn't exist",
    );
    assert.deepEqual((await rpc(admin, 'admin.startCPUProfiler', {})).body.result, {});
    assert.equal(
      (await rpc(admin, 'admin.startCPUProfiler', {})).body.error.message,
      'cpu profiler already running',
    );
    assert.deepEqual((await rpc(admin, 'admin.stopCPUProfiler', {})).body.result, {});
    assert.equal(
      (await rpc(admin, 'admin.setLogLevel', { level: 'loud' })).body.error.message,
      'failed to parse log level: unknown level: loud ',
    );
    assert.equal(
      (await rpc(admin, 'admin_setLogLevel', [{}])).body.error.message,
      'failed to parse log level: unknown level:  ',
    );
    // geth's short names are levels too.
    assert.deepEqual((await rpc(admin, 'admin.setLogLevel', { level: 'DBUG' })).body.result, {});
    assert.equal((await rpc(admin, 'admin.getVMConfig', {})).body.result.config.logLevel, 'debug');
  });
});

/** Mines `count` blocks of one self-transfer each from ewoq (nonces from 0), waiting for each receipt. */
async function mineBlocks(url: string, count: number): Promise<void> {
  const account = privateKeyToAccount(EWOQ_KEY);
  const chainId = Number(BigInt((await rpc(url, 'eth_chainId', [])).body.result));
  for (let nonce = 0; nonce < count; nonce++) {
    const raw = await account.signTransaction({
      to: account.address,
      value: 1n,
      gas: 21000n,
      nonce,
      chainId,
      type: 'eip1559',
      maxFeePerGas: parseGwei('30'),
      maxPriorityFeePerGas: 1n,
    });
    const { body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
    assert.ok(body.result, JSON.stringify(body.error));
    for (let i = 0; i < 100; i++) {
      if ((await rpc(url, 'eth_getTransactionReceipt', [body.result])).body.result) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe('C-chain eth_getProof on a pruning node', () => {
  let net: Devnet;
  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--pruning-enabled', 'true'] });
  });
  after(async () => {
    await net?.stop();
  });

  it('refuses blocks more than 32 below the last accepted one, whatever the archival window', async () => {
    const url = net.facts.urls.cChainRpc;
    await mineBlocks(url, 34);
    const head = BigInt((await rpc(url, 'eth_blockNumber', [])).body.result);
    assert.ok(head >= 34n);
    const oldest = head - 32n;
    for (const block of ['earliest', `0x${(oldest - 1n).toString(16)}`]) {
      const { body } = await rpc(url, 'eth_getProof', [EWOQ, [], block]);
      assert.equal(body.error?.code, -32000, block);
      assert.match(
        body.error.message,
        new RegExp(`before the oldest allowed block number ${oldest} \\(window of 32 blocks\\)$`),
      );
    }
    for (const block of [`0x${oldest.toString(16)}`, 'latest']) {
      const { body } = await rpc(url, 'eth_getProof', [EWOQ, [], block]);
      assert.ok(body.result?.accountProof.length > 0, block);
    }
  });
});
