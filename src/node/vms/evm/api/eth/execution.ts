/**
 * Running a call on a block's state without a transaction: `eth_call`, coreth's
 * `eth_callDetailed`, and `eth_estimateGas`.
 */
import { RpcCode, RpcError } from '../../../../rpc/errors.js';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../../evm-chain.js';
import { arity, blockRef, optionalBlockRef, type BlockRef } from '../args.js';
import { CallTimeout } from '../call-deadline.js';
import {
  CALL_GAS_CAP,
  callFailure,
  callGas,
  callOutput,
  estimateGas,
  gethTxError,
  parseBlockOverrides,
  parseCallArgs,
  parseStateOverrides,
  prepareCall,
  TX_GAS,
} from '../call.js';
import { h, q } from '../format.js';
import { stateBlockOf } from './block-ref.js';

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

export function createExecutionApi(chain: EvmChain): Record<string, EvmHandler> {
  /** geth's DoCall for eth_call and eth_callDetailed: args, block, state overrides, block overrides. */
  const runCall = async (
    params: unknown[],
    blockOf: (params: unknown[], i: number) => BlockRef,
    overrides: ReturnType<typeof parseBlockOverrides>,
  ) => {
    const args = parseCallArgs(params[0], 0);
    const ref = blockOf(params, 1);
    const n = stateBlockOf(chain, ref);
    // coreth's DoCall runs a `pending` call as the next block would: the number after the
    // head's, the time now, the next base fee; block overrides apply on top.
    const pending =
      ref.kind === 'tag' && ref.tag === 'pending'
        ? {
            number: n + 1n,
            time: maxBig(BigInt(chain.ctx.clock.nowSeconds()), chain.latest.header.timestamp),
            baseFee: chain.nextBaseFee(),
            coinbase: chain.executionCoinbase().bytes,
          }
        : undefined;
    const call = await prepareCall(
      chain,
      args,
      n,
      parseStateOverrides(params[2], 2),
      pending || overrides ? { ...pending, ...overrides } : undefined,
      true,
    );
    const gas = callGas(args);
    // geth's doCall wraps a refused call this way.
    return call.run(gas, chain.config.rpcEvmTimeoutMs).catch((err: Error) => {
      // geth's DoCall: `execution aborted (timeout = 5s)` for a call cut off by RPCEVMTimeout.
      if (err instanceof CallTimeout) throw new RpcError(RpcCode.server, err.message);
      throw new RpcError(RpcCode.server, `err: ${gethTxError(err, args.from)} (supplied gas ${gas})`);
    });
  };
  return {
    eth_call: async (params) => {
      arity(params, 4, 1);
      // coreth's eth_call takes a *BlockNumberOrHash: absent or null is latest.
      return h(callOutput(await runCall(params, optionalBlockRef, parseBlockOverrides(params[3], 3))));
    },
    /**
     * coreth's (and subnet-evm's) eth_call with the whole outcome: the gas used, and a failure as
     * `errCode`/`err` beside the return data instead of a JSON-RPC error (code 3 for a revert with
     * data, else 0). A call refused before running is still an error, as in eth_call.
     */
    eth_callDetailed: async (params) => {
      // Its block is a BlockNumberOrHash, no pointer: required, and a null names no block.
      arity(params, 3, 2);
      const result = await runCall(params, blockRef, undefined);
      // A failure that is not a revert with data has no code of its own here (coreth: 0).
      const failure = callFailure(result);
      return {
        gas: Number(result.totalGasSpent),
        errCode: failure?.code === RpcCode.executionReverted ? failure.code : 0,
        err: failure?.message ?? '',
        returnData: h(result.execResult.returnValue),
      };
    },
    eth_estimateGas: async (params) => {
      arity(params, 3, 1);
      const args = parseCallArgs(params[0], 0);
      const n = stateBlockOf(chain, optionalBlockRef(params, 1));
      const call = await prepareCall(chain, args, n, parseStateOverrides(params[2], 2), undefined, true);
      // geth's bound: the gas given (a limit below a transfer's is ignored), else the block's
      // gas limit, never above the call gas cap.
      const given = args.gas !== undefined && args.gas >= TX_GAS ? args.gas : chain.maxBlockGas();
      const cap = given < CALL_GAS_CAP ? given : CALL_GAS_CAP;
      return q(await estimateGas(call, cap, TX_GAS));
    },
  };
}
