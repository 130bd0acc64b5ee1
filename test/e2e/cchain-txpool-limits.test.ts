/**
 * The C-chain's transaction pool limits as a client meets them, those of coreth's legacypool:
 * a sender's nonce-gapped (queued) txs are capped (`tx-pool-account-queue`), all queued txs too
 * (`tx-pool-global-queue`, the senders with the oldest heartbeat losing theirs first), executable
 * txs over `tx-pool-global-slots` are trimmed from the senders above `tx-pool-account-slots`, and
 * a full pool refuses a tx no better paid than its cheapest (`transaction underpriced`) or makes
 * room for it by discarding the cheapest. A dropped tx is gone from `txpool_content` and
 * `eth_getTransactionByHash`, though `eth_sendRawTransaction` answered its hash.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keccak256, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';

const GWEI = 10n ** 9n;
const TO = `0x${'42'.repeat(20)}` as const;

/** A devnet's C-chain and its five prefunded accounts. */
function suite(args: string[]) {
  const s = {} as { net: Devnet; url: string; keys: PrivateKeyAccount[] };
  before(async () => {
    s.net = await startDevnet({ command: 'node', args });
    s.url = s.net.facts.urls.cChainRpc;
    s.keys = s.net.facts.keys.map((k) => privateKeyToAccount(k.privateKey as Hex));
  });
  after(async () => {
    await s.net?.stop();
  });
  return s;
}

/** Signs a plain transfer from `from` at `nonce` paying `tipGwei` (fee cap 10 gwei); its raw bytes and hash. */
async function transfer(from: PrivateKeyAccount, nonce: number, tipGwei: number) {
  const raw = await from.signTransaction({
    chainId: 43112,
    type: 'eip1559',
    nonce,
    to: TO,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 10n * GWEI,
    maxPriorityFeePerGas: BigInt(tipGwei * 10) * (GWEI / 10n),
  });
  return { raw, hash: keccak256(raw) };
}

/** Sends a transfer; the node's answer (`result` the hash, or `error`). */
async function send(url: string, from: PrivateKeyAccount, nonce: number, tipGwei: number) {
  const { raw, hash } = await transfer(from, nonce, tipGwei);
  const { body } = await rpc(url, 'eth_sendRawTransaction', [raw]);
  return { hash, result: body.result as string | undefined, error: body.error as { message: string } };
}

/** Sends transfers that the pool must take (it answers their hashes). */
async function sendAll(url: string, from: PrivateKeyAccount, nonces: number[], tipGwei: number) {
  const hashes: string[] = [];
  for (const nonce of nonces) {
    const sent = await send(url, from, nonce, tipGwei);
    assert.equal(sent.error, undefined, `nonce ${nonce}: ${sent.error?.message}`);
    assert.equal(sent.result, sent.hash);
    hashes.push(sent.hash);
  }
  return hashes;
}

/** `txpool_content` as {pending, queued} of sender → its nonces, in order. */
async function poolNonces(url: string) {
  const content = await call(url, 'txpool_content', []);
  const nonces = (group: Record<string, Record<string, unknown>>) =>
    Object.fromEntries(
      Object.entries(group).map(([sender, txs]) => [
        sender.toLowerCase(),
        Object.keys(txs)
          .map(Number)
          .sort((a, b) => a - b),
      ]),
    );
  return { pending: nonces(content.pending), queued: nonces(content.queued) };
}

const known = async (url: string, hash: string) =>
  (await call(url, 'eth_getTransactionByHash', [hash])) !== null;
const lower = (a: PrivateKeyAccount) => a.address.toLowerCase();

describe('C-chain txpool limits at coreth’s defaults', () => {
  const s = suite([]);

  it('keeps 64 queued txs of one sender, dropping the highest nonces; all run once the gap fills', async () => {
    const sender = s.keys[1];
    const nonces = Array.from({ length: 65 }, (_, i) => i + 1);
    const hashes = await sendAll(s.url, sender, nonces, 1);
    assert.deepEqual(await call(s.url, 'txpool_status', []), { pending: '0x0', queued: '0x40' });
    assert.deepEqual((await poolNonces(s.url)).queued, { [lower(sender)]: nonces.slice(0, 64) });
    assert.equal(await known(s.url, hashes[64]), false, 'nonce 65 was dropped');
    assert.equal(await known(s.url, hashes[63]), true);

    // Nonce 0 makes 65 txs executable: over 16 (the account slots) but not over the 5120
    // global slots, so none is trimmed and every one is mined.
    await sendAll(s.url, sender, [0], 1);
    const receipt = async () => call(s.url, 'eth_getTransactionReceipt', [hashes[63]]);
    for (let i = 0; i < 200 && (await receipt()) === null; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await receipt())?.status, '0x1');
    assert.equal(await call(s.url, 'eth_getTransactionCount', [sender.address, 'latest']), '0x41');
  });
});

