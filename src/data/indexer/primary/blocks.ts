/**
 * Block containers of the index API, parsed the way the reference node lays them out (codec
 * version 0, big-endian; avalanchejs has no block codec). Transactions inside a block are written
 * without their codec version; each is read with avalanchejs and given its version back.
 * X-chain: StandardBlock (20). P-chain: Apricot commit (genesis, 2), Banff proposal (29), abort
 * (30), commit (31), standard (32).
 */
import { avaxSerial, utils } from '@avalabs/avalanchejs';
// Staking txs decode without avalanchejs's pure-JS proof-of-possession check: the node that
// accepted them verified it.
import '../../../shared/pvm-proof-of-possession.js';
import { ByteReader } from '../../../shared/byte-reader.js';
import { UpstreamInvalidError } from '../../internal/errors.js';

export type BlockKind = 'standard' | 'proposal' | 'commit' | 'abort' | 'genesis';

export interface ParsedBlock {
  kind: BlockKind;
  /** The reference node's name of the block's type: `StandardBlock` (X), `BanffStandardBlock`, … (P). */
  typeName: string;
  parentId: Uint8Array;
  height: bigint;
  /** Unix seconds; undefined for blocks without a timestamp (Apricot commit). */
  time?: bigint;
  /** The block's txs: bytes with codec version, and the tx as read while finding its end. */
  txs: BlockTx[];
}

export interface BlockTx {
  bytes: Uint8Array;
  signed: avaxSerial.SignedTx;
}

const avmCodec = utils.getManagerForVM('AVM').getDefaultCodec();
const pvmCodec = utils.getManagerForVM('PVM').getDefaultCodec();

/** The shared cursor, plus what blocks add: ids, embedded txs and the end check. */
class Reader extends ByteReader {
  constructor(bytes: Uint8Array) {
    super(bytes, () => new UpstreamInvalidError('block bytes end early'));
  }
  id(): Uint8Array {
    return this.take(32).slice();
  }
  /**
   * Reads `count` signed txs with `codec`, returning each with a codec version prefix and the
   * parsed tx (reading is the only way to find a tx's end, so the decoder reuses the result).
   */
  txs(count: number, codec: typeof avmCodec): BlockTx[] {
    const out: BlockTx[] = [];
    for (let i = 0; i < count; i++) {
      const rest = this.rest();
      let signed: avaxSerial.SignedTx;
      let remaining: Uint8Array;
      try {
        [signed, remaining] = avaxSerial.SignedTx.fromBytes(rest, codec);
      } catch (err) {
        throw new UpstreamInvalidError(`block tx ${i} cannot be parsed: ${(err as Error).message}`);
      }
      const len = rest.length - remaining.length;
      const tx = new Uint8Array(len + 2);
      tx.set(rest.subarray(0, len), 2);
      out.push({ bytes: tx, signed });
      this.at += len;
    }
    return out;
  }
  end(): void {
    if (!this.done()) throw new UpstreamInvalidError('unexpected bytes after the block');
  }
}

export function parseXBlock(bytes: Uint8Array): ParsedBlock {
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new UpstreamInvalidError('X-chain block has an unknown codec version');
  const type = r.u32();
  if (type !== 20) throw new UpstreamInvalidError(`unknown X-chain block type ${type}`);
  const parentId = r.id();
  const height = r.u64();
  const time = r.u64();
  r.id(); // merkle root
  const txs = r.txs(r.u32(), avmCodec);
  r.end();
  return { kind: 'standard', typeName: 'StandardBlock', parentId, height, time, txs };
}

export function parsePBlock(bytes: Uint8Array): ParsedBlock {
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new UpstreamInvalidError('P-chain block has an unknown codec version');
  const type = r.u32();
  switch (type) {
    case 0: // Apricot proposal
    case 1: // Apricot abort
    case 2: // Apricot commit (the genesis block)
    case 3: // Apricot standard
    case 4: {
      // Apricot atomic
      const parentId = r.id();
      const height = r.u64();
      let txs: BlockTx[] = [];
      if (type === 0 || type === 4) txs = r.txs(1, pvmCodec);
      else if (type === 3) txs = r.txs(r.u32(), pvmCodec);
      r.end();
      const kind: BlockKind =
        type === 2
          ? height === 0n
            ? 'genesis'
            : 'commit'
          : type === 1
            ? 'abort'
            : type === 0
              ? 'proposal'
              : 'standard';
      const typeName = `Apricot${['Proposal', 'Abort', 'Commit', 'Standard', 'Atomic'][type]}Block`;
      return { kind, typeName, parentId, height, txs };
    }
    case 29: {
      const time = r.u64();
      const extra = r.txs(r.u32(), pvmCodec);
      const parentId = r.id();
      const height = r.u64();
      const txs = [...extra, ...r.txs(1, pvmCodec)];
      r.end();
      return { kind: 'proposal', typeName: 'BanffProposalBlock', parentId, height, time, txs };
    }
    case 30:
    case 31: {
      const time = r.u64();
      const parentId = r.id();
      const height = r.u64();
      r.end();
      const kind = type === 31 ? 'commit' : 'abort';
      const typeName = type === 31 ? 'BanffCommitBlock' : 'BanffAbortBlock';
      return { kind, typeName, parentId, height, time, txs: [] };
    }
    case 32: {
      const time = r.u64();
      const parentId = r.id();
      const height = r.u64();
      const txs = r.txs(r.u32(), pvmCodec);
      r.end();
      return { kind: 'standard', typeName: 'BanffStandardBlock', parentId, height, time, txs };
    }
    default:
      throw new UpstreamInvalidError(`unknown P-chain block type ${type}`);
  }
}
