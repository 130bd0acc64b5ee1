/**
 * Output and credential details the API shows, read from avalanchejs objects. Many of their
 * fields are private in the TypeScript typings but plain properties at run time; this module is
 * the one place that reaches into them.
 */
import { avaxSerial, Id, Utxo, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import secp256k1 from 'secp256k1';
import { toCb58 } from '../../../shared/encoding.js';

export interface OutputInfo {
  amount: bigint;
  addresses: string[];
  threshold: number;
  locktime: bigint;
  stakeableLocktime: bigint;
  /** X-chain kind (`transfer`, `mint`, `nft_transfer`, `nft_mint`) or P-chain `TRANSFER`. */
  kind: string;
  groupId?: number;
  payload?: string;
}

const val = (x: any): any => (x && typeof x.value === 'function' ? x.value() : x);

function owners(o: any, hrp: string): { addresses: string[]; threshold: number; locktime: bigint } {
  return {
    addresses: ((o?.addrs ?? []) as any[]).map((a) => a.toString(hrp)),
    threshold: Number(val(o?.threshold) ?? 0),
    locktime: BigInt(val(o?.locktime) ?? 0),
  };
}

/** What an output holds, whatever its fx type. */
export function describeOutput(output: any, hrp: string): OutputInfo {
  const type: string = output?._type ?? '';
  if (type === 'pvm.StakeableLockOut') {
    const inner = describeOutput(output.transferOut, hrp);
    return { ...inner, stakeableLocktime: BigInt(val(output.lockTime)) };
  }
  if (type === 'secp256k1fx.TransferOutput')
    return {
      amount: BigInt(val(output.amt)),
      ...owners(output.outputOwners, hrp),
      stakeableLocktime: 0n,
      kind: 'transfer',
    };
  if (type === 'secp256k1fx.MintOutput')
    return { amount: 0n, ...owners(output.outputOwners, hrp), stakeableLocktime: 0n, kind: 'mint' };
  if (type === 'nftfx.TransferOutput')
    return {
      amount: 0n,
      ...owners(output.outputOwners, hrp),
      stakeableLocktime: 0n,
      kind: 'nft_transfer',
      groupId: Number(val(output.groupId)),
      payload: utils.bufferToHex(output.payload?.bytes ?? new Uint8Array()),
    };
  if (type === 'nftfx.MintOutput')
    return {
      amount: 0n,
      ...owners(output.outputOwners, hrp),
      stakeableLocktime: 0n,
      kind: 'nft_mint',
      groupId: Number(val(output.groupId)),
    };
  return { amount: 0n, addresses: [], threshold: 0, locktime: 0n, stakeableLocktime: 0n, kind: 'unknown' };
}

/** Owners of a rewards/subnet owner field (secp256k1fx.OutputOwners). */
export function describeOwners(o: any, hrp: string) {
  return owners(o, hrp);
}

/** `UTXOID.InputID()`: sha256(uint64BE(outputIndex) ‖ txID), cb58. */
export function utxoIdOf(txId: Uint8Array, outputIndex: number): string {
  const buf = new Uint8Array(40);
  new DataView(buf.buffer).setBigUint64(0, BigInt(outputIndex));
  buf.set(txId, 8);
  return toCb58(sha256(buf));
}

/**
 * The UTXO's canonical bytes (codec version 0), as hex: version, tx id, output index, asset id,
 * then the output with its type id. Laid out here from the parts at hand rather than through a
 * `Utxo` object, which would decode the ids again and pack each field separately.
 */
export function utxoBytes(
  manager: ReturnType<typeof utils.getManagerForVM>,
  txId: Uint8Array,
  outputIndex: number,
  assetId: Id,
  output: any,
): string {
  const out = manager.getDefaultCodec().PackPrefix(output);
  const bytes = new Uint8Array(2 + 32 + 4 + 32 + out.length);
  bytes.set(txId, 2);
  new DataView(bytes.buffer).setUint32(34, outputIndex);
  bytes.set(assetId.toBytes(), 38);
  bytes.set(out, 70);
  return utils.bufferToHex(bytes);
}

/** Codec version 0 followed by the UTXO (Utxo is not a registered type, so no type id). */
export function packUtxo(manager: ReturnType<typeof utils.getManagerForVM>, utxo: Utxo): string {
  return utils.bufferToHex(
    utils.concatBytes(new Uint8Array([0, 0]), utxo.toBytes(manager.getDefaultCodec())),
  );
}

/** Bytes of one serialized credential: type id, signature count, then 65 bytes per signature. */
const credentialLength = (cred: any): number => 8 + 65 * signaturesOf(cred).length;

/**
 * The unsigned tx's bytes (codec version included), which its signatures sign: the signed tx's
 * bytes without the credentials that end them. Every credential type of the X- and P-chains is
 * a list of 65-byte signatures, so their length is known; a layout that does not check out
 * (the credential count is not where it should be) is packed again instead.
 */
export function unsignedTxBytes(
  bytes: Uint8Array,
  signed: avaxSerial.SignedTx,
  codec: ReturnType<ReturnType<typeof utils.getManagerForVM>['getDefaultCodec']>,
): Uint8Array {
  const creds = signed.credentials as unknown[];
  const end = bytes.length - 4 - creds.reduce<number>((n, c) => n + credentialLength(c), 0);
  if (end >= 2) {
    const count = new DataView(bytes.buffer, bytes.byteOffset + end, 4).getUint32(0);
    if (count === creds.length) return bytes.subarray(0, end);
  }
  return utils.concatBytes(new Uint8Array([0, 0]), codec.PackPrefix(signed.unsignedTx));
}

function signaturesOf(cred: any): any[] {
  return cred?.signatures ?? cred?.getSignatures?.() ?? [];
}

function recover(sig: Uint8Array, hash: Uint8Array): string {
  try {
    return utils.bufferToHex(secp256k1.ecdsaRecover(sig.subarray(0, 64), sig[64], hash, true));
  } catch {
    return '';
  }
}

/** Signatures of a credential with the public keys they recover to over `txHash`. */
export function credentialKeys(cred: any, txHash: Uint8Array): { signature: string; publicKey: string }[] {
  return signaturesOf(cred).map((s) => {
    const bytes: Uint8Array = s.sig ?? s.toBytes?.() ?? s;
    return { signature: utils.bufferToHex(bytes), publicKey: recover(bytes, txHash) };
  });
}
