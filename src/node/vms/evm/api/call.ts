/**
 * `eth_call` and `eth_estimateGas`: the call runs as a full transaction (intrinsic gas,
 * refunds) from any sender without a signature, on a throwaway copy of the state at the chosen
 * block, with optional state and block overrides. Reverts become code 3 with the revert data
 * and the decoded `Error(string)` reason, as geth reports them.
 */
import type { Block } from '@ethereumjs/block';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createAccessList2930Tx, createFeeMarket1559Tx, type TypedTransaction } from '@ethereumjs/tx';
import {
  Account,
  Address,
  bytesToHex,
  equalsBytes,
  setLengthLeft,
  toChecksumAddress,
} from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { runTx } from '@ethereumjs/vm';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmChain, ExecutionHeader } from '../evm-chain.js';
import { addressValue, bad, dataValue, quantityValue } from './args.js';
import { revertReason, vmErrorText } from '../vm-errors.js';
import { CallTimeout, withDeadline } from './call-deadline.js';
import { callEnvAt } from './call-env.js';
import { feeCapBelowBaseFee, insufficientFunds, nonceTooHigh, nonceTooLow } from './core-errors.js';
import { admitCodeSender, callFeeCap, checkCallFunds, fundedGas } from './call-sender.js';

/** geth's RPCGasCap default (coreth uses 50M; a call may use more gas than a block holds). */
export const CALL_GAS_CAP = 50_000_000n;
/** The intrinsic gas of a transaction (params.TxGas). */
export const TX_GAS = 21_000n;

/** The gas a call runs with: as given, never above the call gas cap (geth's ToMessage). */
export function callGas(args: CallArgs): bigint {
  return args.gas !== undefined && args.gas < CALL_GAS_CAP ? args.gas : CALL_GAS_CAP;
}

export interface CallArgs {
  from?: Uint8Array;
  to?: Uint8Array;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
  accessList?: { address: string; storageKeys: string[] }[];
  /**
   * Both `data` and `input` given, and different: calls run `input` (geth's args.data()), while
   * setDefaults (sending, signing, filling, access lists) refuses the pair.
   */
  inputConflict?: boolean;
}

/** The message geth's setDefaults refuses `inputConflict` with (-32000). */
export const INPUT_CONFLICT =
  'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data';

export function parseCallArgs(v: unknown, i: number): CallArgs {
  // TransactionArgs is a Go struct: a JSON null leaves every field unset.
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) bad(i, 'json: cannot unmarshal into TransactionArgs');
  const o = v as Record<string, unknown>;
  const out: CallArgs = {};
  if (o.from != null) out.from = addressValue(o.from, i, 'from');
  if (o.to != null) out.to = addressValue(o.to, i, 'to');
  if (o.gas != null) out.gas = quantityValue(o.gas, i, 'gas', 64);
  if (o.gasPrice != null) out.gasPrice = quantityValue(o.gasPrice, i, 'gasPrice');
  if (o.maxFeePerGas != null) out.maxFeePerGas = quantityValue(o.maxFeePerGas, i, 'maxFeePerGas');
  if (o.maxPriorityFeePerGas != null)
    out.maxPriorityFeePerGas = quantityValue(o.maxPriorityFeePerGas, i, 'maxPriorityFeePerGas');
  if (o.value != null) out.value = quantityValue(o.value, i, 'value');
  if (o.nonce != null) out.nonce = quantityValue(o.nonce, i, 'nonce', 64);
  // Both are decoded (a malformed one is refused either way); `input` is the one that runs.
  const dataBytes = o.data != null ? dataValue(o.data, i, 'data') : undefined;
  const inputBytes = o.input != null ? dataValue(o.input, i, 'input') : undefined;
  out.data = inputBytes ?? dataBytes;
  if (inputBytes && dataBytes && !equalsBytes(inputBytes, dataBytes)) out.inputConflict = true;
  if (Array.isArray(o.accessList)) out.accessList = o.accessList as CallArgs['accessList'];
  // Not a decoding error in geth but ToMessage's and setFeeDefaults' refusal: -32000, unprefixed.
  if (
    out.gasPrice !== undefined &&
    (out.maxFeePerGas !== undefined || out.maxPriorityFeePerGas !== undefined)
  )
    throw new RpcError(RpcCode.server, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  return out;
}

