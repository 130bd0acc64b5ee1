/**
 * The transaction pool over RPC: submitting a signed transaction (`eth_sendRawTransaction`) and
 * the `txpool_` namespace's view of what is pending and queued.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { toChecksumAddress } from '../../../../../shared/crypto/keys.js';
import { RpcCode, RpcError } from '../../../../rpc/errors.js';
import type { EvmHandler } from '../../../../rpc/evm-endpoint.js';
import type { EvmChain } from '../../evm-chain.js';
import { feeCaps } from '../../txpool/txpool.js';
import { EvmTxError } from '../../vm-errors.js';
import { address, arity, data } from '../args.js';
import { q, txJson } from '../format.js';

/** coreth's checkTxFee: no transaction may offer more than 100 AVAX of fees (RPCTxFeeCap). */
export function checkTxFee(tx: TypedTransaction): void {
  const t = tx as any;
  const price: bigint = t.maxFeePerGas ?? t.gasPrice;
  const fee = Number(price * tx.gasLimit) / 1e18;
  if (fee > TX_FEE_CAP)
    throw new RpcError(
      RpcCode.server,
      `tx fee (${fee.toFixed(2)} ether) exceeds the configured cap (${TX_FEE_CAP.toFixed(2)} ether)`,
    );
}

const TX_FEE_CAP = 100;

/** Pools a signed transaction as coreth's SubmitTransaction: the fee cap first, then the pool's checks. */
export async function submitTx(chain: EvmChain, tx: TypedTransaction): Promise<string> {
  checkTxFee(tx);
  try {
    return await chain.submit(tx);
  } catch (err) {
    if (err instanceof EvmTxError || err instanceof Error) throw new RpcError(RpcCode.server, err.message);
    throw err;
  }
}

export function createTxPoolApi(chain: EvmChain): Record<string, EvmHandler> {
  return {
    eth_sendRawTransaction: async (params) => {
      arity(params, 1, 1);
      return submitTx(chain, chain.decodeRawTx(data(params, 0)));
    },
    txpool_status: async (params) => {
      arity(params, 0);
      const { pending, queued } = await classifyPool(chain);
      return { pending: q(pending.length), queued: q(queued.length) };
    },
    txpool_content: async (params) => {
      arity(params, 0);
      const { pending, queued } = await classifyPool(chain);
      const group = (list: typeof pending) => {
        const out: Record<string, Record<string, unknown>> = {};
        for (const p of list) (out[checksum(p.sender)] ??= {})[p.nonce.toString()] = txJson(p.tx, p.sender);
        return out;
      };
      return { pending: group(pending), queued: group(queued) };
    },
    txpool_contentFrom: async (params) => {
      arity(params, 1, 1);
      const who = bytesToHex(address(params, 0));
      const { pending, queued } = await classifyPool(chain);
      const group = (list: typeof pending) => {
        const out: Record<string, unknown> = {};
        for (const p of list) if (p.sender === who) out[p.nonce.toString()] = txJson(p.tx, p.sender);
        return out;
      };
      return { pending: group(pending), queued: group(queued) };
    },
    txpool_inspect: async (params) => {
      arity(params, 0);
      const { pending, queued } = await classifyPool(chain);
      const group = (list: typeof pending) => {
        const out: Record<string, Record<string, string>> = {};
        for (const p of list) {
          const { maxFee } = feeCaps(p.tx);
          // geth writes the recipient as To().Hex(): EIP-55 checksummed.
          const to = p.tx.to ? checksum(p.tx.to.toString()) : 'contract creation';
          (out[checksum(p.sender)] ??= {})[p.nonce.toString()] =
            `${to}: ${p.tx.value} wei + ${p.tx.gasLimit} gas × ${maxFee} wei`;
        }
        return out;
      };
      return { pending: group(pending), queued: group(queued) };
    },
  };
}

function checksum(addr: string): string {
  return toChecksumAddress(addr.slice(2));
}

export async function classifyPool(chain: EvmChain) {
  const nonces = new Map<string, bigint>();
  for (const s of chain.pool.senders()) nonces.set(s, await chain.nonceOf(createAddressFromString(s)));
  return chain.pool.classify((s) => nonces.get(s) ?? 0n);
}
