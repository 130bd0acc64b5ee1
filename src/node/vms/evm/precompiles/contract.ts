/**
 * Building blocks of the Subnet-EVM stateful precompiles: 4-byte selectors, 32-byte words,
 * storage access on the executing engine's state (so the engine's journal rolls writes back
 * when the caller reverts), logs, and results with the reference semantics: a refused call fails
 * with the precompile's error, not a revert, so it consumes all the gas it was given, returns no
 * data to a calling contract, and `eth_call` answers the error's words at -32000.
 */
import { EVMError, type ExecResult } from '@ethereumjs/evm';
import type { Log } from '@ethereumjs/evm';
import {
  Account,
  Address,
  bigIntToBytes,
  bytesToBigInt,
  setLengthLeft,
  toChecksumAddress,
} from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { PrecompileCall } from './registry.js';

/** Reference gas constants (`precompile/contract` in subnet-evm). */
export const WRITE_GAS_COST_PER_SLOT = 20_000n;
export const READ_GAS_COST_PER_SLOT = 5_000n;
export const LOG_GAS = 375n;
export const LOG_TOPIC_GAS = 375n;
export const LOG_DATA_GAS = 8n;

export const selector = (signature: string): string =>
  Buffer.from(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex');

export const eventTopic = (signature: string): Uint8Array => keccak_256(new TextEncoder().encode(signature));

export const word = (value: bigint): Uint8Array => setLengthLeft(bigIntToBytes(value), 32);
export const addressWord = (address: Uint8Array): Uint8Array => setLengthLeft(address, 32);
export const boolWord = (b: boolean): Uint8Array => word(b ? 1n : 0n);

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** ABI `bytes` tail: length word then the data padded to a multiple of 32. */
export function abiBytes(data: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(data.length / 32) * 32);
  padded.set(data);
  return concat(word(BigInt(data.length)), padded);
}

export class AbiInputError extends Error {}

/**
 * Refuses an ABI input (without the selector) too short for `count` static arguments, in the
 * words of the reference's ABI decoder (Arguments.Unpack, then toGoType per argument). Since
 * Durango the reference unpacks precompile inputs non-strictly: bytes after the arguments are
 * ignored.
 */
function requireArguments(input: Uint8Array, count: number): void {
  if (count === 0 || input.length >= count * 32) return;
  if (input.length === 0)
    throw new AbiInputError('abi: attempting to unmarshal an empty string while arguments are expected');
  // The first argument whose word runs past the end.
  const require = (Math.floor(input.length / 32) + 1) * 32;
  throw new AbiInputError(
    `abi: cannot marshal in to go type: length insufficient ${input.length} require ${require}`,
  );
}

/** Reads `count` static words of an ABI input (without the selector). */
export function readWords(input: Uint8Array, count: number): bigint[] {
  requireArguments(input, count);
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) out.push(bytesToBigInt(input.subarray(i * 32, i * 32 + 32)));
  return out;
}

/**
 * The address argument at `index` of an input with `count` arguments: the word's last 20 bytes,
 * whatever the 12 above hold, as go-ethereum's decoder reads an address.
 */
export function readAddress(input: Uint8Array, index: number, count = index + 1): Address {
  requireArguments(input, count);
  return new Address(input.slice(index * 32 + 12, index * 32 + 32));
}

/** A dynamic `bytes` argument whose offset word sits at `index`. */
export function readBytesArg(input: Uint8Array, index: number): Uint8Array {
  const [offset] = readWords(input.subarray(index * 32), 1);
  if (offset + 32n > BigInt(input.length)) throw new AbiInputError('bytes offset out of range');
  const o = Number(offset);
  const length = bytesToBigInt(input.subarray(o, o + 32));
  if (BigInt(o + 32) + length > BigInt(input.length)) throw new AbiInputError('bytes length out of range');
  return input.slice(o + 32, o + 32 + Number(length));
}

export function stateOf(call: PrecompileCall): MerkleStateManager {
  return (call._EVM as unknown as { stateManager: MerkleStateManager }).stateManager;
}

export async function readSlot(
  state: MerkleStateManager,
  address: Address,
  key: Uint8Array,
): Promise<bigint> {
  const v = await state.getStorage(address, setLengthLeft(key, 32));
  return v.length ? bytesToBigInt(v) : 0n;
}

export async function writeSlot(
  state: MerkleStateManager,
  address: Address,
  key: Uint8Array,
  value: bigint,
): Promise<void> {
  // Storage writes need the account to exist (precompile accounts do once activated).
  if (!(await state.getAccount(address))) await state.putAccount(address, new Account(1n, 0n));
  await state.putStorage(
    address,
    setLengthLeft(key, 32),
    value === 0n ? new Uint8Array() : bigIntToBytes(value),
  );
}

export function log(address: Address, topics: Uint8Array[], data: Uint8Array): Log {
  return [address.bytes, topics, data] as unknown as Log;
}

export function success(
  gasUsed: bigint,
  returnValue: Uint8Array = new Uint8Array(),
  logs?: Log[],
): ExecResult {
  return { executionGasUsed: gasUsed, returnValue, ...(logs && logs.length ? { logs } : {}) };
}

/** An address as Go's `%s` prints a `common.Address` in the reference's errors: EIP-55 checksummed. */
export const goAddress = (a: Address): string => toChecksumAddress(a.toString());

/**
 * A refused call, as the reference's precompiles return an error: the engine treats any error
 * but a revert as an exceptional halt, so all gas is consumed, the state rolled back, the caller
 * gets no return data, and the message is what calls, estimates and traces report.
 */
export function refuse(call: PrecompileCall, message: string): ExecResult {
  return {
    executionGasUsed: call.gasLimit,
    returnValue: new Uint8Array(),
    exceptionError: new EVMError(message as ConstructorParameters<typeof EVMError>[0]),
  };
}

export function outOfGas(call: PrecompileCall): ExecResult {
  return {
    executionGasUsed: call.gasLimit,
    returnValue: new Uint8Array(),
    exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
  };
}

/** The gas a log costs (topics and data), as the reference charges it for precompile events. */
export function logGas(topics: number, dataLength: number): bigint {
  return LOG_GAS + LOG_TOPIC_GAS * BigInt(topics) + LOG_DATA_GAS * BigInt(dataLength);
}

/** Unpacks with `read`, its refusal prefixed as the minter's and fee manager's (`ErrUnpackInput`). */
export function unpackInput<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof AbiInputError) throw new AbiInputError(`failed to unpack input: ${err.message}`);
    throw err;
  }
}

/** A precompile function: returns its result; throws AbiInputError for bad input. */
export type PrecompileFunction = (call: PrecompileCall, args: Uint8Array) => Promise<ExecResult>;

/** Dispatches on the 4-byte selector; unknown selectors and bad input are refused in the reference's words. */
export function dispatcher(functions: Record<string, PrecompileFunction>) {
  return async (call: PrecompileCall): Promise<ExecResult> => {
    if (call.data.length < 4)
      return refuse(call, `missing function selector to precompile - input length (${call.data.length})`);
    const selectorHex = Buffer.from(call.data.subarray(0, 4)).toString('hex');
    const fn = functions[selectorHex];
    if (!fn) return refuse(call, `invalid function selector: 0x${selectorHex}`);
    try {
      return await fn(call, call.data.subarray(4));
    } catch (err) {
      if (err instanceof AbiInputError) return refuse(call, err.message);
      throw err;
    }
  };
}
