/**
 * A direct reader for the X-chain txs that make up nearly all traffic: BaseTx, ImportTx and
 * ExportTx whose outputs are secp256k1 TransferOutputs and inputs secp256k1 TransferInputs.
 * It reads the codec layout byte by byte (avalanchejs's generic reader costs several times
 * more) and is strict: any other type, a short read or a trailing byte makes it return
 * undefined or throw CodecError, and `readTx` falls back to avalanchejs for the other types.
 */
import { ByteReader } from '../../../../shared/byte-reader.js';
import { toCb58 } from '../../../../shared/encoding.js';
import { CodecError, idOf, readCredentials } from '../codec.js';
import { CODEC_VERSION, FX, TYPE_ID } from '../constants.js';
import type { Owners, TxInput, TxKind, TxOutput, XTx, XUtxo } from './model.js';

const KINDS: Record<number, TxKind> = {
  [TYPE_ID.baseTx]: 'BaseTx',
  [TYPE_ID.importTx]: 'ImportTx',
  [TYPE_ID.exportTx]: 'ExportTx',
};

/** Not a simple tx: let avalanchejs read it. */
class NotSimple extends Error {}

/** The shared cursor; a short input is a codec error, as avalanchejs would raise. */
class Reader extends ByteReader {
  constructor(bytes: Uint8Array) {
    super(bytes, () => new CodecError('unexpected end of transaction bytes'));
  }
}

const OUTPUT_MIN = 32 + 4 + 8 + 8 + 4 + 4;
const INPUT_MIN = 32 + 4 + 32 + 4 + 8 + 4;

function readOutputs(r: Reader): TxOutput[] {
  const n = r.count(OUTPUT_MIN);
  const outs: TxOutput[] = [];
  for (let i = 0; i < n; i++) {
    const start = r.at;
    const assetId = r.take(32);
    if (r.u32() !== TYPE_ID.secpTransferOutput) throw new NotSimple();
    const amount = r.u64();
    const locktime = r.u64();
    const threshold = r.u32();
    const k = r.count(20);
    const addresses: Uint8Array[] = [];
    for (let j = 0; j < k; j++) addresses.push(r.take(20));
    const owners: Owners = { locktime, threshold, addresses };
    outs.push({
      assetId,
      output: { kind: 'secpTransfer', typeId: TYPE_ID.secpTransferOutput, fx: FX.secp256k1, amount, owners },
      bytes: r.bytes.subarray(start, r.at),
    });
  }
  return outs;
}

function readInputs(r: Reader): TxInput[] {
  const n = r.count(INPUT_MIN);
  const ins: TxInput[] = [];
  for (let i = 0; i < n; i++) {
    const txId = r.take(32);
    const outputIndex = r.u32();
    const assetId = r.take(32);
    if (r.u32() !== TYPE_ID.secpTransferInput) throw new NotSimple();
    const amount = r.u64();
    const k = r.count(4);
    const sigIndices: number[] = [];
    for (let j = 0; j < k; j++) sigIndices.push(r.u32());
    ins.push({ txId, outputIndex, assetId, amount, sigIndices });
  }
  return ins;
}

/** The tx, or undefined when it is not a simple one (then avalanchejs reads it). */
export function readSimpleTx(bytes: Uint8Array): XTx | undefined {
  if (bytes.length < 6 || bytes[0] !== 0 || bytes[1] !== CODEC_VERSION) return undefined;
  const r = new Reader(bytes);
  r.at = 2;
  const kind = KINDS[r.u32()];
  if (!kind) return undefined;
  try {
    const networkId = r.u32();
    const blockchainId = r.take(32);
    const outs = readOutputs(r);
    const ins = readInputs(r);
    const memo = r.take(r.count(1));
    let sourceChain: Uint8Array | undefined;
    let destinationChain: Uint8Array | undefined;
    let importedIns: TxInput[] = [];
    let exportedOuts: TxOutput[] = [];
    if (kind === 'ImportTx') {
      sourceChain = r.take(32);
      importedIns = readInputs(r);
    } else if (kind === 'ExportTx') {
      destinationChain = r.take(32);
      exportedOuts = readOutputs(r);
    }
    const unsignedBytes = bytes.subarray(0, r.at);
    const credentials = readCredentials(bytes.subarray(r.at)).map((c) => ({
      fx: c.typeId === TYPE_ID.nftCredential ? FX.nft : FX.secp256k1,
      signatures: c.signatures,
    }));
    const id = idOf(bytes);
    return {
      kind,
      id,
      idString: toCb58(id),
      bytes,
      unsignedBytes,
      networkId,
      blockchainId,
      memo,
      outs,
      ins,
      ops: [],
      sourceChain,
      importedIns,
      destinationChain,
      exportedOuts,
      credentials,
    } as XTx;
  } catch (err) {
    if (err instanceof NotSimple) return undefined;
    throw err;
  }
}

/** A stored UTXO holding a secp256k1 TransferOutput, read directly; undefined for other outputs. */
export function readSimpleUtxo(bytes: Uint8Array): XUtxo | undefined {
  if (bytes.length < 2 + 36 + OUTPUT_MIN || bytes[0] !== 0 || bytes[1] !== CODEC_VERSION) return undefined;
  const r = new Reader(bytes);
  r.at = 2;
  const txId = r.take(32);
  const outputIndex = r.u32();
  try {
    const assetId = r.take(32);
    if (r.u32() !== TYPE_ID.secpTransferOutput) return undefined;
    const amount = r.u64();
    const locktime = r.u64();
    const threshold = r.u32();
    const k = r.count(20);
    const addresses: Uint8Array[] = [];
    for (let j = 0; j < k; j++) addresses.push(r.take(20));
    if (r.at !== bytes.length) throw new CodecError('unexpected trailing bytes after the UTXO');
    return {
      txId,
      outputIndex,
      assetId,
      output: {
        kind: 'secpTransfer',
        typeId: TYPE_ID.secpTransferOutput,
        fx: FX.secp256k1,
        amount,
        owners: { locktime, threshold, addresses },
      },
    };
  } catch (err) {
    if (err instanceof CodecError) return undefined;
    throw err;
  }
}
