/**
 * A trace config with a wrong type is refused as coreth refuses it: a TraceConfig field by the
 * RPC layer (-32602, `invalid argument N: json: cannot unmarshal …` naming the Go field), a
 * tracer's `tracerConfig` field by the tracer's own json.Unmarshal (-32000, its bare words).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvmChain } from '../evm-chain.js';
import { RpcError } from '../../../rpc/errors.js';
import { createDebugApi } from './debug.js';

const TX = `0x${'ab'.repeat(32)}`;

/**
 * A chain that knows one transaction and its block. The block is looked up before the tracer is
 * made (coreth's traceTx makes it once the state is ready), but a refused config never runs it.
 */
const chain = {
  latest: { number: 1n },
  store: {
    txByHash: () => ({ blockNumber: 1n, index: 0 }),
    numberOfHash: () => undefined,
    txsOfBlock: () => [],
  },
  headerAt: () => ({ header: { number: 1n, timestamp: 1n }, hash: new Uint8Array(32) }),
  executionHeaderOf: (header: unknown) => header,
  executionBlock: () => ({}),
} as unknown as EvmChain;
const api = createDebugApi(chain);

async function refusal(method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    await api[method](params, {} as never);
  } catch (err) {
    assert.ok(err instanceof RpcError, String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail(`${method} accepted ${JSON.stringify(params)}`);
}

describe('debug_trace* config types', () => {
  it("refuses a TraceConfig field of the wrong type in the RPC layer's words", async () => {
    const cases: [unknown, string][] = [
      [
        { disableStorage: 'yes' },
        'json: cannot unmarshal string into Go struct field TraceConfig.Config.DisableStorage of type bool',
      ],
      [
        { enableMemory: 1 },
        'json: cannot unmarshal number into Go struct field TraceConfig.Config.EnableMemory of type bool',
      ],
      [
        { limit: '10' },
        'json: cannot unmarshal string into Go struct field TraceConfig.Config.Limit of type int',
      ],
      [
        { limit: 1.5 },
        'json: cannot unmarshal number 1.5 into Go struct field TraceConfig.Config.Limit of type int',
      ],
      [{ tracer: 7 }, 'json: cannot unmarshal number into Go struct field TraceConfig.Tracer of type string'],
      [
        { timeout: 5 },
        'json: cannot unmarshal number into Go struct field TraceConfig.Timeout of type string',
      ],
      [
        { reexec: -1 },
        'json: cannot unmarshal number -1 into Go struct field TraceConfig.Reexec of type uint64',
      ],
      // Go matches a key to its field whatever its case.
      [
        { DisableStack: [] },
        'json: cannot unmarshal array into Go struct field TraceConfig.Config.DisableStack of type bool',
      ],
      ['callTracer', 'json: cannot unmarshal string into Go value of type tracers.TraceConfig'],
      [[], 'json: cannot unmarshal array into Go value of type tracers.TraceConfig'],
    ];
    for (const [cfg, message] of cases)
      assert.deepEqual(await refusal('debug_traceTransaction', [TX, cfg]), {
        code: -32602,
        message: `invalid argument 1: ${message}`,
      });
    // The first wrong field in the object is the one named.
    assert.deepEqual(await refusal('debug_traceBlockByNumber', ['0x1', { limit: true, disableStack: 'x' }]), {
      code: -32602,
      message:
        'invalid argument 1: json: cannot unmarshal bool into Go struct field TraceConfig.Config.Limit of type int',
    });
    assert.deepEqual(await refusal('debug_traceBlockByHash', [TX, { enableReturnData: 'no' }]), {
      code: -32602,
      message:
        'invalid argument 1: json: cannot unmarshal string into Go struct field TraceConfig.Config.EnableReturnData of type bool',
    });
    // debug_traceCall's TraceCallConfig embeds the TraceConfig.
    assert.deepEqual(await refusal('debug_traceCall', [{}, 'latest', { disableStorage: 0 }]), {
      code: -32602,
      message:
        'invalid argument 2: json: cannot unmarshal number into Go struct field TraceCallConfig.TraceConfig.Config.DisableStorage of type bool',
    });
    assert.deepEqual(await refusal('debug_traceCall', [{}, 'latest', 'x']), {
      code: -32602,
      message:
        'invalid argument 2: json: cannot unmarshal string into Go value of type tracers.TraceCallConfig',
    });
  });

  it("refuses a tracerConfig field of the wrong type in the tracer's json.Unmarshal words", async () => {
    const cases: [unknown, string][] = [
      [
        { tracer: 'prestateTracer', tracerConfig: { diffMode: 'yes' } },
        'json: cannot unmarshal string into Go struct field prestateTracerConfig.diffMode of type bool',
      ],
      [
        { tracer: 'callTracer', tracerConfig: { onlyTopCall: 1 } },
        'json: cannot unmarshal number into Go struct field callTracerConfig.onlyTopCall of type bool',
      ],
      [
        { tracer: 'callTracer', tracerConfig: { withLog: 'x' } },
        'json: cannot unmarshal string into Go struct field callTracerConfig.withLog of type bool',
      ],
      [
        { tracer: 'callTracer', tracerConfig: 'x' },
        'json: cannot unmarshal string into Go value of type native.callTracerConfig',
      ],
      [
        { tracer: 'prestateTracer', tracerConfig: [true] },
        'json: cannot unmarshal array into Go value of type native.prestateTracerConfig',
      ],
      [
        { tracer: 'flatCallTracer', tracerConfig: { includePrecompiles: 'true' } },
        'json: cannot unmarshal string into Go struct field flatCallTracerConfig.includePrecompiles of type bool',
      ],
      [
        { tracer: 'muxTracer', tracerConfig: 3 },
        'json: cannot unmarshal number into Go value of type map[string]json.RawMessage',
      ],
      [
        { tracer: 'muxTracer', tracerConfig: { callTracer: { withLog: 'x' } } },
        'json: cannot unmarshal string into Go struct field callTracerConfig.withLog of type bool',
      ],
    ];
    for (const [cfg, message] of cases)
      assert.deepEqual(await refusal('debug_traceTransaction', [TX, cfg]), { code: -32000, message });
    assert.deepEqual(
      await refusal('debug_traceCall', [
        {},
        'latest',
        { tracer: 'callTracer', tracerConfig: { onlyTopCall: 'x' } },
      ]),
      {
        code: -32000,
        message:
          'json: cannot unmarshal string into Go struct field callTracerConfig.onlyTopCall of type bool',
      },
    );
  });
});
