/**
 * The ethereumjs `Common` of an EVM chain: its chain id, hardforks through Cancun (the rules
 * Avalanche's Etna upgrade enables, without blob transactions), and native secp256k1 for sender
 * and `ecrecover` recovery — about 10x the pure-JS curve here (docs/evm.md).
 */
import { createCustomCommon, Hardfork, Mainnet, type Common } from '@ethereumjs/common';
import secp from 'secp256k1';

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
  return createCustomCommon({ chainId, name: `evm-${chainId}` }, Mainnet, {
    hardfork: Hardfork.Cancun,
    customCrypto: { ecrecover: nativeEcrecover },
  });
}
