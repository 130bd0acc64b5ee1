/**
 * The methods that use the node's accounts (the devnet's prefunded keys, always unlocked):
 * `eth_accounts`, `eth_sendTransaction`, `eth_signTransaction`, `eth_fillTransaction`,
 * `eth_sign`, `eth_pendingTransactions` and `personal_*`, as coreth's TransactionAPI and
 * PersonalAccountAPI answer them. A transaction is completed as geth's setDefaults completes it
 * (fees, nonce, gas, chain id) and built as its toTransaction builds it: with maxFeePerGas an
 * EIP-1559 transaction, else with an access list an EIP-2930 one, else a legacy one (EIP-155).
 */
import { createTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex, hashPersonalMessage } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import secp from 'secp256k1';
import type { AccountKey } from '../../../../shared/crypto/keys.js';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { EvmHandler } from '../../../rpc/evm-endpoint.js';
import { nativeEcrecover } from '../common.js';
import type { EvmChain } from '../evm-chain.js';
import { address, arity, bad, data, quantityValue } from './args.js';
import {
  CALL_GAS_CAP,
  estimateGas,
  INPUT_CONFLICT,
  parseCallArgs,
  prepareCall,
  TX_GAS,
  type CallArgs,
} from './call.js';
import { checkTxFee, classifyPool, submitTx } from './eth/txpool.js';
import { suggestedTip } from './tip-oracle.js';
import { h, q, txJson } from './format.js';

const fail = (message: string): never => {
  throw new RpcError(RpcCode.server, message);
};

/** hexutil.Big's String(), as geth's `%v` writes fee fields in its errors. */
const hexBig = (n: bigint) => '0x' + n.toString(16);

export interface TxArgs extends CallArgs {
  chainId?: bigint;
}

export function parseTxArgs(v: unknown, i: number): TxArgs {
  const args: TxArgs = parseCallArgs(v, i);
  const chainId = (v as Record<string, unknown> | null)?.chainId;
  if (chainId != null) args.chainId = quantityValue(chainId, i, 'chainId');
  return args;
}

/** Completes `args` as geth's setDefaults: fee defaults first, then value, nonce, gas, chain id. */
async function fillDefaults(chain: EvmChain, args: TxArgs): Promise<Required<Pick<TxArgs, 'nonce' | 'gas'>>> {
  setFeeDefaults(chain, args);
  args.value ??= 0n;
  const from = new Address(args.from ?? new Uint8Array(20));
  args.nonce ??= chain.pool.nextNonce(from.toString(), await chain.nonceOf(from));
  checkCompleteArgs(args);
  if (args.gas === undefined) {
    // geth estimates with the fees just set, at the latest block.
    const call = await prepareCall(
      chain,
      { ...args, nonce: undefined },
      chain.latest.number,
      undefined,
      undefined,
      true,
    );
    const blockGas = chain.maxBlockGas();
    args.gas = await estimateGas(call, blockGas < CALL_GAS_CAP ? blockGas : CALL_GAS_CAP, TX_GAS);
  }
  checkChainId(chain, args);
  return { nonce: args.nonce, gas: args.gas };
}

/** setDefaults' refusals of what the request says, after the nonce and before the gas. */
export function checkCompleteArgs(args: TxArgs): void {
  if (args.inputConflict) fail(INPUT_CONFLICT);
  if (args.to === undefined && !args.data?.length) fail('contract creation without any data provided');
}

/** setDefaults' last check: a chain id, when named, must be this chain's. */
export function checkChainId(chain: EvmChain, args: TxArgs): void {
  const want = BigInt(chain.config.chainId);
  if (args.chainId !== undefined && args.chainId !== want)
    fail(`chainId does not match node's (have=${args.chainId}, want=${want})`);
}

