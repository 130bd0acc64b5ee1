/**
 * Output and credential details the API shows, read from avalanchejs objects. Many of their
 * fields are private in the TypeScript typings but plain properties at run time; this module is
 * the one place that reaches into them.
 */
import { avaxSerial, Id, Int, Utxo, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import secp256k1 from 'secp256k1';

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
  return utils.base58check.encode(sha256(buf));
}

/** The UTXO's canonical bytes (codec version 0), as hex. */
export function utxoBytes(
  manager: ReturnType<typeof utils.getManagerForVM>,
  txId: string,
  outputIndex: number,
  assetId: Id,
  output: any,
): string {
  const utxo = new Utxo(new avaxSerial.UTXOID(Id.fromString(txId), new Int(outputIndex)), assetId, output);
  return packUtxo(manager, utxo);
}

/** Codec version 0 followed by the UTXO (Utxo is not a registered type, so no type id). */
export function packUtxo(manager: ReturnType<typeof utils.getManagerForVM>, utxo: Utxo): string {
  return utils.bufferToHex(
    utils.concatBytes(new Uint8Array([0, 0]), utxo.toBytes(manager.getDefaultCodec())),
  );
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
  const sigs: any[] = cred?.signatures ?? cred?.getSignatures?.() ?? [];
  return sigs.map((s) => {
    const bytes: Uint8Array = s.sig ?? s.toBytes?.() ?? s;
    return { signature: utils.bufferToHex(bytes), publicKey: recover(bytes, txHash) };
  });
}