export interface StateOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  state?: Map<string, Uint8Array>;
  stateDiff?: Map<string, Uint8Array>;
}

export function parseStateOverrides(v: unknown, i: number): Map<string, StateOverride> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) bad(i, 'json: cannot unmarshal into StateOverride');
  const out = new Map<string, StateOverride>();
  for (const [addr, raw] of Object.entries(v as Record<string, any>)) {
    addressValue(addr, i, 'override address');
    const o: StateOverride = {};
    if (raw.balance != null) o.balance = quantityValue(raw.balance, i, 'balance');
    if (raw.nonce != null) o.nonce = quantityValue(raw.nonce, i, 'nonce', 64);
    if (raw.code != null) o.code = dataValue(raw.code, i, 'code');
    // coreth's StateOverride.Apply refuses this as it applies the overrides: -32000.
    if (raw.state != null && raw.stateDiff != null)
      throw new RpcError(
        RpcCode.server,
        `account ${toChecksumAddress(addr)} has both 'state' and 'stateDiff'`,
      );
    for (const key of ['state', 'stateDiff'] as const) {
      if (raw[key] == null) continue;
      const m = new Map<string, Uint8Array>();
      for (const [slot, value] of Object.entries(raw[key] as Record<string, unknown>))
        m.set(storageKey(slot, i), dataValue(value, i, 'storage value', 32));
      o[key] = m;
    }
    out.set(addr.toLowerCase(), o);
  }
  return out;
}

/**
 * A state override's slot, a `common.Hash` map key in coreth: exactly 32 bytes of hex, so a
 * short `0x1` is refused rather than read as some other slot.
 */
function storageKey(slot: string, i: number): string {
  const hex = /^0x[0-9a-fA-F]*$/.test(slot) ? slot.slice(2) : undefined;
  if (hex === undefined) bad(i, `invalid hex string for storage key ${JSON.stringify(slot)}`);
  if (hex.length !== 64) bad(i, `hex string has length ${hex.length}, want 64 for common.Hash`);
  return '0x' + hex.toLowerCase();
}

/** coreth's BlockOverrides (no `blobBaseFee` here: the chain carries no blobs). */
export interface BlockOverride {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  baseFee?: bigint;
  coinbase?: Uint8Array;
  /** What PREVRANDAO reads, as coreth copies the difficulty into it after the override. */
  difficulty?: bigint;
}

export function parseBlockOverrides(v: unknown, i: number): BlockOverride | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object') bad(i, 'json: cannot unmarshal into BlockOverrides');
  const o = v as Record<string, unknown>;
  // Only the fields given: the overrides are spread over a pending call's next-block values.
  const out: BlockOverride = {};
  if (o.number != null) out.number = quantityValue(o.number, i, 'number');
  if (o.time != null) out.time = quantityValue(o.time, i, 'time', 64);
  if (o.gasLimit != null) out.gasLimit = quantityValue(o.gasLimit, i, 'gasLimit', 64);
  const baseFee = o.baseFee ?? o.baseFeePerGas;
  if (baseFee != null) out.baseFee = quantityValue(baseFee, i, 'baseFee');
  if (o.coinbase != null) out.coinbase = addressValue(o.coinbase, i, 'coinbase');
  if (o.difficulty != null) out.difficulty = quantityValue(o.difficulty, i, 'difficulty');
  return out;
}

/** An unsigned transaction that claims to come from `from` (the engine never checks a signature here). */
export function impersonatedTx(
  chain: EvmChain,
  args: CallArgs,
  gas: bigint,
  nonce: bigint,
): TypedTransaction {
  const common = chain.common;
  const base = {
    nonce,
    gasLimit: gas,
    to: args.to ? new Address(args.to) : undefined,
    value: args.value ?? 0n,
    data: args.data ?? new Uint8Array(),
    // The engine's array form wants bytes; its object form takes the JSON hex as given.
    accessList: args.accessList?.length
      ? (args.accessList.map((e) => ({ address: e.address, storageKeys: e.storageKeys })) as any)
      : [],
  };
  // The type's own constructor, as createTx would pick for these fields (without its checks of
  // which fields are set, a few microseconds per call).
  let tx: TypedTransaction;
  if (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined) {
    const maxFee = args.maxFeePerGas ?? args.maxPriorityFeePerGas!;
    tx = createFeeMarket1559Tx(
      { ...base, type: 2, maxFeePerGas: maxFee, maxPriorityFeePerGas: args.maxPriorityFeePerGas ?? 0n },
      { common, freeze: false },
    );
  } else {
    tx = createAccessList2930Tx(
      { ...base, type: 1, gasPrice: args.gasPrice ?? 0n },
      { common, freeze: false },
    );
  }
  const from = new Address(args.from ?? new Uint8Array(20));
  (tx as any).getSenderAddress = () => from;
  return tx;
}

