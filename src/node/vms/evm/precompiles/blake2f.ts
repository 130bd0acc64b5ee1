/**
 * The BLAKE2f precompile (0x09, EIP-152) with geth's failure words. The engine refuses both
 * malformed inputs as "value out of range"; geth (core/vm/contracts.go) says "invalid input
 * length" for an input that is not 213 bytes and "invalid final flag" for a last byte other than
 * 0 or 1, and eth_call, eth_estimateGas, callTracer frames and access lists repeat its words.
 * A well-formed input runs the engine's own implementation.
 */
import type { Common } from '@ethereumjs/common';
import { EVMError, getActivePrecompiles, type CustomPrecompile } from '@ethereumjs/evm';

const ADDRESS = '0x0000000000000000000000000000000000000009';
const INPUT_LENGTH = 213;

export function blake2fPrecompile(common: Common): CustomPrecompile {
  const engine = getActivePrecompiles(common).get(ADDRESS.slice(2));
  if (!engine) throw new Error('the EVM engine has no BLAKE2f precompile');
  return {
    address: ADDRESS,
    function: (input) => {
      const data = input.data;
      const fault =
        data.length !== INPUT_LENGTH
          ? 'invalid input length'
          : data[INPUT_LENGTH - 1]! > 1
            ? 'invalid final flag'
            : undefined;
      if (fault === undefined) return engine(input);
      // A failed precompile consumes all the gas it was given, as the engine's own failure does.
      return {
        returnValue: new Uint8Array(0),
        executionGasUsed: input.gasLimit,
        exceptionError: new EVMError(fault as ConstructorParameters<typeof EVMError>[0]),
      };
    },
  };
}
