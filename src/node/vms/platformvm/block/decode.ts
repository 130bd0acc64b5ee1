/**
 * Reads a whole stored P-chain block: its header and the signed txs inside it. A tx in a block
 * has no codec version and no length prefix, so its end is where the PVM codec stops reading it;
 * each tx comes back with the codec version put back, as `parseSignedTx` and tx ids expect.
 */
import { avaxSerial } from '@avalabs/avalanchejs';
import { ByteReader } from '../../../../shared/byte-reader.js';
import { pvmCodec } from '../codec.js';
import { BLOCK_TYPE, BlockCodecError, type BlockKind } from './block.js';

export interface DecodedBlock {
  readonly kind: BlockKind;
  /** Unix seconds; the genesis block (an Apricot commit block) encodes none. */
  readonly time: bigint | undefined;
  readonly parentId: Uint8Array;
  readonly height: bigint;
  /** A standard block's txs, or a proposal block's decision txs; signed, codec version included. */
  readonly txs: readonly Uint8Array[];
  /** A proposal block's proposal tx. */
  readonly proposalTx: Uint8Array | undefined;
}

const CODEC_VERSION = new Uint8Array(2);
/** The smallest signed tx: a type id, then an empty credential list. */
const MIN_TX_BYTES = 8;

export function decodeBlock(bytes: Uint8Array): DecodedBlock {
  const r = new ByteReader(bytes, (m) => new BlockCodecError(`block: ${m}`));
  if (r.u16() !== 0) throw new BlockCodecError('unknown block codec version');
  const type = r.u32();
  let decoded: DecodedBlock;
  switch (type) {
    case BLOCK_TYPE.apricotCommit:
      decoded = { kind: 'genesis', time: undefined, ...common(r), txs: [], proposalTx: undefined };
      break;
    case BLOCK_TYPE.banffStandard: {
      const time = r.u64();
      const head = common(r);
      decoded = { kind: 'standard', time, ...head, txs: txList(r), proposalTx: undefined };
      break;
    }
    case BLOCK_TYPE.banffProposal: {
      const time = r.u64();
      const txs = txList(r);
      const head = common(r);
      decoded = { kind: 'proposal', time, ...head, txs, proposalTx: signedTx(r) };
      break;
    }
    case BLOCK_TYPE.banffCommit:
    case BLOCK_TYPE.banffAbort: {
      const time = r.u64();
      const kind = type === BLOCK_TYPE.banffCommit ? 'commit' : 'abort';
      decoded = { kind, time, ...common(r), txs: [], proposalTx: undefined };
      break;
    }
    default:
      throw new BlockCodecError(`unknown block type ${type}`);
  }
  if (!r.done()) throw new BlockCodecError('block: trailing bytes');
  return decoded;
}

function common(r: ByteReader): { parentId: Uint8Array; height: bigint } {
  return { parentId: r.take(32), height: r.u64() };
}

function txList(r: ByteReader): Uint8Array[] {
  const n = r.count(MIN_TX_BYTES);
  const txs: Uint8Array[] = [];
  for (let i = 0; i < n; i++) txs.push(signedTx(r));
  return txs;
}

function signedTx(r: ByteReader): Uint8Array {
  const rest = r.rest();
  let left: Uint8Array;
  try {
    [, left] = avaxSerial.SignedTx.fromBytes(rest, pvmCodec);
  } catch (err) {
    throw new BlockCodecError(`block tx: ${err instanceof Error ? err.message : String(err)}`);
  }
  const body = r.take(rest.length - left.length);
  const tx = new Uint8Array(CODEC_VERSION.length + body.length);
  tx.set(CODEC_VERSION);
  tx.set(body, CODEC_VERSION.length);
  return tx;
}
