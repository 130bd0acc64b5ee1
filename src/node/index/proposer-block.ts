/**
 * Proposervm blocks around the chains' blocks, as the reference node keeps them in its block
 * indexes (`vms/proposervm/block`). The devnet's validators have no staking certificates, so every
 * block is built unsigned (empty certificate and signature), as the reference's `BuildUnsigned`.
 *
 * Layout (codec version u16 0, then a u32 type id, big-endian):
 * - 2 Granite block: parent id (32), timestamp (i64 Unix s), P-chain height (u64), certificate
 *   ([]byte, empty), inner block ([]byte), epoch (P-chain height u64, number u64, start time i64),
 *   then the signature ([]byte, empty). Its id is the sha256 of the bytes before the signature.
 * - 1 option (the commit or abort after a proposal block): parent id (32), inner block ([]byte);
 *   its id is the sha256 of all its bytes.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** ACP-181 epoch a block was built in. */
export interface ProposerEpoch {
  readonly pChainHeight: bigint;
  readonly number: bigint;
  readonly startTime: bigint;
}

/** How to wrap a block: a (Granite) block built at a P-chain height, or an option. */
export type ProposerWrap =
  | {
      readonly kind: 'block';
      readonly timestamp: bigint;
      readonly pChainHeight: bigint;
      readonly epoch: ProposerEpoch;
    }
  | { readonly kind: 'option' };

export interface ProposerBlock {
  /** The proposervm block id (32 bytes). */
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
}

const CODEC_VERSION = 0;
const TYPE_OPTION = 1;
const TYPE_GRANITE = 2;

/** The reference's `GraniteEpochDuration` on mainnet and Fuji. */
export const EPOCH_SECONDS = 300;

/**
 * The epoch of `time`: fixed windows of `EPOCH_SECONDS` counted from genesis, numbered from 1,
 * each pinned to the P-chain height reached before it began (`heightAtTime` of the second before):
 * a P block accepted in the epoch's first second carries its start time as well, and must not
 * change the epoch of blocks the other chains already built in it.
 */
export function epochAt(
  genesisTime: number,
  time: number,
  heightAtTime: (t: number) => bigint,
): ProposerEpoch {
  const index = Math.floor((Math.max(time, genesisTime) - genesisTime) / EPOCH_SECONDS);
  const startTime = genesisTime + index * EPOCH_SECONDS;
  return {
    pChainHeight: heightAtTime(startTime - 1),
    number: BigInt(index + 1),
    startTime: BigInt(startTime),
  };
}

/** Wraps `inner` with parent `parentId` (32 bytes) as `wrap` says. */
export function buildProposerBlock(
  parentId: Uint8Array,
  inner: Uint8Array,
  wrap: ProposerWrap,
): ProposerBlock {
  if (parentId.length !== 32) throw new Error('proposervm parent id must be 32 bytes');
  if (wrap.kind === 'option') {
    const bytes = new Uint8Array(2 + 4 + 32 + 4 + inner.length);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, CODEC_VERSION);
    view.setUint32(2, TYPE_OPTION);
    bytes.set(parentId, 6);
    view.setUint32(38, inner.length);
    bytes.set(inner, 42);
    return { id: sha256(bytes), bytes };
  }
  // header 6, parent 32, timestamp 8, P-chain height 8, certificate 4, block 4+n, epoch 24, signature 4
  const unsignedLength = 6 + 32 + 8 + 8 + 4 + 4 + inner.length + 24;
  const bytes = new Uint8Array(unsignedLength + 4);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, CODEC_VERSION);
  view.setUint32(2, TYPE_GRANITE);
  bytes.set(parentId, 6);
  view.setBigInt64(38, wrap.timestamp);
  view.setBigUint64(46, wrap.pChainHeight);
  view.setUint32(54, 0); // no certificate
  view.setUint32(58, inner.length);
  bytes.set(inner, 62);
  let at = 62 + inner.length;
  view.setBigUint64(at, wrap.epoch.pChainHeight);
  view.setBigUint64(at + 8, wrap.epoch.number);
  view.setBigInt64(at + 16, wrap.epoch.startTime);
  at += 24;
  view.setUint32(at, 0); // no signature
  return { id: sha256(bytes.subarray(0, unsignedLength)), bytes };
}