export interface PreparedCall {
  /**
   * Runs the call with `gas`; with `timeoutMs`, aborts it past that time with CallTimeout
   * (geth's RPCEVMTimeout), after which this prepared call must not run again.
   */
  run(gas: bigint, timeoutMs?: number): Promise<RunTxResult>;
  header: ExecutionHeader;
  vm: VM;
  /** The sender the call runs as (the zero address when it names none), for error messages. */
  from: Uint8Array;
  /** The transaction a run executes (after a first `run`, which fixes the nonce). */
  tx(gas: bigint): TypedTransaction;
  /** The most gas the sender can pay for at the call's fee cap (call-sender.ts). */
  fundedGas(): Promise<bigint | undefined>;
  /** Whether the call only moves value: no input, to an address without code. */
  plainTransfer(): Promise<boolean>;
}

/**
 * Sets up a call at `blockNumber` with overrides applied; each `run` starts clean. `shared`
 * (a plain call with no overrides, whose VM nobody else listens to) runs on the chain's warm
 * environment at that block.
 */
export async function prepareCall(
  chain: EvmChain,
  args: CallArgs,
  blockNumber: bigint,
  stateOverrides?: Map<string, StateOverride>,
  blockOverride?: BlockOverride,
  shared = false,
): Promise<PreparedCall> {
  const found = chain.headerAt(blockNumber);
  if (!found) throw new RpcError(RpcCode.server, 'header not found');
  // geth (NoBaseFee calls): fee fields that are all zero, given or not, skip the fee cap check
  // and run with a zero base fee, as a call without a price (state_transition.go's skipCheck).
  const priced = !!(args.gasPrice || args.maxFeePerGas || args.maxPriorityFeePerGas);
  const header: ExecutionHeader = {
    number: blockOverride?.number ?? found.header.number,
    timestamp: blockOverride?.time ?? found.header.timestamp,
    gasLimit:
      blockOverride?.gasLimit ??
      (found.header.gasLimit > CALL_GAS_CAP ? found.header.gasLimit : CALL_GAS_CAP),
    // Like geth: a call without a price runs with no base fee, whatever an override says.
    baseFeePerGas: priced ? (blockOverride?.baseFee ?? found.header.baseFeePerGas) : 0n,
    coinbase: blockOverride?.coinbase ?? found.header.coinbase,
    difficulty: blockOverride?.difficulty ?? found.header.difficulty,
  };
  const env =
    shared && !stateOverrides?.size && !blockOverride
      ? await callEnvAt(chain, blockNumber, found)
      : undefined;
  let state: MerkleStateManager;
  let vm: VM;
  let block: Block;
  if (env) {
    ({ state, vm } = env);
    block = env.block(header);
  } else {
    state = chain.scratchStateAt(blockNumber);
    await applyStateOverrides(state, stateOverrides);
    vm = await chain.vmFor(state, header.timestamp);
    block = chain.executionBlock(header);
  }
  const exclusive = env ? <T>(fn: () => Promise<T>) => env.exclusive(fn) : <T>(fn: () => Promise<T>) => fn();
  const from = new Address(args.from ?? new Uint8Array(20));
  // Read with the state to itself (a shared state is only consistent between runs).
  let nonce = args.nonce;
  // A fee cap below the base fee is the engine's refusal (with the cap impersonatedTx gives the
  // engine), which geth makes before buyGas's.
  const engineFeeCap = args.gasPrice ?? args.maxFeePerGas ?? args.maxPriorityFeePerGas ?? 0n;
  const feeCapTooLow = priced && engineFeeCap < header.baseFeePerGas;
  // geth's preCheck refuses a tip above the fee cap first of all its fee checks, the fee cap being
  // 0 when only a tip is named (ToMessage); the engine would word it with a dump of the tx, or,
  // given the tip as the cap, run the call.
  const tipAboveCap = priced ? tipAboveCapError(args, from) : undefined;
  return {
    header,
    vm,
    from: from.bytes,
    tx: (gas: bigint) => impersonatedTx(chain, args, gas, nonce ?? 0n),
    fundedGas: () => exclusive(() => fundedGas(state, from, args)),
    plainTransfer: () =>
      exclusive(
        async () =>
          !args.data?.length &&
          args.to !== undefined &&
          (await state.getCode(new Address(args.to))).length === 0,
      ),
    run: (gas: bigint, timeoutMs?: number) =>
      exclusive(async () => {
        const runNonce = (nonce ??= (await state.getAccount(from))?.nonce ?? 0n);
        await state.checkpoint();
        let release = () => {};
        try {
          if (tipAboveCap) throw tipAboveCap;
          if (!feeCapTooLow) await checkCallFunds(state, from, args, gas);
          // Last before runTx: its hook must follow every tracer's.
          release = await admitCodeSender(vm, state, from);
          return await withDeadline(vm, timeoutMs, () =>
            runTx(vm, {
              tx: chain.executableTx(impersonatedTx(chain, args, gas, runNonce), header.timestamp),
              block,
              skipNonce: true,
              // Funds were checked as geth checks a call's (checkCallFunds).
              skipBalance: true,
              skipBlockGasLimitValidation: true,
              skipHardForkValidation: true,
            }),
          );
        } catch (err) {
          // An aborted run leaves the engine's frames open: the warm environment is not reused.
          if (err instanceof CallTimeout) env?.discard();
          throw err;
        } finally {
          release();
          await state.revert();
        }
      }),
  };
}

