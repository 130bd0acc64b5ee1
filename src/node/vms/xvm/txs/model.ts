/**
 * A plain view of X-chain transactions, UTXOs and their parts, read out of avalanchejs's
 * serializable classes once, so verification, state updates and JSON formatting work on simple
 * data. The avalanchejs objects are kept beside (`raw`) wherever bytes must be re-packed.
 */
import {
  avaxSerial,
  TransferableInput,
  TransferableOutput,
  TypeSymbols,
  Utxo,
  type OutputOwners,
} from '@avalabs/avalanchejs';
import { toCb58 } from '../../../../shared/encoding.js';
import {
  avmClass,
  avmCodec,
  CodecError,
  idOf,
  parseSignedTx,
  parseUtxo,
  type RawCredential,
} from '../codec.js';
import { readSimpleTx, readSimpleUtxo } from './simple-tx-reader.js';
import { FX, TYPE_ID, type FxIndex } from '../constants.js';

type Serializable = { _type: TypeSymbols; toBytes(codec: unknown): Uint8Array };

export interface Owners {
  readonly locktime: bigint;
  readonly threshold: number;
  readonly addresses: readonly Uint8Array[];
}

/** Every output kind the AVM's secp256k1 and nft fxs define. */
export type Output =
  | { kind: 'secpTransfer'; typeId: 7; fx: 0; amount: bigint; owners: Owners }
  | { kind: 'secpMint'; typeId: 6; fx: 0; owners: Owners }
  | { kind: 'nftMint'; typeId: 10; fx: 1; groupId: number; owners: Owners }
  | { kind: 'nftTransfer'; typeId: 11; fx: 1; groupId: number; payload: Uint8Array; owners: Owners };

export interface TxOutput {
  readonly assetId: Uint8Array;
  readonly output: Output;
  /** The output as the codec writes it (asset id, type id, fields): UTXO bytes and sorting use it. */
  readonly bytes: Uint8Array;
}

export interface UtxoRef {
  readonly txId: Uint8Array;
  readonly outputIndex: number;
}

export interface TxInput extends UtxoRef {
  readonly assetId: Uint8Array;
  readonly amount: bigint;
  readonly sigIndices: readonly number[];
}

export type Operation =
  | {
      kind: 'secpMint';
      typeId: 8;
      fx: 0;
      sigIndices: readonly number[];
      mintOutput: Output & { kind: 'secpMint' };
      transferOutput: Output & { kind: 'secpTransfer' };
    }
  | {
      kind: 'nftMint';
      typeId: 12;
      fx: 1;
      sigIndices: readonly number[];
      groupId: number;
      payload: Uint8Array;
      outputs: readonly Owners[];
    }
  | {
      kind: 'nftTransfer';
      typeId: 13;
      fx: 1;
      sigIndices: readonly number[];
      output: Output & { kind: 'nftTransfer' };
    };

export interface TxOperation {
  readonly assetId: Uint8Array;
  readonly utxos: readonly UtxoRef[];
  readonly op: Operation;
  /** The operation's bytes (asset, UTXO ids, typed op) for sorting. */
  readonly bytes: Uint8Array;
  /** The outputs the operation creates, as codec objects (for packing the new UTXOs). */
  readonly rawOutputs: readonly Serializable[];
}

export interface InitialState {
  readonly fxIndex: number;
  readonly outputs: readonly Output[];
  readonly outputBytes: readonly Uint8Array[];
  readonly rawOutputs: readonly Serializable[];
}

export interface Credential {
  readonly fx: FxIndex;
  readonly signatures: readonly Uint8Array[];
}

export type TxKind = 'BaseTx' | 'CreateAssetTx' | 'OperationTx' | 'ImportTx' | 'ExportTx';

export interface XTx {
  readonly kind: TxKind;
  readonly id: Uint8Array;
  readonly idString: string;
  readonly bytes: Uint8Array;
  readonly unsignedBytes: Uint8Array;
  readonly networkId: number;
  readonly blockchainId: Uint8Array;
  readonly memo: Uint8Array;
  readonly outs: readonly TxOutput[];
  readonly ins: readonly TxInput[];
  readonly createAsset?: {
    readonly name: string;
    readonly symbol: string;
    readonly denomination: number;
    readonly initialStates: readonly InitialState[];
  };
  readonly ops: readonly TxOperation[];
  readonly sourceChain?: Uint8Array;
  readonly importedIns: readonly TxInput[];
  readonly destinationChain?: Uint8Array;
  readonly exportedOuts: readonly TxOutput[];
  readonly credentials: readonly Credential[];
}

