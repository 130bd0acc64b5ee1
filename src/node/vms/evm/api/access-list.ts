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
import { arity, blockRef } from './args.js';
import { vmErrorText } from '../vm-errors.js';
import { callGas, gethTxError, INPUT_CONFLICT, parseCallArgs, prepareCall } from './call.js';
import { stateBlockOf } from './eth.js';

const q = (n: bigint) => '0x' + n.toString(16);

/** More rounds than any list can grow through: each round only adds, and a call touches little. */
const MAX_ROUNDS = 256;

export function createAccessListApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_createAccessList: async (params) => {
      arity(params, 2, 1);
      const args = parseCallArgs(params[0], 0);
      const n = stateBlockOf(chain, blockRef(params, 1));
      // coreth's AccessList completes the request with setDefaults, which refuses the pair.
      if (args.inputConflict) throw new RpcError(RpcCode.server, INPUT_CONFLICT);
      const from = args.from ?? new Uint8Array(20);
      // The call reads its access list at every run: each round sets the one it runs with.
      const callArgs = { ...args };
      const call = await prepareCall(chain, callArgs, n);
      const evm = call.vm.evm;
      // The recipient, or the address a creation would deploy to (from the sender's nonce in
      // the call's own state, the nonce the call runs with).
      const nonce = args.nonce ?? (await call.vm.stateManager.getAccount(new Address(from)))?.nonce ?? 0n;
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
        const run = await runTraced(call, tracer, gas);
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

async function runTraced(
  call: Awaited<ReturnType<typeof prepareCall>>,
  tracer: AccessListTracer,
  gas: bigint,
): Promise<RunTxResult> {
  tracer.attach(call.vm);
  try {
    return await call.run(gas);
  } catch (err) {
    throw new RpcError(
      RpcCode.server,
      `failed to apply transaction: ${gethTxError(err as Error, call.from)}`,
    );
  } finally {
    tracer.detach(call.vm);
  }
}
