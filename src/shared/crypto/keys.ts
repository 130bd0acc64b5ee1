/**
 * secp256k1 account keys and the addresses derived from them: the 20-byte short address
 * (ripemd160(sha256(compressed public key))) behind X/P/C bech32 addresses, and the EVM address.
 */
import { secp256k1, utils } from '@avalabs/avalanchejs';
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js';
import { toCb58 } from '../encoding.js';

export interface AccountKey {
  /** 32-byte private key. */
  readonly privateKey: Uint8Array;
  /** `0x`-prefixed hex of the private key (what EVM tools take). */
  readonly privateKeyHex: string;
  /** `PrivateKey-<cb58>` (what Avalanche wallets take). */
  readonly privateKeyCb58: string;
  /** 20-byte short address. */
  readonly shortAddress: Uint8Array;
  /** Checksummed EVM address. */
  readonly evmAddress: string;
}

export function accountFromPrivateKey(privateKey: Uint8Array): AccountKey {
  const publicKey = secp256k1.getPublicKey(privateKey);
  const evm = Buffer.from(secp256k1.publicKeyToEthAddress(publicKey)).toString('hex');
  return {
    privateKey,
    privateKeyHex: '0x' + Buffer.from(privateKey).toString('hex'),
    privateKeyCb58: 'PrivateKey-' + toCb58(privateKey),
    shortAddress: secp256k1.publicKeyBytesToAddress(publicKey),
    evmAddress: toChecksumAddress(evm),
  };
}

/** Bech32 address on a chain alias, e.g. `X-local18jma…`. */
export function chainAddress(alias: string, hrp: string, shortAddress: Uint8Array): string {
  return utils.format(alias, hrp, shortAddress);
}

/** EIP-55 checksum casing. */
export function toChecksumAddress(hexNoPrefix: string): string {
  const lower = hexNoPrefix.toLowerCase().replace(/^0x/, '');
  const hash = Buffer.from(keccak256(Buffer.from(lower, 'ascii'))).toString('hex');
  let out = '0x';
  for (let i = 0; i < lower.length; i++)
    out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}
