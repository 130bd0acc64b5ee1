import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseOptions, UsageError } from './options.js';

describe('parseOptions', () => {
  it('answers --help of every role, the indexer without --node-url included', () => {
    for (const command of ['start', 'node', 'indexer', 'api'])
      assert.equal(parseOptions([command, '--help'], {}).help, true, command);
    assert.throws(() => parseOptions(['indexer'], {}), UsageError);
  });

  it('takes help and version as commands too', () => {
    assert.equal(parseOptions(['help'], {}).help, true);
    assert.equal(parseOptions(['version'], {}).version, true);
    assert.throws(() => parseOptions(['helpme'], {}), /unknown command "helpme"/);
  });

  it('reads FLURRY_<FLAG>, a flag winning over its variable, and refuses bad values', () => {
    const env = { FLURRY_DATA_PORT: '1234', FLURRY_WORKERS: '3', FLURRY_NODE_URL: 'http://n:9650' };
    const o = parseOptions(['indexer'], env);
    assert.equal(o.dataPort, 1234);
    assert.equal(o.workers, 3);
    assert.equal(parseOptions(['api', '--data-port', '99'], env).dataPort, 99);
    assert.throws(() => parseOptions(['api', '--node-port', '70000'], {}), /between 0 and 65535/);
    assert.throws(() => parseOptions(['api', '--workers=-1'], {}), /whole number/);
    assert.throws(() => parseOptions(['api', '--bogus'], {}), UsageError);
    assert.throws(() => parseOptions(['api', '--log-level', 'bogus'], {}), /--log-level must be one of/);
    assert.equal(parseOptions(['api'], { FLURRY_LOG_LEVEL: 'fatal' }).logLevel, 'fatal');
  });

  it('takes the EVM pool limits as coreth names them, its defaults when unset, and refuses 0', () => {
    assert.deepEqual(parseOptions([], {}).txPool, {
      accountSlots: 16,
      globalSlots: 5120,
      accountQueue: 64,
      globalQueue: 1024,
    });
    const o = parseOptions(['--tx-pool-account-queue', '3', '--tx-pool-global-slots', '8'], {
      FLURRY_TX_POOL_GLOBAL_QUEUE: '5',
    });
    assert.deepEqual(o.txPool, { accountSlots: 16, globalSlots: 8, accountQueue: 3, globalQueue: 5 });
    assert.throws(
      () => parseOptions(['--tx-pool-account-slots', '0'], {}),
      /--tx-pool-account-slots must be between 1 and 1000000, got 0/,
    );
  });
});