/** Parses and reads a signed X-chain tx; CodecError for malformed bytes or unknown types. */
export function readTx(bytes: Uint8Array): XTx {
  // Base, import and export txs holding only secp256k1 amounts (nearly all traffic) are read
  // directly; everything else goes through avalanchejs.
  return readSimpleTx(bytes) ?? readTxWithAvalanchejs(bytes);
}

/** The general reader: any X-chain tx, through avalanchejs's AVM codec. */
export function readTxWithAvalanchejs(bytes: Uint8Array): XTx {
  const signed = parseSignedTx(bytes);
  const unsigned = signed.unsignedTx as Record<string, any> & { _type: TypeSymbols };
  const kind = kindOf(unsigned._type);
  const base = unsigned.baseTx as avaxSerial.BaseTx;
  const id = idOf(bytes);
  const tx: XTx = {
    kind,
    id,
    idString: toCb58(id),
    bytes,
    unsignedBytes: signed.unsignedBytes,
    networkId: base.NetworkId.value(),
    blockchainId: base.BlockchainId.toBytes(),
    memo: base.memo.bytes,
    outs: base.outputs.map(readTransferableOutput),
    ins: base.inputs.map(readTransferableInput),
    ops: [],
    importedIns: [],
    exportedOuts: [],
    credentials: signed.credentials.map(readCredential),
  };
  switch (kind) {
    case 'CreateAssetTx':
      return {
        ...tx,
        createAsset: {
          name: unsigned.name.value(),
          symbol: unsigned.symbol.value(),
          denomination: unsigned.denomination.toBytes()[0],
          initialStates: (unsigned.initialStates as any[]).map(readInitialState),
        },
      };
    case 'OperationTx':
      return { ...tx, ops: (unsigned.ops as any[]).map(readOperation) };
    case 'ImportTx':
      return {
        ...tx,
        sourceChain: unsigned.sourceChain.toBytes(),
        importedIns: (unsigned.ins as TransferableInput[]).map(readTransferableInput),
      };
    case 'ExportTx':
      return {
        ...tx,
        destinationChain: unsigned.destination.toBytes(),
        exportedOuts: (unsigned.outs as TransferableOutput[]).map(readTransferableOutput),
      };
    default:
      return tx;
  }
}

function kindOf(type: TypeSymbols): TxKind {
  switch (type) {
    case TypeSymbols.AvmBaseTx:
      return 'BaseTx';
    case TypeSymbols.CreateAssetTx:
      return 'CreateAssetTx';
    case TypeSymbols.OperationTx:
      return 'OperationTx';
    case TypeSymbols.AvmImportTx:
      return 'ImportTx';
    case TypeSymbols.AvmExportTx:
      return 'ExportTx';
    default:
      throw new CodecError(`unknown transaction type ${type}`);
  }
}

export function readOwners(o: OutputOwners): Owners {
  return {
    locktime: o.locktime.value(),
    threshold: o.threshold.value(),
    addresses: o.addrs.map((a) => a.toBytes()),
  };
}

/** Reads any fx output; CodecError for types an X-chain output cannot be. */
export function readOutput(raw: Serializable): Output {
  const r = raw as unknown as Record<string, any>;
  switch (raw._type) {
    case TypeSymbols.TransferOutput:
      return {
        kind: 'secpTransfer',
        typeId: TYPE_ID.secpTransferOutput,
        fx: FX.secp256k1,
        amount: r.amt.value(),
        owners: readOwners(r.outputOwners),
      };
    case TypeSymbols.SecpMintOutput:
      return {
        kind: 'secpMint',
        typeId: TYPE_ID.secpMintOutput,
        fx: FX.secp256k1,
        owners: readOwners(r.outputOwners),
      };
    case TypeSymbols.NftFxMintOutput:
      return {
        kind: 'nftMint',
        typeId: TYPE_ID.nftMintOutput,
        fx: FX.nft,
        groupId: r.groupId.value(),
        owners: readOwners(r.outputOwners),
      };
    case TypeSymbols.NftFxTransferOutput:
      return {
        kind: 'nftTransfer',
        typeId: TYPE_ID.nftTransferOutput,
        fx: FX.nft,
        groupId: r.groupId.value(),
        payload: r.payload.bytes,
        owners: readOwners(r.outputOwners),
      };
    default:
      throw new CodecError(`${raw._type} is not an output`);
  }
}

