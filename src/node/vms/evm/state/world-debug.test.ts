import assert from 'node:assert/strict';
import tty from 'node:tty';
import { describe, it } from 'node:test';
import createDebug from 'debug';
import { createEvmCommon } from '../common.js';
import { stateManagerAt } from './world.js';
import type { TrieDb } from './trie-db.js';

describe('state views and the engine loggers', () => {
  it('making state views does not ask whether stderr is a terminal for each of their loggers', () => {
    const common = createEvmCommon(43112);
    const isatty = tty.isatty;
    let asked = 0;
    tty.isatty = (fd: number) => {
      asked++;
      return isatty(fd);
    };
    try {
      for (let i = 0; i < 10; i++) stateManagerAt(common, {} as TrieDb, new Uint8Array(32).fill(i));
    } finally {
      tty.isatty = isatty;
    }
    assert.equal(asked, 0);
  });

  it('a new logger colours its output as debug decided for stderr', () => {
    const wanted =
      'colors' in (createDebug as unknown as { inspectOpts: object }).inspectOpts
        ? Boolean((createDebug as unknown as { inspectOpts: { colors?: unknown } }).inspectOpts.colors)
        : tty.isatty(process.stderr.fd);
    assert.equal((createDebug('flurry:test') as { useColors: boolean }).useColors, wanted);
  });
});
