/**
 * The ethereumjs `Common` of an EVM chain: its chain id, hardforks through Cancun (the rules
 * Avalanche's Etna upgrade enables, without blob transactions), and native secp256k1 for sender
 * and `ecrecover` recovery — about 10x the pure-JS curve here (docs/evm.md) — and native keccak-256.
 */
import { paramsBlock } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet, type Common } from '@ethereumjs/common';
import { pointEvaluationKzg } from './kzg.js';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import secp from 'secp256k1';
import { keccak256 } from './keccak.js';

const SECP256K1_N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

/** util's `ecrecover` contract: 64-byte uncompressed public key (no 0x04), throws on bad input. */
export function nativeEcrecover(
  msgHash: Uint8Array,
  v: bigint,
  r: Uint8Array,
  s: Uint8Array,
  chainId?: bigint,
): Uint8Array {
  let recovery: bigint;
  if (v === 0n || v === 1n) recovery = v;
  else if (chainId === undefined) recovery = v - 27n;
  else recovery = v - (2n * chainId + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  if (r.length > 32 || s.length > 32) throw new Error('Invalid signature length');
  const signature = new Uint8Array(64);
  signature.set(r, 32 - r.length);
  signature.set(s, 64 - s.length);
  const rn = BigInt('0x' + (Buffer.from(signature.subarray(0, 32)).toString('hex') || '0'));
  const sn = BigInt('0x' + (Buffer.from(signature.subarray(32)).toString('hex') || '0'));
  if (rn === 0n || sn === 0n || rn >= SECP256K1_N || sn >= SECP256K1_N) throw new Error('Invalid signature');
  const publicKey = secp.ecdsaRecover(signature, Number(recovery), msgHash, false);
  return publicKey.subarray(1);
}

export function createEvmCommon(chainId: number): Common {
  const common = createCustomCommon({ chainId, name: `evm-${chainId}` }, Mainnet, {
    hardfork: Hardfork.Cancun,
    // kzg: the point-evaluation precompile's proof check (kzg.ts).
    customCrypto: { ecrecover: nativeEcrecover, keccak256, kzg: pointEvaluationKzg },
  });
  return withEipLookup(withMergedParams(common));
}

/** The parameter sets the engine's packages merge into their `Common` on every construction. */
const ENGINE_PARAMS: readonly object[] = [paramsVM, paramsEVM, paramsBlock, paramsTx];

/**
 * Merges the engine's parameter sets once, then makes merging them again a no-op. Every
 * transaction, block header and VM the engine constructs calls `updateParams` with one of these
 * sets, which deep-copies the parameters and rebuilds the cache: about a quarter of decoding a
 * raw transaction. The shortcut is an own property, so the copies the engine makes carry it;
 * any other parameter set still merges as before.
 */
function withMergedParams(common: Common): Common {
  for (const params of ENGINE_PARAMS) common.updateParams(params as Parameters<Common['updateParams']>[0]);
  const merge = Object.getPrototypeOf(common).updateParams as Common['updateParams'];
  common.updateParams = function (this: Common, params) {
    if (!ENGINE_PARAMS.includes(params)) merge.call(this, params);
  };
  return common;
}

/** The engine's list of active EIPs, and the set this module keeps beside it. */
interface EipLookup {
  _activatedEIPsCache: readonly number[];
  eipSetOf?: readonly number[];
  eipSet?: ReadonlySet<number>;
}

/**
 * Answers `isActivatedEIP` from a set instead of a scan of the list of active EIPs (about 40 on
 * Cancun): the interpreter asks twice per opcode whether EIP-6800 and EIP-7864 are active (both
 * never are here), a scan each time, 3% of an `eth_call` of a token's `balanceOf`. The engine
 * replaces the list whenever the hardfork or EIPs change (it never edits it in place), so the set
 * is rebuilt when the list it was made from is no longer the current one. Like `updateParams`
 * above, the shortcut is an own property and the copies the engine makes carry it.
 */
function withEipLookup(common: Common): Common {
  common.isActivatedEIP = function (this: Common, eip: number) {
    const self = this as unknown as EipLookup;
    const list = self._activatedEIPsCache;
    if (self.eipSetOf !== list || self.eipSet === undefined) {
      self.eipSet = new Set(list);
      self.eipSetOf = list;
    }
    return self.eipSet.has(eip);
  };
  return common;
}

/**
 * The `Common` a new VM runs on: a copy of the chain's, as the engine's own `VM.shallowCopy`
 * makes. Every EVM subscribes to its Common's `hardforkChanged` event and never unsubscribes, so
 * a VM built on the chain's long-lived Common stayed reachable from it for ever — with its state
 * manager and that state's caches — and the node leaked one VM per call environment, trace or
 * simulated block (about 50 KB each before any state). A copy shares the parameters (and the
 * merged-parameters shortcut, an own property) but has its own event emitter, which goes with it.
 */
export function vmCommon(common: Common): Common {
  return common.copy();
}