function readTransferableOutput(raw: TransferableOutput): TxOutput {
  return {
    assetId: raw.assetId.toBytes(),
    output: readOutput(raw.output as unknown as Serializable),
    bytes: raw.toBytes(avmCodec),
  };
}

function sigIndicesOf(input: any): number[] {
  return (input.sigIndices as { value(): number }[]).map((i) => i.value());
}

function readTransferableInput(raw: TransferableInput): TxInput {
  const inner = raw.input as unknown as Serializable & Record<string, any>;
  if (inner._type !== TypeSymbols.TransferInput) throw new CodecError(`${inner._type} is not an input`);
  return {
    txId: raw.utxoID.txID.toBytes(),
    outputIndex: raw.utxoID.outputIdx.value(),
    assetId: raw.assetId.toBytes(),
    amount: inner.amt.value(),
    sigIndices: sigIndicesOf(inner.input),
  };
}

function readCredential(raw: RawCredential): Credential {
  return { fx: raw.typeId === TYPE_ID.nftCredential ? FX.nft : FX.secp256k1, signatures: raw.signatures };
}

function readInitialState(raw: any): InitialState {
  const rawOutputs = raw.outputs as Serializable[];
  return {
    fxIndex: raw.fxId.value(),
    outputs: rawOutputs.map(readOutput),
    outputBytes: rawOutputs.map((o) => avmCodec.PackPrefix(o as any)),
    rawOutputs,
  };
}

function readOperation(raw: any): TxOperation {
  const op = raw.transferOp as Serializable & Record<string, any>;
  const utxos = (raw.UTXOId as avaxSerial.UTXOID[]).map((u) => ({
    txId: u.txID.toBytes(),
    outputIndex: u.outputIdx.value(),
  }));
  let operation: Operation;
  let rawOutputs: Serializable[];
  switch (op._type) {
    case TypeSymbols.SecpMintOperation:
      operation = {
        kind: 'secpMint',
        typeId: TYPE_ID.secpMintOperation,
        fx: FX.secp256k1,
        sigIndices: sigIndicesOf(op.input),
        mintOutput: readOutput(op.mintOutput) as Output & { kind: 'secpMint' },
        transferOutput: readOutput(op.transferOutput) as Output & { kind: 'secpTransfer' },
      };
      rawOutputs = [op.mintOutput, op.transferOutput];
      break;
    case TypeSymbols.NftFxMintOperation:
      operation = {
        kind: 'nftMint',
        typeId: TYPE_ID.nftMintOperation,
        fx: FX.nft,
        sigIndices: sigIndicesOf(op.input),
        groupId: op.groupId.value(),
        payload: op.payload.bytes,
        outputs: (op.outputOwnerList.outputOwners as OutputOwners[]).map(readOwners),
      };
      // Minting creates one nft transfer output per owner group, all with the op's group and payload.
      rawOutputs = (op.outputOwnerList.outputOwners as OutputOwners[]).map(
        (owners) => new (avmClass(TYPE_ID.nftTransferOutput))(op.groupId, op.payload, owners),
      );
      break;
    case TypeSymbols.NftFxTransferOperation:
      operation = {
        kind: 'nftTransfer',
        typeId: TYPE_ID.nftTransferOperation,
        fx: FX.nft,
        sigIndices: sigIndicesOf(op.input),
        output: readOutput(op.output) as Output & { kind: 'nftTransfer' },
      };
      rawOutputs = [op.output];
      break;
    default:
      throw new CodecError(`${op._type} is not an operation`);
  }
  return { assetId: raw.assetId.toBytes(), utxos, op: operation, bytes: raw.toBytes(avmCodec), rawOutputs };
}

/** A stored UTXO read into its parts. */
export interface XUtxo {
  readonly txId: Uint8Array;
  readonly outputIndex: number;
  readonly assetId: Uint8Array;
  readonly output: Output;
}

export function readUtxo(utxo: Utxo): XUtxo {
  return {
    txId: utxo.utxoId.txID.toBytes(),
    outputIndex: utxo.utxoId.outputIdx.value(),
    assetId: utxo.assetId.toBytes(),
    output: readOutput(utxo.output as unknown as Serializable),
  };
}

/** A UTXO from its stored bytes (codec version included), directly when it is a plain amount. */
export function readStoredUtxo(bytes: Uint8Array): XUtxo {
  return readSimpleUtxo(bytes) ?? readUtxo(parseUtxo(bytes));
}