/** core.ErrTipAboveFeeCap as geth's preCheck words it for a priced call, or undefined. */
function tipAboveCapError(args: CallArgs, from: Address): Error | undefined {
  const feeCap = callFeeCap(args);
  const tip = args.gasPrice ?? args.maxPriorityFeePerGas ?? 0n;
  if (tip <= feeCap) return undefined;
  return new Error(
    `max priority fee per gas higher than max fee per gas: address ${toChecksumAddress(from.toString())}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`,
  );
}

async function applyStateOverrides(
  state: MerkleStateManager,
  stateOverrides: Map<string, StateOverride> | undefined,
): Promise<void> {
  for (const [addr, o] of stateOverrides ?? []) {
    const address = new Address(Buffer.from(addr.slice(2), 'hex'));
    const acct = (await state.getAccount(address)) ?? new Account();
    if (o.balance !== undefined) acct.balance = o.balance;
    if (o.nonce !== undefined) acct.nonce = o.nonce;
    await state.putAccount(address, acct);
    if (o.code !== undefined) await state.putCode(address, o.code);
    if (o.state) await state.clearStorage(address);
    for (const m of [o.state, o.stateDiff]) {
      for (const [slot, value] of m ?? [])
        await state.putStorage(address, setLengthLeft(Buffer.from(slot.slice(2), 'hex'), 32), value);
    }
  }
}

/**
 * How geth words a failed call result (undefined when it succeeded): only a revert with data is
 * code 3, its reason decoded; an empty revert is any other failure, in core/vm's words.
 */
export function callFailure(result: RunTxResult): { code: number; message: string } | undefined {
  const err = result.execResult.exceptionError;
  if (!err) return undefined;
  const data = result.execResult.returnValue;
  if (err.error === 'revert' && data.length > 0) {
    const reason = revertReason(data);
    return {
      code: RpcCode.executionReverted,
      message: reason ? `execution reverted: ${reason}` : 'execution reverted',
    };
  }
  return { code: RpcCode.server, message: vmErrorText(err.error) };
}

/** Throws the geth error for a failed call result (a revert's data with it), or returns its output. */
export function callOutput(result: RunTxResult): Uint8Array {
  const failure = callFailure(result);
  if (!failure) return result.execResult.returnValue;
  const data =
    failure.code === RpcCode.executionReverted ? bytesToHex(result.execResult.returnValue) : undefined;
  throw new RpcError(failure.code, failure.message, data);
}

/**
 * A transaction the engine refused before running it, in geth's words (core/error.go): the
 * engine's own message names its internals and ends with a dump of the block and the tx.
 */
