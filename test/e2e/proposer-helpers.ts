/**
 * Reads index block containers the way a client of a real node does: the bytes are a proposervm
 * block (`vms/proposervm/block`) around the chain's block, and the container id is the proposervm
 * block's id. Written from the layout, independently of the node's builder.
 */
import { createHash } from 'node:crypto';
import { utils } from '@avalabs/avalanchejs';

export interface UnwrappedContainer {
  /** 0 block, 1 option, 2 Granite block. */
  type: number;
  /** The proposervm block id (cb58): sha256 of the unsigned bytes, of all bytes for an option. */
  id: string;
  parentId: string;
  /** Absent for options. */
  timestamp?: number;
  pChainHeight?: bigint;
  certificate?: Uint8Array;
  signature?: Uint8Array;
  epoch?: { pChainHeight: bigint; number: bigint; startTime: bigint };
  /** The chain's block. */
  inner: Uint8Array;
  /** cb58 sha256 of the inner block (`platform.getBlock`/`avm.getBlock` id). */
  innerId: string;
}

const sha = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
export const cb58 = (b: Uint8Array) => utils.base58check.encode(b);

/** `0x…` hex with the 4-byte checksum the index API appends → the bytes. */
export function containerBytes(hex: string): Uint8Array {
  const b = Buffer.from(hex.replace(/^0x/, ''), 'hex');
  return new Uint8Array(b.subarray(0, b.length - 4));
}

/** Parses a proposervm block; throws unless `bytes` are exactly one. */
export function unwrapContainer(input: Uint8Array | string): UnwrappedContainer {
  const bytes = typeof input === 'string' ? containerBytes(input) : input;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) throw new Error('proposervm block ends early');
  };
  const u32 = () => (need(4), (at += 4), view.getUint32(at - 4));
  const u64 = () => (need(8), (at += 8), view.getBigUint64(at - 8));
  const take = (n: number) => (need(n), (at += n), bytes.subarray(at - n, at));
  const sized = () => take(u32());
  need(2);
  if (view.getUint16(0) !== 0) throw new Error('proposervm codec version is not 0');
  at = 2;
  const type = u32();
  const parentId = cb58(take(32));
  if (type === 1) {
    const inner = sized();
    if (at !== bytes.length) throw new Error('bytes after the option');
    return { type, id: cb58(sha(bytes)), parentId, inner, innerId: cb58(sha(inner)) };
  }
  if (type !== 0 && type !== 2) throw new Error(`not a proposervm block type: ${type}`);
  const timestamp = Number(BigInt.asIntN(64, u64()));
  const pChainHeight = u64();
  const certificate = sized();
  const inner = sized();
  const epoch =
    type === 2 ? { pChainHeight: u64(), number: u64(), startTime: BigInt.asIntN(64, u64()) } : undefined;
  const unsignedEnd = at;
  const signature = sized();
  if (at !== bytes.length) throw new Error('bytes after the signature');
  return {
    type,
    id: cb58(sha(bytes.subarray(0, unsignedEnd))),
    parentId,
    timestamp,
    pChainHeight,
    certificate,
    signature,
    epoch,
    inner,
    innerId: cb58(sha(inner)),
  };
}

/** The inner block bytes of a container as `0x…` hex with checksum, as `getBlock` answers them. */
export function innerHex(container: { bytes: string }): string {
  const inner = unwrapContainer(container.bytes).inner;
  return '0x' + Buffer.concat([inner, sha(inner).subarray(28)]).toString('hex');
}

/** The chain's block id in a container: the inner id of a proposervm block, else the container id. */
export function blockIdOf(container: { id: string; bytes: string }): string {
  try {
    return unwrapContainer(container.bytes).innerId;
  } catch {
    return container.id; // a genesis block, indexed as itself
  }
}
