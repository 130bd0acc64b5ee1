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
    const o = parseOptions(['api'], env);
    assert.equal(o.dataPort, 1234);
    assert.equal(o.workers, 3);
    assert.equal(o.nodeUrl, 'http://n:9650');
    assert.equal(parseOptions(['api', '--data-port', '99'], env).dataPort, 99);
    assert.throws(() => parseOptions(['node', '--node-port', '70000'], {}), /between 0 and 65535/);
    assert.throws(() => parseOptions(['api', '--workers=-1'], {}), /whole number/);
    assert.throws(() => parseOptions(['api', '--bogus'], {}), UsageError);
    assert.throws(() => parseOptions(['api', '--log-level', 'bogus'], {}), /--log-level must be one of/);
    assert.equal(parseOptions(['api'], { FLURRY_LOG_LEVEL: 'fatal' }).logLevel, 'fatal');
  });

  it("refuses a flag its role does not read, but never that flag's variable", () => {
    const refused = (argv: string[]) => {
      try {
        parseOptions(argv, {});
      } catch (err) {
        assert.ok(err instanceof UsageError);
        return { message: err.message, usage: err.usage.split('\n')[0] };
      }
      assert.fail(`${argv.join(' ')} was taken`);
    };
    assert.deepEqual(refused(['node', '--data-port', '1']), {
      message: '--data-port is not an option of the node command',
      usage: 'Usage: flurry node [options]',
    });
    assert.equal(refused(['api', '--seed', 'x']).message, '--seed is not an option of the api command');
    assert.equal(
      refused(['indexer', '--node-url', 'http://n:9650', '--host', '::']).message,
      '--host is not an option of the indexer command',
    );
    // No command is `start`, which reads its own node and serves no workers.
    assert.equal(refused(['--workers', '2']).message, '--workers is not an option of the start command');
    assert.equal(
      refused(['--node-url', 'http://n:9650']).message,
      '--node-url is not an option of the start command',
    );
    // --help still answers, with that role's help.
    assert.match(parseOptions(['node', '--data-port', '1', '--help'], {}).usage, /^Usage: flurry node/);
    // One environment may set every variable: each role reads its own and ignores the rest.
    const env = {
      FLURRY_NETWORK: 'local',
      FLURRY_SEED: 's',
      FLURRY_VALIDATORS: '3',
      FLURRY_BLOCK_TIME: '0',
      FLURRY_HOST: '127.0.0.1',
      FLURRY_NODE_PORT: '1',
      FLURRY_DATA_PORT: '2',
      FLURRY_METRICS_PORT: '3',
      FLURRY_INDEX_ENABLED: 'true',
      FLURRY_DEBUG_API: 'true',
      FLURRY_PRUNING_ENABLED: 'false',
      FLURRY_MIN_STAKE_DURATION: '60',
      FLURRY_RPC_EVM_TIMEOUT: '10',
      FLURRY_HTTP_READ_TIMEOUT: '10',
      FLURRY_TX_POOL_GLOBAL_SLOTS: '8',
      FLURRY_DATABASE_URL: 'postgres://db/x',
      FLURRY_NODE_URL: 'http://n:9650',
      FLURRY_API_KEYS_FILE: '/keys.json',
      FLURRY_INDEXER_BATCH_SIZE: '5',
      FLURRY_WORKERS: '2',
      FLURRY_LOG_LEVEL: 'warn',
    };
    for (const command of ['start', 'node', 'indexer', 'api'])
      assert.equal(parseOptions([command], env).logLevel, 'warn', command);
    assert.equal(parseOptions(['api'], env).dataPort, 2);
    // A variable the role does not read is not read at all: its default stands, a bad value is no error.
    assert.equal(parseOptions(['node'], env).dataPort, 9700);
    assert.equal(parseOptions(['indexer'], { ...env, FLURRY_VALIDATORS: 'many' }).validators, 5);
  });

  it("prints a named role's help with the options it reads, and everything's without one", () => {
    const options = (usage: string) => [...usage.matchAll(/^ {2}(?:-h, )?--([a-z-]+)/gm)].map((m) => m[1]);
    const node = options(parseOptions(['node', '--help'], {}).usage);
    assert.ok(node.includes('node-port') && node.includes('tx-pool-global-slots'));
    for (const flag of ['data-port', 'metrics-port', 'node-url', 'workers', 'database-url'])
      assert.ok(!node.includes(flag), flag);
    assert.deepEqual(options(parseOptions(['indexer', '--help'], {}).usage), [
      'data-dir',
      'reset',
      'log-level',
      'json',
      'database-url',
      'node-url',
      'indexer-batch-size',
      'version',
      'help',
    ]);
    const api = options(parseOptions(['api', '-h'], {}).usage);
    assert.ok(api.includes('workers') && !api.includes('seed'));
    const all = options(parseOptions(['--help'], {}).usage);
    assert.equal(all.length, 32);
    assert.equal(parseOptions(['help'], {}).usage, parseOptions(['--help'], {}).usage);
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
