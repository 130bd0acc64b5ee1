/**
 * C-chain WebSocket subscriptions over a raw `ws` client, as geth/coreth serve them: notifications
 * of `newHeads` and `logs` in block order (logs of a block in log-index order) over several
 * blocks built in quick succession, `eth_subscribe`/`eth_unsubscribe` arguments refused with
 * geth's codes and messages, and each connection's subscriptions its own.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';
import { openWsRpc as open } from '../helpers/ws-rpc.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Emitter {
  event Fired(uint256 indexed seq, uint256 i);
  function fire(uint256 seq, uint256 n) external { for (uint256 i = 0; i < n; i++) emit Fired(seq, i); }
}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('C-chain subscriptions over WebSocket', () => {
  let net: Devnet;
  let url: string;
  let wsUrl: string;
  let client: any;
  let emitter: Hex;
  const account = privateKeyToAccount(EWOQ_KEY);
  const artifact = compileSolidity('Emitter.sol', SOURCE, 'cancun').Emitter;
  let chain: ReturnType<typeof defineChain>;

  before(async () => {
    // Blocks every 100 ms: a burst of transactions lands in a few blocks of several txs each.
    net = await startDevnet({ args: ['--block-time', '100'] });
    url = net.facts.urls.cChainRpc;
    wsUrl = net.facts.urls.cChainWs;
    chain = defineChain({
      id: 43112,
      name: 'Flurry C',
      nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    client = createPublicClient({ chain, transport: http(url), cacheTime: 0, pollingInterval: 50 });
    const wallet = createWalletClient({ account, chain, transport: http(url) });
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      account,
      chain,
    });
    emitter = (await client.waitForTransactionReceipt({ hash })).contractAddress;
  });
  after(async () => {
    await net?.stop();
  });

  /** Signs `fire(seq, n)` calls with consecutive nonces, without sending them. */
  async function signFires(calls: { seq: number; n: number }[]): Promise<Hex[]> {
    const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const fee = (await client.getGasPrice()) * 2n;
    return Promise.all(
      calls.map(({ seq, n }, k) =>
        account.signTransaction({
          chainId: 43112,
          type: 'eip1559',
          to: emitter,
          data: encodeFunctionData({
            abi: artifact.abi,
            functionName: 'fire',
            args: [BigInt(seq), BigInt(n)],
          }),
          nonce: nonce + k,
          gas: 200_000n,
          maxFeePerGas: fee,
          // The pool's least tip (tx-pool-price-limit).
          maxPriorityFeePerGas: 1n,
        }),
      ),
    );
  }

  const send = (raw: Hex): Promise<Hex> =>
    client.request({ method: 'eth_sendRawTransaction', params: [raw] });

  it('pushes newHeads and logs in block order, and a block’s logs in log-index order, over blocks built quickly', async () => {
    const c = await open(wsUrl);
    try {
      const heads = (await c.call('eth_subscribe', ['newHeads'])).result as string;
      const mine = (await c.call('eth_subscribe', ['logs', { address: emitter }])).result as string;
      const every = (await c.call('eth_subscribe', ['logs', null])).result as string;
      assert.match(every, /^0x[0-9a-f]+$/);

      // Four waves of three txs, 60 ms apart, each tx emitting one to three logs.
      const calls = Array.from({ length: 12 }, (_, k) => ({ seq: k, n: (k % 3) + 1 }));
      const raws = await signFires(calls);
      const hashes: Hex[] = [];
      for (let w = 0; w < 4; w++) {
        hashes.push(...(await Promise.all(raws.slice(w * 3, w * 3 + 3).map(send))));
        await sleep(60);
      }
      const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
      const blocks = [...new Set(receipts.map((r: any) => r.blockNumber as bigint))].sort((a, b) =>
        a < b ? -1 : 1,
      );
      assert.ok(blocks.length >= 2, 'the burst spans several blocks');
      const first = blocks[0];
      const last = blocks[blocks.length - 1];
      const expected = (await client.request({
        method: 'eth_getLogs',
        params: [
          { address: emitter, fromBlock: `0x${first.toString(16)}`, toBlock: `0x${last.toString(16)}` },
        ],
      })) as any[];
      assert.equal(
        expected.length,
        calls.reduce((sum, x) => sum + x.n, 0),
      );

      const of = (id: string) => c.notes.filter((n) => n.subscription === id).map((n) => n.result);
      await until(
        () =>
          of(heads).some((h) => BigInt(h.number) >= last) &&
          of(mine).length >= expected.length &&
          of(every).filter((l) => BigInt(l.blockNumber) <= last).length >= expected.length,
        'the notifications of the burst',
      );

      // Heads: one per block, consecutive, each the block the node answers for that number.
      const headList = of(heads);
      for (let i = 1; i < headList.length; i++)
        assert.equal(BigInt(headList[i].number), BigInt(headList[i - 1].number) + 1n, 'heads in block order');
      for (const b of blocks) {
        const h = headList.find((x) => BigInt(x.number) === b);
        assert.ok(h, `a head for block ${b}`);
        assert.equal(h.hash, (await client.getBlock({ blockNumber: b })).hash);
      }

      // Logs: exactly eth_getLogs's answer for the range, in the same (block, log index) order.
      const key = (l: any) => [l.blockNumber, l.logIndex, l.transactionHash, l.blockHash, l.data, l.removed];
      const inRange = (l: any) => BigInt(l.blockNumber) >= first && BigInt(l.blockNumber) <= last;
      assert.deepEqual(of(mine).filter(inRange).map(key), expected.map(key));
      assert.deepEqual(of(every).filter(inRange).map(key), expected.map(key));
      const order = of(mine).map((l) => [BigInt(l.blockNumber), BigInt(l.logIndex)] as const);
      for (let i = 1; i < order.length; i++) {
        const [pb, pi] = order[i - 1];
        const [b, li] = order[i];
        assert.ok(b > pb || (b === pb && li === pi + 1n), `log ${i} follows log ${i - 1}`);
      }
      // Within a tx the logs come in emission order, and txs in nonce order.
      const fired = of(mine).map((l) => [BigInt(l.topics[1]), BigInt(l.data)]);
      assert.deepEqual(
        fired,
        calls.flatMap(({ seq, n }) => Array.from({ length: n }, (_, i) => [BigInt(seq), BigInt(i)])),
      );
      // A block's logs all arrive before the next block's head (each block is pushed whole).
      const position = (pred: (m: any) => boolean) => c.messages.findIndex(pred);
      for (const b of blocks.slice(0, -1)) {
        const nextHead = position(
          (m) => m.params?.subscription === heads && BigInt(m.params.result.number) === b + 1n,
        );
        const lastLog = c.messages.findLastIndex(
          (m) => m.params?.subscription === mine && BigInt(m.params.result.blockNumber) === b,
        );
        assert.ok(lastLog < nextHead, `block ${b}'s logs before block ${b + 1n}'s head`);
      }
    } finally {
      c.socket.close();
    }
  });

  it("pushes a newHeads header as coreth's Header JSON: its fields, the Granite ones null, no block-only fields", async () => {
    const c = await open(wsUrl);
    try {
      const heads = (await c.call('eth_subscribe', ['newHeads'])).result as string;
      const [raw] = await signFires([{ seq: 900, n: 1 }]);
      const receipt = await client.waitForTransactionReceipt({ hash: await send(raw) });
      await until(
        () =>
          c.notes.some((n) => n.subscription === heads && BigInt(n.result.number) === receipt.blockNumber),
        'the head of the block',
      );
      const head = c.notes.find(
        (n) => n.subscription === heads && BigInt(n.result.number) === receipt.blockNumber,
      )!.result;
      // coreth's customtypes.HeaderSerializable, every member (no omitempty), plus the hash.
      const coreth = [
        'parentHash',
        'sha3Uncles',
        'miner',
        'stateRoot',
        'transactionsRoot',
        'receiptsRoot',
        'logsBloom',
        'difficulty',
        'number',
        'gasLimit',
        'gasUsed',
        'timestamp',
        'extraData',
        'mixHash',
        'nonce',
        'extDataHash',
        'baseFeePerGas',
        'extDataGasUsed',
        'blockGasCost',
        'blobGasUsed',
        'excessBlobGas',
        'parentBeaconBlockRoot',
        'timestampMilliseconds',
        'minDelayExcess',
        'hash',
      ];
      assert.deepEqual(Object.keys(head).sort(), [...coreth].sort());
      assert.equal(head.timestampMilliseconds, null);
      assert.equal(head.minDelayExcess, null);
      const block = await client.request({
        method: 'eth_getBlockByNumber',
        params: [head.number, false],
      });
      for (const k of coreth.filter((k) => k in block)) assert.equal(head[k], block[k], k);
    } finally {
      c.socket.close();
    }
  });

  it("refuses a plain HTTP request at /ws as coreth's gorilla upgrader does: 400, not a missing path", async () => {
    const httpWs = wsUrl.replace(/^ws/, 'http');
    for (const init of [
      {},
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
      },
    ]) {
      const res = await fetch(httpWs, init);
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('sec-websocket-version'), '13');
      assert.equal(await res.text(), 'Bad Request\n');
    }
    const unknown = await fetch(httpWs.replace('/ext/bc/C/ws', '/ext/bc/nope/ws'));
    assert.equal(unknown.status, 404);
    await unknown.text();
  });

  it("chooses no subprotocol a client offers, as coreth's gorilla upgrader (none configured) does", async () => {
    const { host, pathname } = new URL(wsUrl);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest({
        host: host.split(':')[0],
        port: Number(host.split(':')[1]),
        path: pathname,
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': randomBytes(16).toString('base64'),
          'sec-websocket-protocol': 'graphql-ws, wamp',
        },
      });
      req.once('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res);
      });
      req.once('response', resolve);
      req.once('error', reject);
      req.end();
    });
    assert.equal(response.statusCode, 101);
    // A client that insists on one then fails here as it would against avalanchego.
    assert.equal(response.headers['sec-websocket-protocol'], undefined);
  });

  it('reads a text frame that is not valid UTF-8 as geth does: answered, the connection kept', async () => {
    const c = await open(wsUrl);
    try {
      const heads = (await c.call('eth_subscribe', ['newHeads'])).result as string;
      // gorilla leaves text frames unchecked and Go's JSON decoder reads bad bytes in a string
      // as U+FFFD: the call is answered, where a strict reader would close with 1007.
      const frame = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":77,"method":"eth_chainId","params":[],"note":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      c.socket.send(frame, { binary: false });
      await until(() => c.messages.some((m) => m.id === 77), 'the answer to the frame');
      assert.equal(c.messages.find((m) => m.id === 77).result, '0xa868');
      assert.equal((await c.call('eth_unsubscribe', [heads])).result, true);
    } finally {
      c.socket.close();
    }
  });

  it('answers with the id as the client wrote it, as geth echoes its raw text, over WebSocket and HTTP', async () => {
    // Numbers a double cannot hold as written: past 2^53, a fraction's trailing zero, `-0`,
    // beyond a double's range (JSON.parse's Infinity, which JSON.stringify writes as null).
    const ids = ['12345678901234567890123', '1.50', '-0', '1e400', '7'];
    const bodies = ids.map((id) => `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`);
    const c = await open(wsUrl);
    const texts: string[] = [];
    c.socket.on('message', (raw) => texts.push(raw.toString()));
    try {
      for (const body of bodies) c.socket.send(body);
      c.socket.send(`[${bodies.join(',')}]`);
      await until(() => texts.length === bodies.length + 1, 'the answers');
    } finally {
      c.socket.close();
    }
    const httpTexts = await Promise.all(
      [...bodies, `[${bodies.join(',')}]`].map(async (body) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        return (await res.text()).trim();
      }),
    );
    const answer = (id: string) => `{"jsonrpc":"2.0","id":${id},"result":"0xa868"}`;
    const want = [...ids.map(answer), `[${ids.map(answer).join(',')}]`];
    assert.deepEqual(
      [...texts.slice(0, ids.length).sort(), texts[ids.length]],
      [...want.slice(0, ids.length).sort(), want[ids.length]],
    );
    assert.deepEqual(httpTexts, want);
  });

  it('answers no notification, even a failing one, and drops answer-shaped messages, as geth does', async () => {
    const silent = [
      { jsonrpc: '2.0', method: 'nope_method' },
      { jsonrpc: '2.0', method: 'eth_getBalance', params: [] },
      { jsonrpc: '2.0', method: 'eth_getBalance', params: 'x' },
      { jsonrpc: '2.0', id: 101, result: '0x1' },
      { jsonrpc: '2.0', id: 102, error: { code: 1, message: 'x' } },
    ];
    const c = await open(wsUrl);
    try {
      for (const m of silent) c.socket.send(JSON.stringify(m));
      c.socket.send(JSON.stringify(silent));
      assert.equal((await c.call('eth_chainId', [])).result, '0xa868');
      await sleep(200); // answers to the messages before, were there any, would be here by now
      assert.deepEqual(
        c.messages.map((m) => m.id),
        [1],
        'only the call is answered',
      );
    } finally {
      c.socket.close();
    }
    for (const body of [...silent, silent]) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '', JSON.stringify(body));
    }
    // With a method but an empty one, a call is invalid (geth's isCall wants a method).
    const empty = await rpc(url, '', []);
    assert.deepEqual(empty.body.error, { code: -32600, message: 'invalid request' });
  });

  it("gives subscription and filter ids as geth's rpc.NewID: quantities, no leading zero", async () => {
    // One random id in sixteen starts with a zero nibble; 320 ids all miss one by chance 1 in 10^9.
    const ids: string[] = [];
    const c = await open(wsUrl);
    try {
      for (let i = 0; i < 160; i++) ids.push((await c.call('eth_subscribe', ['newHeads'])).result);
    } finally {
      c.socket.close();
    }
    for (let b = 0; b < 4; b++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          Array.from({ length: 40 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_newBlockFilter' })),
        ),
      });
      for (const a of (await res.json()) as any[]) {
        ids.push(a.result);
        await rpc(url, 'eth_uninstallFilter', [a.result]);
      }
    }
    assert.equal(ids.length, 320);
    for (const id of ids) assert.match(id, /^0x(0|[1-9a-f][0-9a-f]*)$/);
  });

  it('refuses eth_subscribe arguments as geth does: too many, missing, or of the wrong type', async () => {
    const c = await open(wsUrl);
    try {
      const error = async (params: unknown) => (await c.call('eth_subscribe', params)).error;
      const cases: [unknown, number, string][] = [
        [undefined, -32602, 'non-array args'],
        [null, -32602, 'non-array args'],
        [{ name: 'newHeads' }, -32602, 'non-array args'],
        [[], -32602, 'expected subscription name as first argument'],
        [[5], -32602, 'expected subscription name as first argument'],
        [['nope', 1, 2, 3], -32601, 'no "nope" subscription in eth namespace'],
        [['newHeads', {}], -32602, 'too many arguments, want at most 1'],
        [['newHeads', null], -32602, 'too many arguments, want at most 1'],
        [['logs'], -32602, 'missing value for required argument 1'],
        [['logs', {}, {}], -32602, 'too many arguments, want at most 2'],
        [
          ['logs', 5],
          -32602,
          'invalid argument 1: json: cannot unmarshal number into Go value of type filters.input',
        ],
        [
          ['logs', 'x'],
          -32602,
          'invalid argument 1: json: cannot unmarshal string into Go value of type filters.input',
        ],
        [
          ['logs', [emitter]],
          -32602,
          'invalid argument 1: json: cannot unmarshal array into Go value of type filters.input',
        ],
        [
          ['logs', { topics: true }],
          -32602,
          'invalid argument 1: json: cannot unmarshal bool into Go struct field input.topics of type []interface {}',
        ],
        [['logs', { address: 7 }], -32602, 'invalid argument 1: invalid addresses in query'],
        [['newPendingTransactions', true, 1], -32602, 'too many arguments, want at most 2'],
        [
          ['newPendingTransactions', 'yes'],
          -32602,
          'invalid argument 1: json: cannot unmarshal string into Go value of type bool',
        ],
        [
          ['newAcceptedTransactions', 1],
          -32602,
          'invalid argument 1: json: cannot unmarshal number into Go value of type bool',
        ],
        [
          ['newAcceptedTransactions', {}],
          -32602,
          'invalid argument 1: json: cannot unmarshal object into Go value of type bool',
        ],
      ];
      for (const [params, code, message] of cases)
        assert.deepEqual(await error(params), { code, message }, JSON.stringify(params));
      assert.equal(c.notes.length, 0);
      assert.deepEqual((await c.call('eth_unsubscribe', [5])).error, {
        code: -32602,
        message: 'invalid argument 0: json: cannot unmarshal number into Go value of type rpc.ID',
      });
      assert.deepEqual((await c.call('eth_unsubscribe', [])).error, {
        code: -32602,
        message: 'missing value for required argument 0',
      });
      assert.deepEqual((await c.call('eth_unsubscribe', ['0x1', 2])).error, {
        code: -32602,
        message: 'too many arguments, want at most 1',
      });
      assert.deepEqual((await c.call('eth_unsubscribe', [null])).error, {
        code: -32000,
        message: 'subscription not found',
      });
      // Over HTTP there is no connection to notify: refused before the arguments are read.
      const { body } = await rpc(url, 'eth_subscribe', [5]);
      assert.deepEqual(body.error, { code: -32601, message: 'notifications not supported' });
    } finally {
      c.socket.close();
    }
  });

  it("neither ends nor sees another connection's subscription", async () => {
    const a = await open(wsUrl);
    const b = await open(wsUrl);
    try {
      const heads = (await a.call('eth_subscribe', ['newHeads'])).result as string;
      // geth/coreth answer an id the connection does not hold with an error, not `false`.
      assert.deepEqual((await b.call('eth_unsubscribe', [heads])).error, {
        code: -32000,
        message: 'subscription not found',
      });
      const [raw] = await signFires([{ seq: 100, n: 1 }]);
      const receipt = await client.waitForTransactionReceipt({ hash: await send(raw) });
      await until(
        () => a.notes.some((n) => n.subscription === heads && BigInt(n.result.number) >= receipt.blockNumber),
        "a's head after b's unsubscribe",
      );
      assert.equal(b.notes.length, 0);
      assert.deepEqual(await a.call('eth_unsubscribe', [heads]), { jsonrpc: '2.0', id: 2, result: true });
      const seen = a.notes.length;
      const [again] = await signFires([{ seq: 101, n: 1 }]);
      const next = await client.waitForTransactionReceipt({ hash: await send(again) });
      // Another subscription on a, made after the block, proves its notifications would have come by now.
      const probe = (await a.call('eth_subscribe', ['newHeads'])).result as string;
      const [third] = await signFires([{ seq: 102, n: 1 }]);
      await client.waitForTransactionReceipt({ hash: await send(third) });
      await until(() => a.notes.some((n) => n.subscription === probe), 'the probe head');
      assert.ok(BigInt(next.blockNumber) > BigInt(receipt.blockNumber));
      assert.deepEqual(
        a.notes.slice(seen).filter((n) => n.subscription === heads),
        [],
        'no heads after unsubscribing',
      );
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });
});
