/**
 * Reading a chain's genesis contracts from its CreateChainTx: which alloc entries count, the
 * encodings `genesisData` may come in, and a node that does not serve the tx (nothing, no error)
 * against one that cannot be reached (thrown, so discovery tries again).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { DataSchema } from '../../store/schema.js';
import { UpstreamInvalidError, UpstreamUnavailableError } from '../../internal/errors.js';
import { NodeRpcError, type NodeClient } from '../../internal/node-client.js';
import { genesisCodeAddresses, readChainGenesis, recordGenesisContracts } from './genesis-contracts.js';
import type { EvmRpcClient } from './rpc-client.js';

const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function nodeAnswering(answer: () => unknown): NodeClient {
  return {
    url: 'http://node',
    async call<T>(path: string, method: string, params?: unknown): Promise<T> {
      assert.equal(path, '/ext/bc/P');
      assert.equal(method, 'platform.getTx');
      assert.deepEqual(params, { txID: 'chain', encoding: 'json' });
      return answer() as T;
    },
  };
}

const untouchedDb = new Proxy({} as Kysely<DataSchema>, {
  get() {
    throw new Error('the store is not read');
  },
});
const untouchedRpc = new Proxy({} as EvmRpcClient, {
  get() {
    throw new Error('the chain is not read');
  },
});

describe('genesis contracts', () => {
  it('takes the alloc entries with code, keys in any spelling, once each, in alloc order', () => {
    const genesis = json({
      config: { chainId: 1 },
      alloc: {
        '8db97c7cece249c2b98bdc0226cc4c2a57bf52fc': { balance: '0x1' },
        ca11bde05977b3631167028862be2a173976ca11: { balance: '0x0', code: '0x6080' },
        '0x0000000000000000000000000000000000C0FFEE': { code: '6001' },
        '0X0000000000000000000000000000000000c0ffee': { code: '0x60' },
        '0x00000000000000000000000000000000000e3e3e': { code: '0x' },
        '0x00000000000000000000000000000000000e3e3f': { code: '' },
        '0x00000000000000000000000000000000000e3e40': { code: '0xzz' },
        '0x1234': { code: '0x60' },
        '0x00000000000000000000000000000000000e3e41': null,
      },
    });
    assert.deepEqual(genesisCodeAddresses(genesis), [
      '0xca11bde05977b3631167028862be2a173976ca11',
      '0x0000000000000000000000000000000000c0ffee',
    ]);
  });

  it('finds nothing in what is not an EVM genesis', () => {
    for (const bytes of [
      new Uint8Array([0, 0, 1, 2]),
      json([1, 2]),
      json(null),
      json({ alloc: [] }),
      json({ config: {} }),
    ])
      assert.deepEqual(genesisCodeAddresses(bytes), []);
  });

  it('reads genesisData as the reference writes a []byte (base64), and 0x-hex', async () => {
    const bytes = json({ alloc: {} });
    for (const genesisData of [
      Buffer.from(bytes).toString('base64'),
      '0x' + Buffer.from(bytes).toString('hex'),
    ])
      assert.deepEqual(
        await readChainGenesis(
          nodeAnswering(() => ({ tx: { unsignedTx: { genesisData } }, encoding: 'json' })),
          'chain',
        ),
        Buffer.from(bytes),
      );
    for (const reply of [{}, { tx: { unsignedTx: {} } }, { tx: { unsignedTx: { genesisData: '%%' } } }])
      assert.equal(
        await readChainGenesis(
          nodeAnswering(() => reply),
          'chain',
        ),
        undefined,
      );
  });

  it("records nothing, and does not fail, where the node does not serve the chain's CreateChainTx", async () => {
    for (const err of [
      new NodeRpcError('platform.getTx', -32000, "couldn't get tx: not found"),
      new UpstreamInvalidError('node answered platform.getTx with HTTP 404 and no JSON-RPC body'),
    ]) {
      const node = nodeAnswering(() => {
        throw err;
      });
      assert.equal(
        await recordGenesisContracts(untouchedDb, node, untouchedRpc, {
          blockchainId: 'chain',
          evmChainId: 1,
        }),
        0,
      );
    }
  });

  it('throws where the node cannot be reached, so discovery tries again later', async () => {
    const node = nodeAnswering(() => {
      throw new UpstreamUnavailableError('node at http://node is unreachable');
    });
    await assert.rejects(
      recordGenesisContracts(untouchedDb, node, untouchedRpc, { blockchainId: 'chain', evmChainId: 1 }),
      UpstreamUnavailableError,
    );
  });
});
