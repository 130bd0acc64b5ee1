/**
 * geth's JavaScript tracers on the C-chain (coreth ships eth/tracers/js): a `tracer` that names
 * no built-in tracer is JavaScript whose `step`, `fault`, `enter`/`exit` and `result` follow the
 * run, reading the `log`, `db`, frame and `ctx` objects and geth's helpers, in a sandbox without
 * the node's objects, under the trace's timeout; code that does not evaluate, that throws or that
 * runs too long answers in geth's words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFunctionData, parseEther, type Hex } from 'viem';
import { cChainSuite, EWOQ } from '../helpers/cchain-clients.js';
import { rpc } from '../helpers/devnet.js';
import { compileSolidity } from '../helpers/evm-contracts.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Store {
  uint256 public n;
  function set(uint256 v) external { n = v; }
}
contract Poker {
  Store public store;
  constructor(Store s) { store = s; }
  function poke(uint256 v) external payable {
    store.set(v);
    try this.fail() {} catch {}
  }
  function fail() external pure { revert("no"); }
}
contract Factory {
  function make() external { new Store(); new Store{salt: bytes32(uint256(1))}(); }
}`;

/** The example from geth's documentation: every opcode's name. */
const OPCODES = `{data: [], step: function(log, db) { this.data.push(log.op.toString()) },
  fault: function() {}, result: function() { return this.data }}`;

/** Frames, faults, a slot read before SSTORE writes it, and what result() sees. */
const WATCHER = `{
  frames: [], faults: [], steps: 0,
  setup: function(cfg) { this.cfg = JSON.parse(cfg) },
  enter: function(f) {
    var v = f.getValue();
    this.frames.push({ type: f.getType(), from: toHex(f.getFrom()), to: toHex(f.getTo()),
      input: toHex(f.getInput()), gas: f.getGas(), value: v === undefined ? null : v.toString() });
  },
  exit: function(r) {
    this.frames.push({ gasUsed: r.getGasUsed(), output: toHex(r.getOutput()), error: r.getError() || null });
  },
  fault: function(log, db) {
    this.faults.push({ op: log.op.toString(), error: log.getError(), depth: log.getDepth() });
  },
  step: function(log, db) {
    this.steps++;
    // The step after SSTORE reads the slot it wrote.
    if (this.sstore && this.sstore.after === undefined)
      this.sstore.after = toHex(db.getState(toAddress(this.sstore.contract), toWord('0x00')));
    if (log.op.toString() !== 'SSTORE') return;
    var slot = toWord('0x' + log.stack.peek(0).toString(16));
    this.sstore = { contract: toHex(log.contract.getAddress()), caller: toHex(log.contract.getCaller()),
      input: toHex(log.contract.getInput()), value: log.contract.getValue().toString(),
      before: toHex(db.getState(log.contract.getAddress(), slot)), written: log.stack.peek(1).toJSNumber(),
      depth: log.getDepth(), isPush: log.op.isPush(), stackLength: log.stack.length() };
  },
  result: function(ctx, db) {
    return { cfg: this.cfg, frames: this.frames, faults: this.faults, sstore: this.sstore, steps: this.steps,
      type: ctx.type, from: toHex(ctx.from), to: toHex(ctx.to), input: toHex(ctx.input), gas: ctx.gas,
      gasUsed: ctx.gasUsed, value: ctx.value.toString(), block: ctx.block, output: toHex(ctx.output),
      error: ctx.error === undefined ? null : ctx.error, txHash: toHex(ctx.txHash), txIndex: ctx.txIndex,
      blockHash: toHex(ctx.blockHash), nonce: db.getNonce(ctx.from), balance: db.getBalance(ctx.from).toString(),
      exists: [db.exists(ctx.to), db.exists(toAddress('0xdead'))], codeSize: db.getCode(ctx.to).length,
      made: toHex(toContract(ctx.from, 0)), precompiled: [isPrecompiled('0x01'), isPrecompiled(ctx.to)],
      selector: toHex(slice(ctx.input, 0, 4)), sum: bigInt(2).pow(70).add(ctx.value).toString(16) };
  }
}`;

