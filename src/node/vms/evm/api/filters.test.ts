import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { AcceptedBlock, EvmChain } from '../evm-chain.js';
import type { StoredLog } from '../state/chain-store.js';
import { createFilterApi } from './filters.js';

/** Stands in for the chain: polling filters only listen to its events. */
function fakeChain(): EventEmitter {
  return new EventEmitter();
}

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

function block(number: bigint, logs: StoredLog[]): AcceptedBlock {
  return { number, hash: bytes(32, 0xbb), header: {} as never, txHashes: [], logs };
}

function log(logIndex: number, topic: number): StoredLog {
  return {
    blockNumber: 7n,
    logIndex,
    txIndex: 0,
    txHash: bytes(32, 0xaa),
    address: bytes(20, 0x11),
    topics: [bytes(32, topic)],
    data: bytes(4, logIndex),
  };
}

/** Calls the filter API's handlers as the endpoint would, over HTTP (no connection). */
function caller(api: ReturnType<typeof createFilterApi>) {
  return async (method: string, params: unknown[]) => (await api.handlers[method](params, {})) as unknown;
}

describe('polling log filters', () => {
  it('filters matching the same log hold one shared log object, not a copy each', async () => {
    const chain = fakeChain();
    const api = createFilterApi(chain as unknown as EvmChain);
    try {
      const call = caller(api);
      const all = (await call('eth_newFilter', [{}])) as string;
      const second = (await call('eth_newFilter', [{}])) as string;
      const onlyTopic2 = (await call('eth_newFilter', [{ topics: [`0x${'02'.repeat(32)}`] }])) as string;
      chain.emit('block', block(7n, [log(0, 1), log(1, 2)]));

      const a = (await call('eth_getFilterChanges', [all])) as Record<string, unknown>[];
      const b = (await call('eth_getFilterChanges', [second])) as Record<string, unknown>[];
      const c = (await call('eth_getFilterChanges', [onlyTopic2])) as Record<string, unknown>[];
      assert.deepEqual(
        a.map((l) => l.logIndex),
        ['0x0', '0x1'],
      );
      assert.deepEqual(
        c.map((l) => l.logIndex),
        ['0x1'],
      );
      // Memory per filter is a reference per matched log: a thousand idle filters over a busy
      // chain held a thousand copies of every log until they timed out.
      assert.equal(a[0], b[0]);
      assert.equal(a[1], b[1]);
      assert.equal(a[1], c[0]);
      assert.deepEqual(await call('eth_getFilterChanges', [all]), []);
    } finally {
      api.close();
    }
  });
});

describe('polling filter expiry', () => {
  it("expires a log filter polled only by eth_getFilterLogs, as geth's deadline is reset by eth_getFilterChanges alone", async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
    // eth_getFilterLogs runs the filter's range against the store: an empty chain at height 0.
    const chain = Object.assign(fakeChain(), {
      latest: { number: 0n },
      store: { queryLogsHex: () => [] },
    });
    const api = createFilterApi(chain as unknown as EvmChain);
    try {
      const call = caller(api);
      const readLogsOnly = (await call('eth_newFilter', [{}])) as string;
      const polled = (await call('eth_newFilter', [{}])) as string;
      // At minutes 2 and 4, one filter is read whole, the other asked for its changes; at 6
      // (and the sweep after), only the one asked for its changes is left.
      for (let minute = 2; minute <= 4; minute += 2) {
        t.mock.timers.tick(2 * 60_000);
        assert.deepEqual(await call('eth_getFilterLogs', [readLogsOnly]), []);
        assert.deepEqual(await call('eth_getFilterChanges', [polled]), []);
      }
      t.mock.timers.tick(2 * 60_000);
      await assert.rejects(call('eth_getFilterChanges', [readLogsOnly]), { message: 'filter not found' });
      assert.deepEqual(await call('eth_getFilterChanges', [polled]), []);
    } finally {
      api.close();
    }
  });
});
