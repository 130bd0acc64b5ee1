/**
 * The node's HTTP transport under hostile input, as an attacker would send it: bodies nested
 * past Go's decoding depth, bodies above geth's 5 MiB limit (declared or streamed), a call that
 * never ends, and a batch whose replies grow without bound. Each gets a clear refusal in the
 * endpoint's own shape, and the node keeps answering.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { connect as netConnect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { cChainClients, EWOQ } from '../helpers/cchain-clients.js';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';

const LOOP_FOREVER = '0x5b600056'; // JUMPDEST PUSH1 0 JUMP
const LOOPER = '0x00000000000000000000000000000000000000aa';

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, text: await res.text() };
}

describe('node HTTP transport limits', () => {
  let net: Devnet;
  let x: string;
  let c: string;
  before(async () => {
    net = await startDevnet({
      command: 'node',
      args: ['--rpc-evm-timeout', '1500', '--batch-response-max-size', '1000'],
    });
    x = `${net.url}/ext/bc/X`;
    c = `${net.url}/ext/bc/C/rpc`;
  });
  after(async () => {
    await net?.stop();
  });

  it('refuses JSON nested deeper than Go decodes as a parse error, not a 500', async () => {
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    // No `jsonrpc`: the reference echoes such a request in the error's data.
    const avalanche = await post(x, deep(100_000));
    assert.equal(avalanche.status, 200);
    assert.deepEqual(JSON.parse(avalanche.text), {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'exceeded max depth', data: null },
      id: null,
    });
    const evm = await post(c, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[${deep(50_000)}]}`);
    assert.equal(evm.status, 200);
    assert.equal(JSON.parse(evm.text).error.code, -32700);
    // Nesting within the limit still reaches the method.
    const shallow = await post(x, `{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":${deep(100)}}`);
    assert.ok(JSON.parse(shallow.text).result || JSON.parse(shallow.text).error.code === -32000);
    assert.equal(await call(c, 'eth_chainId', []), '0xa868');
  });

  it("refuses an EVM body above geth's 5 MiB with 413, declared or streamed", async () => {
    const padded = (size: number) => {
      const head = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
      return head + ' '.repeat(size - head.length);
    };
    const over = await post(c, padded(5 * 1024 * 1024 + 1));
    assert.equal(over.status, 413);
    assert.equal(over.text, 'content length too large (5242881>5242880)\n');
    const within = await post(c, padded(5 * 1024 * 1024));
    assert.equal(within.status, 200);
    assert.equal(JSON.parse(within.text).result, '0xa868');

    // A chunked body that never ends: the answer comes once the limit is passed, not never.
    const { port, hostname } = new URL(c);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: hostname,
          port,
          path: '/ext/bc/C/rpc',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const timer = setInterval(() => req.write(chunk), 5);
      req.once('close', () => clearInterval(timer));
      req.once('response', () => {
        clearInterval(timer);
        req.destroy();
      });
    });
    assert.equal(status, 413);
    assert.equal(await call(c, 'eth_chainId', []), '0xa868');
  });

  it('takes a client that hangs up mid-request as no failure of its own', async () => {
    const { hostname, port } = new URL(c);
    for (const path of ['/ext/bc/C/rpc', '/ext/bc/X', '/ext/health']) {
      await new Promise<void>((resolve) => {
        const socket = netConnect(Number(port), hostname, () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`,
          );
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
      });
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.doesNotMatch(net.stderr(), /request failed/);
    assert.equal(await call(c, 'eth_chainId', []), '0xa868');
  });

  it("aborts an eth_call past --rpc-evm-timeout in geth's words, and later calls still run", async () => {
    const aborted = (id: number) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32000, message: 'execution aborted (timeout = 1.5s)' },
    });
    const timed = async (body: unknown) => {
      const started = Date.now();
      const answer = JSON.parse((await post(c, JSON.stringify(body))).text);
      assert.ok(Date.now() - started < 4000, `answered after ${Date.now() - started} ms`);
      return answer;
    };
    // Code given as a state override (the call runs on a state of its own).
    assert.deepEqual(
      await timed({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: LOOPER }, 'latest', { [LOOPER]: { code: LOOP_FOREVER } }],
      }),
      aborted(1),
    );
    // A deployed loop, called plainly: the run shares the node's warm call environment, which
    // must still serve the next calls after the abort.
    const { client, wallet } = cChainClients(c);
    // PUSH4 <loop> PUSH1 0 MSTORE PUSH1 4 PUSH1 28 RETURN: deploys the 4-byte loop.
    const hash = await wallet.sendTransaction({ data: '0x635b6000566000526004601cf3' });
    const { contractAddress } = await client.waitForTransactionReceipt({ hash });
    assert.ok(contractAddress);
    assert.equal(await client.getCode({ address: contractAddress }), LOOP_FOREVER);
    assert.deepEqual(
      await timed({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ to: contractAddress }, 'latest'] }),
      aborted(2),
    );
    const balance = await client.call({ to: EWOQ, data: '0x' });
    assert.equal(balance.data, undefined);
    assert.equal(await call(c, 'eth_call', [{ to: LOOPER }, 'latest']), '0x');
  });

  it('keeps answering other requests while a long estimate runs', async () => {
    // PUSH3 1,500,000; loop: JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 4 JUMPI; STOP — about 39M gas,
    // so the estimate bisects over runs of millions of steps.
    const counter = '0x6216e3605b600190038060045700';
    let estimated = 0;
    const estimate = post(
      c,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_estimateGas',
        params: [{ to: LOOPER }, 'latest', { [LOOPER]: { code: counter } }],
      }),
    ).then((answer) => {
      estimated = Date.now();
      return JSON.parse(answer.text);
    });
    await new Promise((r) => setTimeout(r, 200));
    const height = await call(`${net.url}/ext/bc/X`, 'avm.getHeight', {});
    const answeredAt = Date.now();
    assert.ok(height.height);
    const result = await estimate;
    assert.equal(BigInt(result.result) > 39_000_000n, true, JSON.stringify(result));
    assert.ok(answeredAt < estimated, 'the X-chain call waited for the whole estimate');
  });

  it('answers the calls of a batch past --batch-response-max-size with -32003', async () => {
    const batch = [0, 1, 2, 3].map((id) => ({
      jsonrpc: '2.0',
      id,
      method: 'eth_getBlockByNumber',
      params: ['0x0', true],
    }));
    batch.splice(2, 0, { jsonrpc: '2.0', method: 'eth_chainId', params: [] } as any); // a notification
    const answers = JSON.parse((await post(c, JSON.stringify(batch))).text);
    // As geth: the call that passed the cap keeps its result; every later call is refused.
    assert.equal(answers.length, 4);
    assert.equal(answers[0].id, 0);
    assert.equal(answers[0].result.number, '0x0');
    for (const [i, answer] of answers.slice(1).entries()) {
      assert.deepEqual(answer, {
        jsonrpc: '2.0',
        id: i + 1,
        error: { code: -32003, message: 'response too large' },
      });
    }
    // Small batches are untouched.
    const small = JSON.parse(
      (await post(c, JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }]))).text,
    );
    assert.deepEqual(small, [{ jsonrpc: '2.0', id: 7, result: '0xa868' }]);
  });
});