/** geth's setFeeDefaults after London: the tip suggested, the fee cap 2 × the head's base fee + tip. */
export function setFeeDefaults(chain: EvmChain, args: TxArgs): void {
  if (args.maxFeePerGas !== undefined && args.maxPriorityFeePerGas !== undefined) {
    if (args.maxFeePerGas === 0n) fail('maxFeePerGas must be non-zero');
  } else if (args.gasPrice !== undefined) {
    if (args.gasPrice === 0n) fail('gasPrice must be non-zero after london fork');
    return;
  } else {
    args.maxPriorityFeePerGas ??= suggestedTip(chain);
    args.maxFeePerGas ??= args.maxPriorityFeePerGas + chain.latest.header.baseFeePerGas * 2n;
  }
  if (args.maxFeePerGas! < args.maxPriorityFeePerGas!)
    fail(
      `maxFeePerGas (${hexBig(args.maxFeePerGas!)}) < maxPriorityFeePerGas (${hexBig(args.maxPriorityFeePerGas!)})`,
    );
}

/** geth's toTransaction: the type follows from the fields set. */
export function buildTx(
  chain: EvmChain,
  args: TxArgs,
  filled: { nonce: bigint; gas: bigint },
): TypedTransaction {
  const common = chain.common;
  const base = {
    nonce: filled.nonce,
    gasLimit: filled.gas,
    to: args.to ? new Address(args.to) : undefined,
    value: args.value ?? 0n,
    data: args.data ?? new Uint8Array(),
    chainId: BigInt(chain.config.chainId),
  };
  // The engine's array form wants bytes; its object form takes the JSON hex as given.
  const accessList = (args.accessList ?? []) as any;
  if (args.maxFeePerGas !== undefined)
    return createTx(
      {
        ...base,
        type: 2,
        maxFeePerGas: args.maxFeePerGas,
        maxPriorityFeePerGas: args.maxPriorityFeePerGas ?? 0n,
        accessList,
      },
      { common },
    );
  if (args.accessList !== undefined)
    return createTx({ ...base, type: 1, gasPrice: args.gasPrice ?? 0n, accessList }, { common });
  return createTx({ ...base, type: 0, gasPrice: args.gasPrice ?? 0n }, { common });
}

/** geth's `types.Transaction` JSON (eth_signTransaction's and eth_fillTransaction's `tx`). */
function txObjectJson(tx: TypedTransaction): Record<string, unknown> {
  const t = tx as any;
  const legacy = tx.type === 0;
  const out: Record<string, unknown> = {
    type: q(tx.type),
    ...(legacy && !tx.isSigned() ? {} : { chainId: q(legacy ? tx.common.chainId() : t.chainId) }),
    nonce: q(tx.nonce),
    to: tx.to ? tx.to.toString() : null,
    gas: q(tx.gasLimit),
    gasPrice: tx.type === 2 ? null : q(t.gasPrice),
    maxPriorityFeePerGas: tx.type === 2 ? q(t.maxPriorityFeePerGas) : null,
    maxFeePerGas: tx.type === 2 ? q(t.maxFeePerGas) : null,
    value: q(tx.value),
    input: h(tx.data),
  };
  if (!legacy)
    out.accessList = (t.accessList as [Uint8Array, Uint8Array[]][]).map(([a, keys]) => ({
      address: h(a),
      storageKeys: keys.map(h),
    }));
  out.v = q(tx.v ?? 0n);
  out.r = q(tx.r ?? 0n);
  out.s = q(tx.s ?? 0n);
  if (!legacy) out.yParity = q(tx.v ?? 0n);
  out.hash = h(tx.isSigned() ? tx.hash() : keccak_256(tx.serialize()));
  return out;
}

export interface EthApiOptions {
  /** Keys `eth_sendTransaction` and `personal_sign` may use (the devnet's prefunded keys). */
  unlocked: readonly AccountKey[];
}