describe('C-chain JavaScript tracers', () => {
  const suite = cChainSuite();
  const artifacts = compileSolidity('JsTraced.sol', SOURCE, 'cancun');
  const state = {} as { store: Hex; poker: Hex; hash: Hex; block: Hex; blockHash: Hex };

  it('deploys a contract that calls another and pokes it', async () => {
    const { client, wallet } = suite;
    const storeTx = await wallet.deployContract({
      abi: artifacts.Store.abi,
      bytecode: artifacts.Store.bytecode,
    });
    state.store = (await client.waitForTransactionReceipt({ hash: storeTx })).contractAddress as Hex;
    const pokerTx = await wallet.deployContract({
      abi: artifacts.Poker.abi,
      bytecode: artifacts.Poker.bytecode,
      args: [state.store],
    });
    state.poker = (await client.waitForTransactionReceipt({ hash: pokerTx })).contractAddress as Hex;
    const poke = async (v: bigint, value: bigint) =>
      client.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: state.poker,
          abi: artifacts.Poker.abi,
          functionName: 'poke',
          args: [v],
          value,
        }),
      });
    await poke(5n, 0n);
    const receipt = await poke(7n, parseEther('0.001'));
    state.hash = receipt.transactionHash;
    assert.equal(receipt.status, 'success');
    state.block = `0x${receipt.blockNumber.toString(16)}`;
    state.blockHash = receipt.blockHash;
  });

  it('runs a step tracer over every opcode the struct logger sees', async () => {
    const { url } = suite;
    const traced = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: OPCODES }]);
    const logs = (await rpc(url, 'debug_traceTransaction', [state.hash, {}])).body.result.structLogs;
    assert.deepEqual(
      traced.body.result,
      logs.map((l: { op: string }) => l.op),
    );
    assert.ok(traced.body.result.includes('SSTORE'));
  });

  it('gives the tracer frames, faults, the state at each step and the transaction context', async () => {
    const { url, client } = suite;
    const config = { tracer: WATCHER, tracerConfig: { label: 'watch' } };
    const traced = await rpc(url, 'debug_traceTransaction', [state.hash, config]);
    assert.equal(traced.body.error, undefined);
    const out = traced.body.result;
    const calls = (await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: 'callTracer' }])).body
      .result;
    const receipt = await client.getTransactionReceipt({ hash: state.hash });
    const tx = await client.getTransaction({ hash: state.hash });
    const lower = (a: string) => a.toLowerCase();
    assert.deepEqual(out.cfg, { label: 'watch' });
    // enter/exit pairs match the call tracer's inner frames: set() and the failing fail().
    const [setCall, failCall] = calls.calls;
    assert.equal(failCall.type, 'STATICCALL');
    assert.deepEqual(out.frames, [
      {
        type: 'CALL',
        from: lower(state.poker),
        to: lower(state.store),
        input: setCall.input,
        gas: Number(setCall.gas),
        value: '0',
      },
      { gasUsed: Number(setCall.gasUsed), output: '0x', error: null },
      // fail() is pure: Solidity calls it with STATICCALL, which carries no value.
      {
        type: 'STATICCALL',
        from: lower(state.poker),
        to: lower(state.poker),
        input: failCall.input,
        gas: Number(failCall.gas),
        value: null,
      },
      { gasUsed: Number(failCall.gasUsed), output: failCall.output, error: 'execution reverted' },
    ]);
    // The REVERT in fail() is the one opcode that failed, one call down.
    assert.deepEqual(out.faults, [{ op: 'REVERT', error: 'execution reverted', depth: 2 }]);
    // At SSTORE the slot still holds the first poke's 5; 7 is being written, in Store, by Poker.
    assert.deepEqual(out.sstore, {
      contract: lower(state.store),
      caller: lower(state.poker),
      input: setCall.input,
      value: '0',
      before: `0x${'5'.padStart(64, '0')}`,
      after: `0x${'7'.padStart(64, '0')}`,
      written: 7,
      depth: 2,
      isPush: false,
      stackLength: out.sstore.stackLength,
    });
    assert.ok(out.steps > 0);
    const input = encodeFunctionData({ abi: artifacts.Poker.abi, functionName: 'poke', args: [7n] });
    const balance = await client.getBalance({ address: EWOQ, blockNumber: receipt.blockNumber });
    assert.deepEqual(
      { ...out, frames: undefined, faults: undefined, sstore: undefined, steps: undefined, cfg: undefined },
      {
        frames: undefined,
        faults: undefined,
        sstore: undefined,
        steps: undefined,
        cfg: undefined,
        type: 'CALL',
        from: lower(EWOQ),
        to: lower(state.poker),
        input,
        gas: Number(tx.gas),
        gasUsed: Number(receipt.gasUsed),
        value: parseEther('0.001').toString(),
        block: Number(receipt.blockNumber),
        output: '0x',
        error: null,
        txHash: state.hash,
        txIndex: receipt.transactionIndex,
        blockHash: receipt.blockHash,
        nonce: tx.nonce + 1,
        balance: balance.toString(),
        exists: [true, false],
        codeSize: (await client.getCode({ address: state.poker }))!.length / 2 - 1,
        made: out.made,
        precompiled: [true, false],
        selector: input.slice(0, 10),
        sum: (2n ** 70n + parseEther('0.001')).toString(16),
      },
    );
    // toContract: the address of the sender's first creation (nonce 0), the Store.
    assert.equal(out.made, lower(state.store));
  });

  it('traces a block and a call with a JavaScript tracer', async () => {
    const { url } = suite;
    const block = await rpc(url, 'debug_traceBlockByNumber', [state.block, { tracer: OPCODES }]);
    const single = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: OPCODES }]);
    assert.deepEqual(block.body.result, [{ txHash: state.hash, result: single.body.result }]);
    const byHash = await rpc(url, 'debug_traceBlockByHash', [state.blockHash, { tracer: OPCODES }]);
    assert.deepEqual(byHash.body.result, block.body.result);
    // A call: no block hash or transaction in ctx; the read-only n() returns 7.
    const call = await rpc(url, 'debug_traceCall', [
      {
        from: EWOQ,
        to: state.store,
        data: encodeFunctionData({ abi: artifacts.Store.abi, functionName: 'n' }),
      },
      'latest',
      {
        tracer: `{fault: function() {}, result: function(ctx, db) {
          return [ctx.type, toHex(ctx.output), ctx.txHash === undefined, ctx.blockHash === undefined] }}`,
      },
    ]);
    assert.deepEqual(call.body.result, ['CALL', `0x${'7'.padStart(64, '0')}`, true, true]);
    // muxTracer looks its names up the same way: JavaScript among them.
    const mux = await rpc(url, 'debug_traceTransaction', [
      state.hash,
      { tracer: 'muxTracer', tracerConfig: { [OPCODES]: null, noopTracer: null } },
    ]);
    assert.deepEqual(mux.body.result, { [OPCODES]: single.body.result, noopTracer: {} });
  });

  it('sees a deployment and the CREATE and CREATE2 frames with the addresses they make', async () => {
    const { url, client, wallet } = suite;
    const deployed = await wallet.deployContract({
      abi: artifacts.Factory.abi,
      bytecode: artifacts.Factory.bytecode,
    });
    const factory = (await client.waitForTransactionReceipt({ hash: deployed })).contractAddress as Hex;
    const context = `{fault: function() {}, result: function(ctx) { return [ctx.type, toHex(ctx.to)] }}`;
    const deployment = await rpc(url, 'debug_traceTransaction', [deployed, { tracer: context }]);
    assert.deepEqual(deployment.body.result, ['CREATE', factory.toLowerCase()]);
    const hash = await wallet.writeContract({
      address: factory,
      abi: artifacts.Factory.abi,
      functionName: 'make',
    });
    await client.waitForTransactionReceipt({ hash });
    const frames = `{calls: [], fault: function() {}, exit: function() {},
      enter: function(f) { this.calls.push([f.getType(), toHex(f.getTo()), toHex(f.getInput()).length]) },
      result: function() { return this.calls }}`;
    const seen = await rpc(url, 'debug_traceTransaction', [hash, { tracer: frames }]);
    const calls = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).body.result
      .calls;
    assert.deepEqual(
      seen.body.result,
      calls.map((c: { type: string; to: string; input: string }) => [c.type, c.to, c.input.length]),
    );
    assert.deepEqual(
      seen.body.result.map((c: string[]) => c[0]),
      ['CREATE', 'CREATE2'],
    );
  });

  it("answers code that does not evaluate with the evaluation's error", async () => {
    const { url } = suite;
    const syntax = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: '{step: function( {}' }]);
    assert.equal(syntax.body.error.code, -32000);
    assert.match(syntax.body.error.message, /^SyntaxError: /);
    // A name geth has no tracer for is JavaScript too: an unknown identifier.
    const unknown = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: 'nopeTracer' }]);
    assert.deepEqual(unknown.body.error, {
      code: -32000,
      message: 'ReferenceError: nopeTracer is not defined at <eval>:1:2',
    });
    const noResult = await rpc(url, 'debug_traceTransaction', [
      state.hash,
      { tracer: '{fault: function() {}}' },
    ]);
    assert.equal(noResult.body.error.message, 'trace object must expose a function result()');
    const halfFrames = await rpc(url, 'debug_traceTransaction', [
      state.hash,
      { tracer: '{fault: function() {}, result: function() {}, enter: function() {}}' },
    ]);
    assert.equal(
      halfFrames.body.error.message,
      'trace object must expose either both or none of enter() and exit()',
    );
    // In a block trace each transaction's trace fails, not the request.
    const block = await rpc(url, 'debug_traceBlockByNumber', [state.block, { tracer: 'nopeTracer' }]);
    assert.deepEqual(block.body.result, [{ txHash: state.hash, error: unknown.body.error.message }]);
  });

  it('answers a tracer that throws with its error and the function it was in', async () => {
    const { url } = suite;
    const throwing = `{step: function(log) { if (log.op.toString() === 'SSTORE') throw new Error('boom') },
      fault: function() {}, result: function() { return 1 }}`;
    const thrown = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: throwing }]);
    assert.equal(thrown.body.error.code, -32000);
    assert.match(
      thrown.body.error.message,
      /^Error: boom at step \(<eval>:1:\d+\) {4}in server-side tracer function 'step'$/,
    );
    // A helper's bad argument stops the tracer even when its code catches the error.
    const caught = `{fault: function() {}, result: function() { try { return toHex('0x00') } catch (e) { return 'caught' } }}`;
    const refused = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: caught }]);
    assert.match(
      refused.body.error.message,
      /^invalid buffer type at result \(<eval>:1:\d+\) {4}in server-side tracer function 'result'$/,
    );
    const peek = `{step: function(log) { log.stack.peek(log.stack.length()) }, fault: function() {}, result: function() {}}`;
    const outOfBounds = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: peek }]);
    assert.match(
      outOfBounds.body.error.message,
      /^tracer accessed out of bound stack: size 0, index 0 at step /,
    );
    const block = await rpc(url, 'debug_traceBlockByNumber', [state.block, { tracer: throwing }]);
    assert.deepEqual(block.body.result, [{ txHash: state.hash, error: thrown.body.error.message }]);
  });

  it("stops a tracer at the trace's timeout", async () => {
    const { url } = suite;
    const spinning = `{step: function() { while (true) {} }, fault: function() {}, result: function() { return 0 }}`;
    const config = { tracer: spinning, timeout: '200ms' };
    const cut = await rpc(url, 'debug_traceTransaction', [state.hash, config]);
    assert.deepEqual(cut.body.error, {
      code: -32000,
      message: "execution timeout    in server-side tracer function 'step'",
    });
    const slowResult = `{fault: function() {}, result: function() { for (;;) {} }}`;
    const stuck = await rpc(url, 'debug_traceTransaction', [
      state.hash,
      { tracer: slowResult, timeout: '200ms' },
    ]);
    assert.equal(stuck.body.error.message, "execution timeout    in server-side tracer function 'result'");
    const block = await rpc(url, 'debug_traceBlockByNumber', [state.block, config]);
    assert.deepEqual(block.body.result, [{ txHash: state.hash, error: cut.body.error.message }]);
    const call = await rpc(url, 'debug_traceCall', [{ from: EWOQ, to: state.store }, 'latest', config]);
    assert.deepEqual(call.body.error, cut.body.error);
  });

  it("keeps the node's objects out of the tracer's reach", async () => {
    const { url } = suite;
    const probe = `{fault: function() {}, result: function(ctx, db) {
      return [typeof require, typeof process, typeof setTimeout, typeof globalThis.process,
        toHex.constructor('return typeof process')(), db.getBalance.constructor('return typeof require')()] }}`;
    const out = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: probe }]);
    assert.deepEqual(out.body.result, Array(6).fill('undefined'));
    // Replacing the globals the node's side of the sandbox relies on changes nothing.
    const tamper = `{setup: function() { JSON.stringify = function() { return '{' }; JSON.parse = null },
      fault: function() {}, result: function() { return [1, 'two'] }}`;
    const tampered = await rpc(url, 'debug_traceTransaction', [state.hash, { tracer: tamper }]);
    assert.deepEqual(tampered.body.result, [1, 'two']);
  });
});