export function gethTxError(err: Error, from: Uint8Array = new Uint8Array(20)): string {
  const text = err.message.split(' (vm hf=')[0].split(' -> ')[0].split('\n')[0];
  const intrinsic = /tx gas limit (\d+) is lower than the minimum gas limit of (\d+)/.exec(text);
  if (intrinsic) return `intrinsic gas too low: have ${intrinsic[1]}, want ${intrinsic[2]}`;
  const funds =
    /upfront cost is: (\d+) and the sender's account \((0x[0-9a-fA-F]{40})\) only has: (\d+)/.exec(text);
  if (funds) return insufficientFunds(toChecksumAddress(funds[2]), funds[3], funds[1]);
  const initCode = /initcode size of this transaction is too large: it is (\d+) while the max is (\d+)/.exec(
    text,
  );
  if (initCode) return `max initcode size exceeded: code size ${initCode[1]} limit ${initCode[2]}`;
  const nonce = /account has nonce of: (\d+) tx has nonce of: (\d+)/.exec(text);
  if (nonce) {
    const [state, tx] = [BigInt(nonce[1]), BigInt(nonce[2])];
    const sender = toChecksumAddress(new Address(from).toString());
    return (tx > state ? nonceTooHigh : nonceTooLow)(sender, tx, state);
  }
  // A legacy gasPrice is geth's fee cap too (ToMessage), refused in the same words.
  const feeCap = /(?:maxFeePerGas|gasPrice) \((\d+)\) is less than the block's baseFeePerGas \((\d+)\)/.exec(
    text,
  );
  if (feeCap)
    return feeCapBelowBaseFee(toChecksumAddress(new Address(from).toString()), feeCap[1], feeCap[2]);
  return text;
}

const isIntrinsicGasError = (err: Error) => /lower than the minimum gas limit/.test(err.message);

/** geth's estimator: a first run at the cap, an optimistic guess, then bisection. */
export async function estimateGas(call: PreparedCall, cap: bigint, intrinsic: bigint): Promise<bigint> {
  const failed = (r: RunTxResult) => r.execResult.exceptionError !== undefined;
  // No more than the sender can pay for at the call's fee cap, as geth's estimator.
  const funded = await call.fundedGas();
  if (funded !== undefined && funded < cap) cap = funded;
  // A plain transfer is tried at exactly 21,000 first, as geth does (bisection would stop
  // within 1.5% above it).
  if (await call.plainTransfer()) {
    const r = await tryRun(call, TX_GAS);
    if (!(r instanceof Error) && !failed(r)) return TX_GAS;
  }
  const first = await tryRun(call, cap);
  // As geth's estimator: too little gas for the intrinsic cost is a failed run, any other refusal
  // is reported with the gas it was tried with.
  if (first instanceof Error && isIntrinsicGasError(first))
    throw new RpcError(RpcCode.server, `gas required exceeds allowance (${cap})`);
  if (first instanceof Error)
    throw new RpcError(RpcCode.server, `failed with ${cap} gas: ${gethTxError(first, call.from)}`);
  if (failed(first)) {
    // geth reports the failure itself (a revert with its data, an invalid opcode, …), but running
    // out of gas at the highest limit as the allowance being too small.
    if (first.execResult.exceptionError?.error !== 'out of gas') callOutput(first);
    throw new RpcError(RpcCode.server, `gas required exceeds allowance (${cap})`);
  }
  let lo = intrinsic - 1n;
  let hi = cap;
  const used = first.totalGasSpent + first.gasRefund;
  const optimistic = ((used + 2300n) * 64n) / 63n;
  if (optimistic < hi) {
    const r = await tryRun(call, optimistic);
    if (!(r instanceof Error) && !failed(r)) hi = optimistic;
    else lo = optimistic;
  }
  if (used - 1n > lo) lo = used - 1n;
  while (lo + 1n < hi) {
    if ((hi - lo) * 1000n < hi * 15n) break; // within 1.5%, as geth
    const mid = (hi + lo) / 2n;
    const r = await tryRun(call, mid);
    if (r instanceof Error || failed(r)) lo = mid;
    else hi = mid;
  }
  return hi;
}

async function tryRun(call: PreparedCall, gas: bigint): Promise<RunTxResult | Error> {
  try {
    return await call.run(gas);
  } catch (err) {
    return err as Error;
  }
}