export function createWalletApi(chain: EvmChain, options: EthApiOptions): Record<string, EvmHandler> {
  const keys = new Map(options.unlocked.map((k) => [k.evmAddress.toLowerCase(), k]));
  const accounts = () => options.unlocked.map((k) => k.evmAddress.toLowerCase());

  function keyFor(addr: Uint8Array | undefined): AccountKey {
    const k = addr && keys.get(bytesToHex(addr));
    if (!k) fail('unknown account');
    return k!;
  }

  function personalSign(message: Uint8Array, addr: Uint8Array): string {
    const key = keyFor(addr);
    const { signature, recid } = secp.ecdsaSign(hashPersonalMessage(message), key.privateKey);
    return bytesToHex(Buffer.concat([signature, Uint8Array.of(27 + recid)]));
  }

  async function sendTransaction(raw: unknown): Promise<string> {
    const args = parseTxArgs(raw, 0);
    const key = keyFor(args.from);
    const filled = await fillDefaults(chain, args);
    return submitTx(chain, buildTx(chain, args, filled).sign(key.privateKey));
  }

  /** eth_signTransaction / personal_signTransaction: every price and the nonce must be given. */
  async function signTransaction(raw: unknown): Promise<Record<string, unknown>> {
    const args = parseTxArgs(raw, 0);
    if (args.gas === undefined) fail('gas not specified');
    if (
      args.gasPrice === undefined &&
      (args.maxPriorityFeePerGas === undefined || args.maxFeePerGas === undefined)
    )
      fail('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas');
    if (args.nonce === undefined) fail('nonce not specified');
    const key = keyFor(args.from);
    const filled = await fillDefaults(chain, args);
    const tx = buildTx(chain, args, filled);
    checkTxFee(tx);
    const signed = tx.sign(key.privateKey);
    return { raw: h(signed.serialize()), tx: txObjectJson(signed) };
  }

  return {
    eth_accounts: (params) => (arity(params, 0), accounts()),
    eth_sendTransaction: (params) => (arity(params, 1, 1), sendTransaction(params[0])),
    eth_signTransaction: (params) => (arity(params, 1, 1), signTransaction(params[0])),
    eth_fillTransaction: async (params) => {
      arity(params, 1, 1);
      const args = parseTxArgs(params[0], 0);
      const tx = buildTx(chain, args, await fillDefaults(chain, args));
      return { raw: h(tx.serialize()), tx: txObjectJson(tx) };
    },
    eth_sign: (params) => {
      arity(params, 2, 2);
      const signer = address(params, 0); // geth decodes the arguments in order
      return personalSign(data(params, 1), signer);
    },
    // The pool's executable transactions from the node's accounts.
    eth_pendingTransactions: async (params) => {
      arity(params, 0);
      const { pending } = await classifyPool(chain);
      return pending.filter((p) => keys.has(p.sender)).map((p) => txJson(p.tx, p.sender));
    },
    personal_listAccounts: (params) => (arity(params, 0), accounts()),
    personal_unlockAccount: (params) => {
      arity(params, 3, 1);
      return keys.has(bytesToHex(address(params, 0)));
    },
    personal_lockAccount: (params) => {
      arity(params, 1, 1);
      return keys.has(bytesToHex(address(params, 0)));
    },
    personal_sign: (params) => {
      arity(params, 3, 2);
      return personalSign(data(params, 0), address(params, 1));
    },
    personal_ecRecover: (params) => {
      arity(params, 2, 2);
      const message = data(params, 0);
      const sig = data(params, 1, 65);
      const v = BigInt(sig[64]);
      if (v !== 27n && v !== 28n) bad(1, 'invalid Ethereum signature (V is not 27 or 28)');
      const pub = nativeEcrecover(hashPersonalMessage(message), v, sig.subarray(0, 32), sig.subarray(32, 64));
      return bytesToHex(keccak_256(pub).subarray(12));
    },
    personal_sendTransaction: (params) => (arity(params, 2, 1), sendTransaction(params[0])),
    personal_signTransaction: (params) => {
      arity(params, 2, 1);
      if ((params[0] as Record<string, unknown> | null)?.from == null) fail('sender not specified');
      return signTransaction(params[0]);
    },
  };
}
