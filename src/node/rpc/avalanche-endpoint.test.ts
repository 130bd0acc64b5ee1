import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AvalancheEndpoint } from './avalanche-endpoint.js';
import { EvmEndpoint } from './evm-endpoint.js';
import { RpcError } from './errors.js';

function avalanche(): AvalancheEndpoint {
  return new AvalancheEndpoint('test')
    .registerAll('avm', {
      echo: (p) => ({ value: p.string('value'), height: p.uint64('height').toString() }),
      boom: () => {
        throw new Error('not found');
      },
    })
    .aliasService('xvm', 'avm');
}

describe('AvalancheEndpoint', () => {
  it('matches param keys case-insensitively and accepts every params shape', async () => {
    const ep = avalanche();
    for (const params of [{ VALUE: 'a', Height: '5' }, [{ value: 'a', height: 5 }]]) {
      const r = await ep.handle({ jsonrpc: '2.0', id: 0, method: 'avm.echo', params }, {});
      assert.deepEqual(r, { jsonrpc: '2.0', result: { value: 'a', height: '5' }, id: 0 });
    }
    for (const params of [undefined, null, {}, []]) {
      const r = (await ep.handle({ jsonrpc: '2.0', id: 1, method: 'avm.echo', params }, {})) as any;
      assert.equal(r.result.value, '');
    }
  });

  it('serves a service under its alias', async () => {
    const r = (await avalanche().handle(
      { jsonrpc: '2.0', id: 1, method: 'xvm.echo', params: { value: 'x' } },
      {},
    )) as any;
    assert.equal(r.result.value, 'x');
  });

  it('reports handler errors as -32000 with data null', async () => {
    const r = await avalanche().handle({ jsonrpc: '2.0', id: 'a', method: 'avm.boom' }, {});
    assert.deepEqual(r, {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'not found', data: null },
      id: 'a',
    });
  });

  it('words unknown services and methods like the reference node', async () => {
    const ep = avalanche();
    const unknown = (await ep.handle({ jsonrpc: '2.0', id: 1, method: 'avm.getFoo' }, {})) as any;
    assert.equal(unknown.error.message, 'rpc: can\'t find method "avm.GetFoo"');
    const upper = (await ep.handle({ jsonrpc: '2.0', id: 1, method: 'avm.Echo' }, {})) as any;
    assert.equal(upper.error.message, 'method must start with a non-uppercase letter');
    const noDot = (await ep.handle({ jsonrpc: '2.0', id: 1, method: 'echo' }, {})) as any;
    assert.match(noDot.error.message, /ill-formed/);
    const badVersion = (await ep.handle({ jsonrpc: '1.0', id: 1, method: 'avm.echo' }, {})) as any;
    assert.equal(badVersion.error.code, -32600);
  });

  it('rejects params of the wrong type without running the handler', async () => {
    const r = (await avalanche().handle(
      { jsonrpc: '2.0', id: 1, method: 'avm.echo', params: { height: -1 } },
      {},
    )) as any;
    assert.match(r.error.message, /couldn't unmarshal an argument/);
  });

  it('sends nothing for a notification', async () => {
    assert.equal(await avalanche().handle({ jsonrpc: '2.0', method: 'avm.echo' }, {}), undefined);
  });

  it('sends nothing for a batch of notifications only, and only the calls of a mixed one', async () => {
    const note = { jsonrpc: '2.0', method: 'avm.echo' };
    assert.equal(await avalanche().handle([note, note], {}), undefined);
    const mixed = (await avalanche().handle([note, { ...note, id: 4 }], {})) as any[];
    assert.deepEqual(
      mixed.map((r) => r.id),
      [4],
    );
  });
});

describe('EvmEndpoint', () => {
  const ep = new EvmEndpoint('test')
    .register('eth_chainId', () => '0xa868')
    .register('eth_fail', () => {
      throw new RpcError(3, 'execution reverted', '0x08c379a0');
    });

  it('answers unknown methods with -32601', async () => {
    const r = (await ep.handle({ jsonrpc: '2.0', id: 7, method: 'eth_nope', params: [] }, {})) as any;
    assert.deepEqual(r, {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'the method eth_nope does not exist/is not available' },
    });
  });

  it('runs batches of up to 40 and refuses larger ones whole', async () => {
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }));
    const ok = (await ep.handle(batch(40), {})) as any[];
    assert.equal(ok.length, 40);
    const big = (await ep.handle(batch(41), {})) as any[];
    assert.equal(big.length, 1);
    assert.equal(big[0].error.code, -32600);
    assert.equal(big[0].error.message, 'batch too large');
    const empty = (await ep.handle([], {})) as any;
    assert.equal(empty.error.message, 'empty batch');
  });

  it('keeps error data and refuses non-array params', async () => {
    const r = (await ep.handle({ jsonrpc: '2.0', id: 1, method: 'eth_fail', params: [] }, {})) as any;
    assert.deepEqual(r.error, { code: 3, message: 'execution reverted', data: '0x08c379a0' });
    const obj = (await ep.handle(
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: { a: 1 } },
      {},
    )) as any;
    assert.equal(obj.error.code, -32602);
  });
});
