/**
 * A direct reader for the P-chain txs wallets issue most: BaseTx, ImportTx and ExportTx whose
 * inputs and outputs are secp256k1 transfers, stakeable-locked or not. avalanchejs's generic
 * decoder copies the rest of the buffer at every field it reads, and `parseSignedTx` then encodes
 * the tx again to prove the bytes canonical; this reader walks the codec layout once and builds
 * the same avalanchejs objects the decoder would. It only answers for bytes it reads exactly
 * (codec version 0, the types below, nothing short, nothing left over): such bytes are canonical
 * by construction. For anything else it answers undefined and `parseSignedTx` takes the generic
 * path, so malformed bytes keep their errors word for word.
 */
import {
  Address,
  avaxSerial,
  BigIntPr,
  Bytes,
  Id,
  Input,
  Int,
  OutputOwners,
  pvmSerial,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { ByteReader } from '../../../../shared/byte-reader.js';
import type { ParsedTx } from '../codec.js';

/** The PVM codec's type ids this reader knows (avalanchego's platformvm codec registry). */
const TYPE = {
  transferInput: 5,
  transferOutput: 7,
  credential: 9,
  importTx: 17,
  exportTx: 18,
  stakeableLockIn: 21,
  stakeableLockOut: 22,
  baseTx: 34,
} as const;

const SIGNATURE_BYTES = 65;
const ID_BYTES = 32;
const ADDRESS_BYTES = 20;
/** Smallest encodings, so a list length past the end is refused before looping. */
const OUTPUT_MIN = ID_BYTES + 4 + 8 + 8 + 4 + 4;
const INPUT_MIN = ID_BYTES + 4 + ID_BYTES + 4 + 8 + 4;
const CREDENTIAL_MIN = 4 + 4;

/** Bytes this reader does not take; the generic decoder reads (or refuses) them. */
class NotSimple extends Error {}

/** A cursor whose fields come back as the avalanchejs primitives the decoder makes (copies). */
class Reader extends ByteReader {
  constructor(bytes: Uint8Array) {
    super(bytes, () => new NotSimple());
  }

  int(): Int {
    return new Int(this.u32());
  }

  bigint(): BigIntPr {
    return new BigIntPr(this.u64());
  }

  id(): Id {
    return new Id(this.take(ID_BYTES).slice());
  }

  /** A type id that must be one of those given (up to three; no rest array on this hot path). */
  typeId(a: number, b = a, c = b): number {
    const type = this.u32();
    if (type !== a && type !== b && type !== c) throw new NotSimple();
    return type;
  }
}

function transferOutput(r: Reader): TransferOutput {
  const amount = r.bigint();
  const locktime = r.bigint();
  const threshold = r.int();
  const n = r.count(ADDRESS_BYTES);
  const addresses: Address[] = [];
  for (let i = 0; i < n; i++) addresses.push(new Address(r.take(ADDRESS_BYTES).slice()));
  return new TransferOutput(amount, new OutputOwners(locktime, threshold, addresses));
}

function transferInput(r: Reader): TransferInput {
  const amount = r.bigint();
  const n = r.count(4);
  const sigIndices: Int[] = [];
  for (let i = 0; i < n; i++) sigIndices.push(r.int());
  return new TransferInput(amount, new Input(sigIndices));
}

function outputs(r: Reader): TransferableOutput[] {
  const n = r.count(OUTPUT_MIN);
  const outs: TransferableOutput[] = [];
  for (let i = 0; i < n; i++) {
    const assetId = r.id();
    if (r.typeId(TYPE.transferOutput, TYPE.stakeableLockOut) === TYPE.transferOutput) {
      outs.push(new TransferableOutput(assetId, transferOutput(r)));
    } else {
      const lockTime = r.bigint();
      r.typeId(TYPE.transferOutput);
      outs.push(new TransferableOutput(assetId, new pvmSerial.StakeableLockOut(lockTime, transferOutput(r))));
    }
  }
  return outs;
}

function inputs(r: Reader): TransferableInput[] {
  const n = r.count(INPUT_MIN);
  const ins: TransferableInput[] = [];
  for (let i = 0; i < n; i++) {
    const utxoId = new avaxSerial.UTXOID(r.id(), r.int());
    const assetId = r.id();
    if (r.typeId(TYPE.transferInput, TYPE.stakeableLockIn) === TYPE.transferInput) {
      ins.push(new TransferableInput(utxoId, assetId, transferInput(r)));
    } else {
      const lockTime = r.bigint();
      r.typeId(TYPE.transferInput);
      ins.push(
        new TransferableInput(utxoId, assetId, new pvmSerial.StakeableLockIn(lockTime, transferInput(r))),
      );
    }
  }
  return ins;
}

function baseTx(r: Reader): avaxSerial.BaseTx {
  const networkId = r.int();
  const blockchainId = r.id();
  const outs = outputs(r);
  const ins = inputs(r);
  const memo = new Bytes(r.sized().slice());
  return new avaxSerial.BaseTx(networkId, blockchainId, outs, ins, memo);
}

/** Each credential's signatures (secp256k1fx credentials only), as `parseSignedTx` answers them. */
function credentials(r: Reader): Uint8Array[][] {
  const n = r.count(CREDENTIAL_MIN);
  const creds: Uint8Array[][] = [];
  for (let i = 0; i < n; i++) {
    r.typeId(TYPE.credential);
    const k = r.count(SIGNATURE_BYTES);
    const signatures: Uint8Array[] = [];
    // Plain copies whatever the input's class, as the generic path's `new Uint8Array(sig.toBytes())`.
    for (let j = 0; j < k; j++) signatures.push(new Uint8Array(r.take(SIGNATURE_BYTES)));
    creds.push(signatures);
  }
  return creds;
}

/** The parsed tx, or undefined when the bytes are not a simple tx read exactly. */
export function readSimpleTx(bytes: Uint8Array): ParsedTx | undefined {
  const r = new Reader(bytes);
  try {
    if (r.u16() !== 0) return undefined;
    const type = r.typeId(TYPE.baseTx, TYPE.importTx, TYPE.exportTx);
    const base = baseTx(r);
    const unsigned =
      type === TYPE.baseTx
        ? new pvmSerial.BaseTx(base)
        : type === TYPE.importTx
          ? new pvmSerial.ImportTx(base, r.id(), inputs(r))
          : new pvmSerial.ExportTx(base, r.id(), outputs(r));
    const unsignedLength = r.at;
    const creds = credentials(r);
    if (!r.done()) return undefined;
    return {
      id: sha256(bytes),
      bytes,
      unsigned,
      unsignedBytes: bytes.slice(0, unsignedLength),
      credentials: creds,
    };
  } catch (err) {
    if (err instanceof NotSimple) return undefined;
    throw err;
  }
}
