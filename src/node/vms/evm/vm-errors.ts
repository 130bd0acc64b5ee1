/**
 * How geth words a failed EVM run (core/vm/errors.go, accounts/abi's UnpackRevert), for the
 * engine's failures: eth_call and eth_estimateGas errors, callTracer frames, access-list errors;
 * and the error a chain refuses a transaction or a read with, in the reference's words.
 */

/** A transaction or read the chain refuses (the pool's checks, an unknown block), worded as the reference. */
export class EvmTxError extends Error {
  override readonly name = 'EvmTxError';
}

/** The engine's exception names that geth words otherwise (the rest read the same). */
const GETH_WORDS: Record<string, string> = {
  revert: 'execution reverted',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  // The point-evaluation precompile's (geth verifies with go-kzg-4844).
  'kzg commitment does not match versioned hash': 'mismatched versioned hash',
  'kzg proof invalid': "error verifying kzg proof: can't verify opening proof",
};

/**
 * geth's words for an engine exception. The engine appends where a bad jump happened (`invalid
 * JUMP at <code hash>/<address>:<pc>`); geth names none. An invalid opcode and stack errors keep
 * the engine's words: geth adds the opcode or the stack depths, which the engine does not report.
 */
export function vmErrorText(error: string): string {
  if (error.startsWith('invalid JUMP')) return 'invalid jump destination';
  return GETH_WORDS[error] ?? error;
}

/** geth's descriptions of Solidity's panic codes (copied there from ethers). */
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** The `Error(string)` reason or the `Panic(uint256)` description of revert data, as geth's UnpackRevert. */
export function revertReason(data: Uint8Array): string | undefined {
  const hex = Buffer.from(data).toString('hex');
  if (hex.startsWith('08c379a0') && data.length >= 68) {
    const offset = Number(BigInt('0x' + hex.slice(8, 72)));
    const len = Number(BigInt('0x' + hex.slice(8 + offset * 2, 8 + offset * 2 + 64)));
    const start = 4 + offset + 32;
    if (start + len <= data.length) return Buffer.from(data.subarray(start, start + len)).toString('utf8');
  }
  if (hex.startsWith('4e487b71') && data.length >= 36) {
    const code = BigInt('0x' + hex.slice(8, 72));
    return (
      (code < 0x100n ? PANIC_REASONS[Number(code)] : undefined) ??
      `unknown panic code: 0x${code.toString(16)}`
    );
  }
  return undefined;
}
