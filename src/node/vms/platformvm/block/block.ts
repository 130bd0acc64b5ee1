/**
 * P-chain blocks in the reference's binary form (codec version 0, big-endian): Banff standard,
 * proposal, commit and abort blocks, and the Apricot commit block the genesis block is. A block's
 * id is sha256 of its bytes. Transactions inside a block are written without their codec version.
 */
import { sha256 } from '@noble/hashes/sha2.js';

export const BLOCK_TYPE = {
  apricotCommit: 2,
  banffProposal: 29,
  banffAbort: 30,
  banffCommit: 31,
  banffStandard: 32,
} as const;

export type BlockKind = 'standard' | 'proposal' | 'commit' | 'abort' | 'genesis';

export interface PlatformBlock {
  readonly kind: BlockKind;
  readonly parentId: Uint8Array;
  readonly height: bigint;
  /** Unix seconds (the genesis block carries the genesis time, which is not encoded). */
  readonly time: bigint;
  /** Signed txs, codec version included. */
  readonly txs: readonly Uint8Array[];
}

export class BlockCodecError extends Error {
  override readonly name = 'BlockCodecError';
}

class Writer {
  private readonly parts: Uint8Array[] = [];
  u16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(v);
    this.parts.push(b);
    return this;
  }
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v);
    this.parts.push(b);
    return this;
  }
  u64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(v);
    this.parts.push(b);
    return this;
  }
  raw(v: Uint8Array): this {
    this.parts.push(v);
    return this;
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.parts));
  }
}

function stripCodec(tx: Uint8Array): Uint8Array {
  if (tx.length < 2 || tx[0] !== 0 || tx[1] !== 0) throw new BlockCodecError('tx is not codec version 0');
  return tx.subarray(2);
}

export function encodeBlock(block: PlatformBlock): Uint8Array {
  const w = new Writer().u16(0);
  switch (block.kind) {
    case 'genesis':
      return w.u32(BLOCK_TYPE.apricotCommit).raw(block.parentId).u64(block.height).bytes();
    case 'standard':
      w.u32(BLOCK_TYPE.banffStandard).u64(block.time).raw(block.parentId).u64(block.height);
      w.u32(block.txs.length);
      for (const tx of block.txs) w.raw(stripCodec(tx));
      return w.bytes();
    case 'proposal':
      if (block.txs.length !== 1) throw new BlockCodecError('a proposal block carries exactly one tx');
      return w
        .u32(BLOCK_TYPE.banffProposal)
        .u64(block.time)
        .u32(0)
        .raw(block.parentId)
        .u64(block.height)
        .raw(stripCodec(block.txs[0]))
        .bytes();
    case 'commit':
    case 'abort':
      return w
        .u32(block.kind === 'commit' ? BLOCK_TYPE.banffCommit : BLOCK_TYPE.banffAbort)
        .u64(block.time)
        .raw(block.parentId)
        .u64(block.height)
        .bytes();
  }
}

export function blockId(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}

/** Reads the header of stored block bytes (the txs are kept beside the block in state). */
export function decodeBlockHeader(bytes: Uint8Array): {
  kind: BlockKind;
  time: bigint | undefined;
  parentId: Uint8Array;
  height: bigint;
} {
  const b = Buffer.from(bytes);
  if (b.length < 6 || b.readUInt16BE(0) !== 0) throw new BlockCodecError('unknown block codec version');
  const type = b.readUInt32BE(2);
  switch (type) {
    case BLOCK_TYPE.apricotCommit:
      return {
        kind: 'genesis',
        time: undefined,
        parentId: bytes.subarray(6, 38),
        height: b.readBigUInt64BE(38),
      };
    case BLOCK_TYPE.banffStandard:
    case BLOCK_TYPE.banffCommit:
    case BLOCK_TYPE.banffAbort:
      return {
        kind:
          type === BLOCK_TYPE.banffStandard
            ? 'standard'
            : type === BLOCK_TYPE.banffCommit
              ? 'commit'
              : 'abort',
        time: b.readBigUInt64BE(6),
        parentId: bytes.subarray(14, 46),
        height: b.readBigUInt64BE(46),
      };
    case BLOCK_TYPE.banffProposal:
      return {
        kind: 'proposal',
        time: b.readBigUInt64BE(6),
        parentId: bytes.subarray(18, 50),
        height: b.readBigUInt64BE(50),
      };
    default:
      throw new BlockCodecError(`unknown block type ${type}`);
  }
}

/** The signed bytes of the node-issued RewardValidatorTx (type 20) for a staker. */
export function rewardValidatorTxBytes(stakerTxId: Uint8Array): Uint8Array {
  return new Writer().u16(0).u32(20).raw(stakerTxId).u32(0).bytes();
}
