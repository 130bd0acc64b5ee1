/**
 * The X-chain's linear block, in the reference's codec layout (avalanchejs has no block codec):
 * codec version u16, type id u32 (StandardBlock = 20), parent id 32, height u64, time u64,
 * merkle root 32 (zeros), then a u32 count and each signed tx without its own codec version.
 * The block id is sha256 of those bytes.
 */
import { avaxSerial } from '@avalabs/avalanchejs';
import { avmCodec, CodecError, idOf, withVersion } from '../codec.js';
import { CODEC_VERSION, TYPE_ID } from '../constants.js';

export interface StandardBlock {
  readonly parentId: Uint8Array;
  readonly height: bigint;
  /** Unix seconds. */
  readonly time: bigint;
  readonly merkleRoot: Uint8Array;
  /** Each tx's signed bytes, codec version included (as tx ids are computed over them). */
  readonly txs: readonly Uint8Array[];
}

const HEADER_BYTES = 2 + 4 + 32 + 8 + 8 + 32 + 4;
export const EMPTY_ID = new Uint8Array(32);

export function encodeBlock(block: StandardBlock): Uint8Array {
  if (block.parentId.length !== 32 || block.merkleRoot.length !== 32)
    throw new CodecError('block ids must be 32 bytes');
  const bodies = block.txs.map((tx) => {
    if (tx.length < 2 || tx[0] !== 0 || tx[1] !== CODEC_VERSION)
      throw new CodecError('a block tx must carry codec version 0');
    return tx.subarray(2);
  });
  const size = HEADER_BYTES + bodies.reduce((n, b) => n + b.length, 0);
  const out = Buffer.alloc(size);
  let at = out.writeUInt16BE(CODEC_VERSION, 0);
  at = out.writeUInt32BE(TYPE_ID.standardBlock, at);
  out.set(block.parentId, at);
  at += 32;
  at = out.writeBigUInt64BE(block.height, at);
  at = out.writeBigUInt64BE(block.time, at);
  out.set(block.merkleRoot, at);
  at += 32;
  at = out.writeUInt32BE(bodies.length, at);
  for (const b of bodies) {
    out.set(b, at);
    at += b.length;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** Decodes block bytes; CodecError when they are not exactly one standard block. */
export function decodeBlock(bytes: Uint8Array): StandardBlock {
  if (bytes.length < HEADER_BYTES) throw new CodecError('block bytes too short');
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const version = buf.readUInt16BE(0);
  if (version !== CODEC_VERSION) throw new CodecError(`unknown codec version: ${version}`);
  const typeId = buf.readUInt32BE(2);
  if (typeId !== TYPE_ID.standardBlock) throw new CodecError(`unknown block type id ${typeId}`);
  let at = 6;
  const parentId = bytes.slice(at, at + 32);
  at += 32;
  const height = buf.readBigUInt64BE(at);
  at += 8;
  const time = buf.readBigUInt64BE(at);
  at += 8;
  const merkleRoot = bytes.slice(at, at + 32);
  at += 32;
  const count = buf.readUInt32BE(at);
  at += 4;
  const txs: Uint8Array[] = [];
  let rest = bytes.subarray(at);
  for (let i = 0; i < count; i++) {
    let remaining: Uint8Array;
    try {
      [, remaining] = avaxSerial.SignedTx.fromBytes(rest, avmCodec);
    } catch (err) {
      throw new CodecError(`block tx ${i}: ${(err as Error).message}`);
    }
    txs.push(withVersion(rest.subarray(0, rest.length - remaining.length)));
    rest = remaining;
  }
  if (rest.length !== 0) throw new CodecError(`${rest.length} unexpected trailing bytes after the block`);
  return { parentId, height, time, merkleRoot, txs };
}

export function blockIdOf(bytes: Uint8Array): Uint8Array {
  return idOf(bytes);
}
