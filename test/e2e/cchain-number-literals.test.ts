/**
 * JSON numbers in EVM arguments that Go decodes into integers: encoding/json reads the literal the
 * client sent (strconv.ParseInt/ParseUint), so `1e3`, `1.0` and an unsigned `-0` are refused and
 * quoted as written, and every uint64 is taken exactly. The bodies are sent as text: JSON.stringify
 * would rewrite the literals.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import WebSocket from 'ws';
import { cChainSuite } from '../helpers/cchain-clients.js';

const ZERO_HASH = '0x' + '00'.repeat(32);
const CONTRACT = '0x' + '00'.repeat(19) + 'cc';

describe('C-chain integer arguments sent as JSON number literals', () => {
  const suite = cChainSuite();

  /** One call whose params are written as raw JSON text; the parsed reply. */
  const raw = async (method: string, params: string) => {
    const res = await fetch(suite.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`,
    });
    return (await res.json()) as { result?: any; error?: { code: number; message: string } };
  };
  const refusal = async (method: string, params: string) => {
    const { error } = await raw(method, params);
    return error && { code: error.code, message: error.message };
  };
  const invalid = (message: string) => ({ code: -32602, message });
  const goInt = (i: number, literal: string, type: string) =>
    invalid(`invalid argument ${i}: json: cannot unmarshal number ${literal} into Go value of type ${type}`);

  it('refuses exponents, fractions and an unsigned -0 in Go integer arguments, quoting the literal', async () => {
    for (const literal of ['1e3', '1E3', '1.0', '-0', '1e400', '-0.0e-0', '18446744073709551616'])
      assert.deepEqual(
        await refusal('debug_getModifiedAccountsByNumber', `[${literal}]`),
        goInt(0, literal, 'uint64'),
        literal,
      );
    for (const literal of ['1e2', '1.0', '1e400', '9223372036854775808'])
      assert.deepEqual(
        await refusal('debug_accountRange', `["latest","0x",${literal},true,true,false]`),
        goInt(2, literal, 'int'),
        literal,
      );
    assert.deepEqual(
      await refusal('debug_storageRangeAt', `["${ZERO_HASH}",1e400,"${CONTRACT}","0x",1]`),
      goInt(1, '1e400', 'int'),
    );
    assert.deepEqual(
      await refusal('debug_storageRangeAt', `["${ZERO_HASH}",0,"${CONTRACT}","0x",2.50]`),
      goInt(4, '2.50', 'int'),
    );
    // warp's quorum numerator is a uint64 too.
    assert.deepEqual(
      await refusal('warp_getMessageAggregateSignature', '[null,6.7e1,""]'),
      goInt(1, '6.7e1', 'uint64'),
    );
    assert.deepEqual(
      await refusal('warp_getMessageAggregateSignature', '[null,1e400,""]'),
      goInt(1, '1e400', 'uint64'),
    );
  });

  it('takes integers Go takes, however large, by their exact value', async () => {
    // A signed int may be -0; past 256 accounts the dump is capped, as coreth's.
    for (const literal of ['-0', '9223372036854775807']) {
      const { result, error } = await raw('debug_accountRange', `["latest","0x",${literal},true,true,false]`);
      assert.equal(error, undefined, literal);
      assert.ok(Object.keys(result.accounts).length > 0, literal);
    }
    // The largest uint64 block number is named exactly (JavaScript would round it to 2^64).
    assert.deepEqual(await refusal('debug_getModifiedAccountsByNumber', '[18446744073709551615]'), {
      code: -32000,
      message: 'start block ffffffffffffffff not found',
    });
  });

  it("reads eth_feeHistory's blockCount number by its literal, as HexOrDecimal64 reads the raw JSON", async () => {
    for (const literal of ['1e3', '1.0', '1e400', '-0', '18446744073709551616'])
      assert.deepEqual(
        await refusal('eth_feeHistory', `[${literal},"latest",[]]`),
        invalid(`invalid argument 0: invalid hex or decimal integer "${literal}"`),
        literal,
      );
    const widest = await raw('eth_feeHistory', '[18446744073709551615,"latest",[]]');
    assert.ok(widest.result.baseFeePerGas.length >= 1);
  });

  it("reads eth_feeHistory's reward percentiles as a Go []float64, quoting a number past float64", async () => {
    const float = (what: string, type = 'float64') =>
      invalid(`invalid argument 2: json: cannot unmarshal ${what} into Go value of type ${type}`);
    const cases: [percentiles: string, error: ReturnType<typeof invalid>][] = [
      ['[1e400]', float('number 1e400')],
      // The first element Go fails on is the one it names.
      ['[10,-1E+400,"a"]', float('number -1E+400')],
      ['[10,"a",1e400]', float('string')],
      ['[[1]]', float('array')],
      ['"10"', float('string', '[]float64')],
      ['{}', float('object', '[]float64')],
    ];
    for (const [percentiles, error] of cases)
      assert.deepEqual(await refusal('eth_feeHistory', `[1,"latest",${percentiles}]`), error, percentiles);
    // A null element is the zero value, a percentile like any other; one too small to hold is 0 too.
    const zeroes = await raw('eth_feeHistory', '[1,"latest",[null,1e-400,50]]');
    assert.equal(zeroes.error?.message, 'invalid reward percentile: #0:0.000000 >= #1:0.000000');
    const taken = await raw('eth_feeHistory', '[1,"latest",[null,50]]');
    assert.equal(taken.result?.reward?.[0]?.length, 2, JSON.stringify(taken));
  });

  it('reads trace config integers by their literal', async () => {
    assert.deepEqual(
      await refusal('debug_traceTransaction', `["${ZERO_HASH}",{"limit":1e3}]`),
      invalid(
        'invalid argument 1: json: cannot unmarshal number 1e3 into Go struct field TraceConfig.Config.Limit of type int',
      ),
    );
    assert.deepEqual(
      await refusal('debug_traceTransaction', `["${ZERO_HASH}",{"reexec":1e400}]`),
      invalid(
        'invalid argument 1: json: cannot unmarshal number 1e400 into Go struct field TraceConfig.Reexec of type uint64',
      ),
    );
  });

  it('finds the literal of each call in a batch and of the last duplicate key', async () => {
    const res = await fetch(suite.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body:
        '[{"jsonrpc":"2.0","id":1,"method":"eth_feeHistory","params":[1e3,"latest",[]]},' +
        '{"jsonrpc":"2.0","id":2,"method":"eth_feeHistory","params":[1,"latest",[]],"params":[2.0,"latest",[]]}]',
    });
    const answers = (await res.json()) as { id: number; error: { message: string } }[];
    assert.deepEqual(
      answers.map((a) => [a.id, a.error?.message]),
      [
        [1, 'invalid argument 0: invalid hex or decimal integer "1e3"'],
        [2, 'invalid argument 0: invalid hex or decimal integer "2.0"'],
      ],
    );
  });

  it('reads literals sent over WebSocket the same way', async () => {
    const socket = new WebSocket(suite.net.facts.urls.cChainWs);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      const reply = new Promise<any>((resolve) =>
        socket.once('message', (m) => resolve(JSON.parse(m.toString()))),
      );
      socket.send('{"jsonrpc":"2.0","id":7,"method":"debug_getModifiedAccountsByNumber","params":[1E3]}');
      assert.deepEqual((await reply).error, goInt(0, '1E3', 'uint64'));
    } finally {
      socket.close();
    }
  });
});
