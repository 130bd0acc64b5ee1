/**
 * `eth_createAccessList` as geth answers it: the call runs with an access-list tracer, again
 * with the list it found, until a run touches nothing new; the answer is that list, the gas the
 * last run used with it, and the run's error when it failed (a failed call is still an answer).
 */
import { Address, bytesToHex, generateAddress, bigIntToBytes } from '@ethereumjs/util';
import type { RunTxResult } from '@ethereumjs/vm';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../evm-chain.js';
import { AccessListTracer } from '../trace/access-list-tracer.js';
import { arity, optionalBlockRef } from './args.js';
import { vmErrorText } from '../vm-errors.js';
import { callGas, gethTxError, prepareCall } from './call.js';
import {
  buildTx,
  checkChainId,
  checkCompleteArgs,
  parseTxArgs,
  setFeeDefaults,
  type TxArgs,
} from './wallet.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { stateBlockOf } from './eth/block-ref.js';

const q = (n: bigint) => '0x' + n.toString(16);

/** More rounds than any list can grow through: each round only adds, and a call touches little. */
const MAX_ROUNDS = 256;

export function createAccessListApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_createAccessList: async (params) => {
      arity(params, 2, 1);
      const args = parseTxArgs(params[0], 0);
      // A *BlockNumberOrHash: absent or null is latest.
      const n = stateBlockOf(chain, optionalBlockRef(params, 1));
      const from = args.from ?? new Uint8Array(20);
      // coreth's AccessList first completes the request with setDefaults (no estimate): the fee
      // defaults and their checks, the pool's nonce, then its refusals of the request. Fees are
      // only completed for a request that names one: one that names none runs unpriced, as a
      // call (docs/compatibility.md).
      if (
        args.gasPrice !== undefined ||
        args.maxFeePerGas !== undefined ||
        args.maxPriorityFeePerGas !== undefined
      )
        setFeeDefaults(chain, args);
      const sender = new Address(from);
      const nonce = args.nonce ?? chain.pool.nextNonce(sender.toString(), await chain.nonceOf(sender));
      checkCompleteArgs(args);
      checkChainId(chain, args);
      // The call reads its access list at every run: each round sets the one it runs with.
      const callArgs = { ...args };
      const call = await prepareCall(chain, callArgs, n);
      const evm = call.vm.evm;
      // The recipient, or the address a creation would deploy to (from the nonce setDefaults gave).
      const to = args.to ?? generateAddress(from, bigIntToBytes(nonce));
      const fromHex = bytesToHex(from);
      const toHex = bytesToHex(to);
      const excluded = (a: string) =>
        a === fromHex || a === toHex || evm.getPrecompile?.(a as `0x${string}`) !== undefined;
      const gas = callGas(args);
      let previous = new AccessListTracer(args.accessList ?? [], excluded);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const accessList = previous.accessList();
        callArgs.accessList = accessList;
        const tracer = new AccessListTracer(accessList, excluded);
        const run = await runTraced(call, tracer, gas, () =>
          appliedTxHash(chain, { ...args, accessList }, nonce, gas),
        );
        if (tracer.equals(previous)) {
          const failure = run.execResult.exceptionError?.error;
          return {
            accessList,
            ...(failure ? { error: vmErrorText(failure) } : {}),
            gasUsed: q(run.totalGasSpent),
          };
        }
        previous = tracer;
      }
      throw new RpcError(RpcCode.server, 'access list did not settle');
    },
  };
}

/**
 * The hash coreth names a refused run by: its toTransaction of the completed request (unsigned;
 * with a fee cap EIP-1559, else EIP-2930, the list being set at every round).
 */
function appliedTxHash(chain: EvmChain, args: TxArgs, nonce: bigint, gas: bigint): string {
  const tx = buildTx(chain, args, { nonce, gas });
  return bytesToHex(keccak_256(tx.serialize()));
}

async function runTraced(
  call: Awaited<ReturnType<typeof prepareCall>>,
  tracer: AccessListTracer,
  gas: bigint,
  txHash: () => string,
): Promise<RunTxResult> {
  tracer.attach(call.vm);
  try {
    return await call.run(gas);
  } catch (err) {
    // coreth: `failed to apply transaction: %v err: %v`, the hash of the completed request.
    throw new RpcError(
      RpcCode.server,
      `failed to apply transaction: ${txHash()} err: ${gethTxError(err as Error, call.from)}`,
    );
  } finally {
    tracer.detach(call.vm);
  }
}
