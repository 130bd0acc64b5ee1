/**
 * The C-chain's atomic transactions (ImportTx type 0, ExportTx type 1) in the reference's EVM
 * codec, through avalanchejs's `evmSerial` manager. Parsing is strict: codec version 0, the
 * canonical encoding, secp256k1 credentials (type 9) with 65-byte signatures, nothing trailing.
 */
import { evmSerial, utils, Utxo } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';

export const evmManager = utils.getManagerForVM('EVM');
export const evmCodec = evmManager.getDefaultCodec();

const CREDENTIAL_TYPE_ID = 9;
const SIGNATURE_BYTES = 65;

export class AtomicCodecError extends Error {
  override readonly name = 'AtomicCodecError';
}

export interface ParsedAtomicTx {
  readonly kind: 'import' | 'export';
  readonly unsigned: any;
  /** Version + type id + fields: what the signatures commit to. */
  readonly unsignedBytes: Uint8Array;
  readonly credentials: readonly (readonly Uint8Array[])[];
  readonly bytes: Uint8Array;
  readonly id: Uint8Array;
}

export function parseAtomicTx(bytes: Uint8Array): ParsedAtomicTx {
  if (bytes.length < 2) throw new AtomicCodecError("couldn't unpack codec version: not enough bytes");
  const version = (bytes[0] << 8) | bytes[1];
  if (version !== 0) throw new AtomicCodecError(`unknown codec version: ${version}`);
  const body = bytes.subarray(2);
  let unsigned: any;
  let rest: Uint8Array;
  try {
    [unsigned, rest] = evmCodec.UnpackPrefix(body) as unknown as [any, Uint8Array];
  } catch (err) {
    throw new AtomicCodecError((err as Error).message);
  }
  const kind =
    unsigned instanceof evmSerial.ImportTx
      ? 'import'
      : unsigned instanceof evmSerial.ExportTx
        ? 'export'
        : undefined;
  if (!kind) throw new AtomicCodecError('not an atomic transaction (ImportTx or ExportTx)');
  const length = body.length - rest.length;
  const again = evmCodec.PackPrefix(unsigned);
  if (Buffer.compare(Buffer.from(again), Buffer.from(body.subarray(0, length))) !== 0)
    throw new AtomicCodecError('non-canonical encoding');
  return {
    kind,
    unsigned,
    unsignedBytes: bytes.subarray(0, 2 + length),
    credentials: readCredentials(rest),
    bytes,
    id: sha256(bytes),
  };
}

function readCredentials(bytes: Uint8Array): Uint8Array[][] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  const need = (n: number) => {
    if (at + n > view.length) throw new AtomicCodecError('not enough bytes for the credentials');
  };
  need(4);
  const count = view.readUInt32BE(at);
  at += 4;
  const out: Uint8Array[][] = [];
  for (let i = 0; i < count; i++) {
    need(8);
    const typeId = view.readUInt32BE(at);
    if (typeId !== CREDENTIAL_TYPE_ID) throw new AtomicCodecError(`unknown credential type ID ${typeId}`);
    const n = view.readUInt32BE(at + 4);
    at += 8;
    need(n * SIGNATURE_BYTES);
    const sigs: Uint8Array[] = [];
    for (let j = 0; j < n; j++, at += SIGNATURE_BYTES) sigs.push(bytes.slice(at, at + SIGNATURE_BYTES));
    out.push(sigs);
  }
  if (at !== view.length) throw new AtomicCodecError(`${view.length - at} unexpected trailing bytes`);
  return out;
}

export function parseUtxo(bytes: Uint8Array): Utxo {
  if (bytes.length < 2 || bytes[0] !== 0 || bytes[1] !== 0)
    throw new AtomicCodecError('unknown UTXO codec version');
  const [utxo] = Utxo.fromBytes(bytes.subarray(2), evmCodec);
  return utxo;
}

/** A UTXO as the reference packs it: codec version, tx id, output index, asset id, typed output. */
export function packUtxo(txId: Uint8Array, index: number, assetId: Uint8Array, output: any): Uint8Array {
  const idx = Buffer.alloc(4);
  idx.writeUInt32BE(index);
  return Buffer.concat([Buffer.from([0, 0]), txId, idx, assetId, evmCodec.PackPrefix(output)]);
}

/**
 * A block's atomic transactions as the reference carries them in the block's extra data: the
 * codec's encoding of a list of signed transactions (version, count, then each without its
 * own version prefix).
 */
export function encodeAtomicBatch(txs: readonly Uint8Array[]): Uint8Array {
  if (txs.length === 0) return new Uint8Array();
  const count = Buffer.alloc(4);
  count.writeUInt32BE(txs.length);
  return Buffer.concat([Buffer.from([0, 0]), count, ...txs.map((t) => t.subarray(2))]);
}