describe('C-chain txpool limits set by flags', () => {
  // No block for an hour: executable txs stay pending. 4 + 4 slots in all.
  const s = suite([
    '--block-time',
    '3600000',
    '--tx-pool-account-slots',
    '2',
    '--tx-pool-global-slots',
    '4',
    '--tx-pool-account-queue',
    '3',
    '--tx-pool-global-queue',
    '4',
  ]);
  const sent = new Map<string, string>();
  const hashOf = (who: PrivateKeyAccount, nonce: number) => sent.get(`${who.address}/${nonce}`)!;
  const sendEach = async (who: PrivateKeyAccount, nonces: number[], tipGwei: number) => {
    const hashes = await sendAll(s.url, who, nonces, tipGwei);
    nonces.forEach((n, i) => sent.set(`${who.address}/${n}`, hashes[i]));
  };

  it('drops a sender’s queued txs over the account queue, highest nonces first', async () => {
    const [, k1] = s.keys;
    await sendEach(k1, [1, 2, 3, 4], 2);
    assert.deepEqual(await poolNonces(s.url), { pending: {}, queued: { [lower(k1)]: [1, 2, 3] } });
    assert.equal(await known(s.url, hashOf(k1, 4)), false);
  });

  it('drops queued txs over the global queue from the sender with the oldest heartbeat', async () => {
    const [, k1, k2] = s.keys;
    await sendEach(k2, [1, 2], 4);
    assert.deepEqual(await poolNonces(s.url), {
      pending: {},
      queued: { [lower(k1)]: [1, 2], [lower(k2)]: [1, 2] },
    });
    assert.deepEqual(await call(s.url, 'txpool_status', []), { pending: '0x0', queued: '0x4' });
    assert.equal(await known(s.url, hashOf(k1, 3)), false);
  });

  it('trims pending txs over the global slots from the senders above their account slots', async () => {
    const [, k1, k2, k3] = s.keys;
    // k1's gap fills: three pending. Two more from k3 make five pending, over the four slots:
    // k1, the one sender above two, loses its highest.
    await sendEach(k1, [0], 2);
    await sendEach(k3, [0, 1], 1);
    assert.deepEqual(await poolNonces(s.url), {
      pending: { [lower(k1)]: [0, 1], [lower(k3)]: [0, 1] },
      queued: { [lower(k2)]: [1, 2] },
    });
    assert.equal(await known(s.url, hashOf(k1, 2)), false);
    assert.equal(await call(s.url, 'eth_getTransactionCount', [k1.address, 'pending']), '0x2');
    // Over the global slots but no sender above its account slots: nothing is trimmed.
    const k4 = s.keys[4];
    await sendEach(k4, [0, 1], 3);
    assert.deepEqual(await call(s.url, 'txpool_status', []), { pending: '0x6', queued: '0x2' });
  });

  it('a full pool refuses a tx no better paid than its cheapest, and discards the cheapest for a better one', async () => {
    const [k0, , , k3] = s.keys;
    // 8 txs in 8 slots; the cheapest is k3's nonce 1 (1 gwei; of two at one price, the higher nonce).
    const underpriced = await send(s.url, k0, 0, 1);
    assert.deepEqual(underpriced.error, { code: -32000, message: 'transaction underpriced' });
    // A gapped tx may not push out an executable one.
    const future = await send(s.url, k0, 3, 5);
    assert.deepEqual(future.error, { code: -32000, message: 'future transaction tries to replace pending' });
    assert.equal(await known(s.url, hashOf(k3, 1)), true);
    assert.equal(await known(s.url, future.hash), false);
    // An executable one may: k3's nonce 1 goes.
    await sendEach(k0, [0], 5);
    assert.equal(await known(s.url, hashOf(k3, 1)), false);
    assert.equal(await known(s.url, hashOf(k0, 0)), true);
    const { pending } = await poolNonces(s.url);
    assert.deepEqual(pending[lower(k3)], [0]);
    assert.deepEqual(pending[lower(k0)], [0]);
    assert.deepEqual(await call(s.url, 'txpool_status', []), { pending: '0x6', queued: '0x2' });
  });
});
