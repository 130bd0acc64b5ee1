/**
 * JSON-RPC errors. Handlers throw these (or any Error); each endpoint flavour maps them to its own
 * wire shape in exactly one place (see avalanche-endpoint.ts and evm-endpoint.ts).
 */

/** Standard JSON-RPC 2.0 and geth-style codes. */
export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** The default for handler failures on both the Avalanche and the EVM endpoints. */
  server: -32000,
  /** EVM: execution reverted (data carries the revert bytes). */
  executionReverted: 3,
} as const;

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A handler failure: -32000 with the message, as the reference node reports every handler error. */
export function fail(message: string): never {
  throw new RpcError(RpcCode.server, message);
}

export function invalidParams(message: string): never {
  throw new RpcError(RpcCode.invalidParams, message);
}
