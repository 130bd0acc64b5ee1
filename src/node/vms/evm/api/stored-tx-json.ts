/**
 * The JSON of an accepted transaction, read straight from its stored RLP. Blocks with full
 * transactions (what indexers ask for every block) would otherwise build the engine's
 * transaction object per transaction — field validation, fork parameter lookups, its own copies
 * — only to read back what the bytes hold. Stored transactions passed admission, so their
 * fields are well-formed; a type this reader does not know goes through the engine.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import type { Common } from '@ethereumjs/common';
import type { StoredTx } from '../state/chain-store.js';
import { decodeStoredTx, h, q, txJson, type TxPosition } from './format.js';

type RlpItem = Uint8Array | RlpItem[];

/** Field positions of the typed transactions (EIP-2930 and EIP-1559): [chainId, nonce, …]. */
const TYPED = {
  1: { gasPrice: 2, gas: 3, to: 4, value: 5, data: 6, accessList: 7, v: 8 },
  2: { tip: 2, maxFee: 3, gas: 4, to: 5, value: 6, data: 7, accessList: 8, v: 9 },
} as const;

/** Same answer as `txJson(decodeStoredTx(common, stored), …)`, key order included. */
export function storedTxJson(common: Common, stored: StoredTx, pos: TxPosition): Record<string, unknown> {
  const raw = stored.raw;
  const type = raw[0] <= 0x7f ? raw[0] : 0;
  if (type !== 0 && type !== 1 && type !== 2)
    return txJson(decodeStoredTx(common, stored), h(stored.sender), pos, stored.hash);
  const f = RLP.decode(type === 0 ? raw : raw.subarray(1)) as RlpItem[];
  const n = (i: number) => bytesToBigInt(f[i] as Uint8Array);
  const to = (i: number) => ((f[i] as Uint8Array).length > 0 ? h(f[i] as Uint8Array) : null);
  const head = (gas: number, toAt: number, value: number, data: number, nonce: number, v: number) => ({
    blockHash: h(pos.blockHash),
    blockNumber: q(pos.blockNumber),
    from: h(stored.sender),
    gas: q(n(gas)),
    hash: h(stored.hash),
    input: h(f[data] as Uint8Array),
    nonce: q(n(nonce)),
    to: to(toAt),
    transactionIndex: q(pos.index),
    value: q(n(value)),
    type: q(type),
    v: q(n(v)),
    r: q(n(v + 1)),
    s: q(n(v + 2)),
  });
  if (type === 0) {
    // [nonce, gasPrice, gasLimit, to, value, data, v, r, s]
    const out: Record<string, unknown> = head(2, 3, 4, 5, 0, 6);
    out.gasPrice = q(n(1));
    // Replay-protected (EIP-155) signatures carry v = 2·chainId + 35 or 36.
    if (n(6) > 28n) out.chainId = q(common.chainId());
    return out;
  }
  const at = TYPED[type as 1 | 2];
  const out: Record<string, unknown> = head(at.gas, at.to, at.value, at.data, 1, at.v);
  out.chainId = q(n(0));
  out.accessList = (f[at.accessList] as [Uint8Array, Uint8Array[]][]).map(([address, keys]) => ({
    address: h(address),
    storageKeys: keys.map(h),
  }));
  out.yParity = q(n(at.v));
  if (type === 1) {
    out.gasPrice = q(n(TYPED[1].gasPrice));
    return out;
  }
  const maxFee = n(TYPED[2].maxFee);
  const tip = n(TYPED[2].tip);
  out.maxFeePerGas = q(maxFee);
  out.maxPriorityFeePerGas = q(tip);
  out.gasPrice = q(pos.baseFee + (tip < maxFee - pos.baseFee ? tip : maxFee - pos.baseFee));
  return out;
}
