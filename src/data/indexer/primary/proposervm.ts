/**
 * Index block containers as a node holds them: a real AvalancheGo node keeps the X- and P-chain
 * blocks wrapped in proposervm blocks (`vms/proposervm/block`), while the earliest P-chain blocks
 * (and every block of a node without a proposervm, like the devnet's) are the chain's block itself.
 *
 * Wrapper layout (codec version u16 0, then a u32 type id, big-endian):
 * - 0 signed block: parent id (32), timestamp (i64 Unix s), P-chain height (u64), certificate
 *   ([]byte, empty when unsigned), inner block ([]byte); then the signature ([]byte). Its id is
 *   the sha256 of the bytes before the signature's length prefix.
 * - 2 Granite signed block: the same fields, then the epoch (P-chain height u64, number u64,
 *   start time i64), then the signature.
 * - 1 option: parent id (32), inner block ([]byte); its id is the sha256 of all its bytes.
 *
 * P-chain Apricot blocks use type ids 0–4, so a container is taken for a wrapper only when it
 * parses as one exactly (every byte read, the certificate valid, the inner bytes a block of the
 * chain); otherwise it is read as the chain's block. Signatures are not verified: the node
 * accepted the block.
 */
import { X509Certificate } from 'node:crypto';
import { utils } from '@avalabs/avalanchejs';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ByteReader } from '../../../shared/byte-reader.js';
import { formatNodeId } from '../../../shared/encoding.js';
import { UpstreamInvalidError } from '../../internal/errors.js';
import { parsePBlock, parseXBlock, type ParsedBlock } from './blocks.js';

/** What the proposervm wrapper says about a block (absent for a block that is not wrapped). */
export interface ProposerDetails {
  /** The proposervm block's id (the index container id on a real node). */
  id: string;
  parentId: string;
  /** `NodeID-…` of the signer; absent for unsigned blocks and options. */
  nodeId?: string;
  /** Absent for options. */
  pChainHeight?: number;
  /** Unix seconds; absent for options. */
  timestamp?: number;
}

export interface ContainerBlock {
  /** The chain's block: `platform.getBlock` / `avm.getBlock` bytes. */
  bytes: Uint8Array;
  /** The chain's block id (sha256 of `bytes`, cb58), as `platform.getBlock` names it. */
  blockId: string;
  block: ParsedBlock;
  proposer?: ProposerDetails;
}

/** AvalancheGo refuses longer staking certificates (`staking.MaxCertificateLen`). */
const MAX_CERTIFICATE_BYTES = 2048;
const cb58 = (b: Uint8Array) => utils.base58check.encode(b);

/** Proposer node ids by certificate: a chain has few proposers, each signs many blocks. */
const nodeIds = new Map<string, string>();

/** ripemd160(sha256(DER)) of a certificate that parses as X.509, as `ids.NodeIDFromCert`. */
export function nodeIdOfCertificate(der: Uint8Array): string {
  const key = Buffer.from(der).toString('base64');
  const known = nodeIds.get(key);
  if (known) return known;
  if (der.length > MAX_CERTIFICATE_BYTES)
    throw new UpstreamInvalidError(`proposer certificate is longer than ${MAX_CERTIFICATE_BYTES} bytes`);
  try {
    new X509Certificate(der);
  } catch (err) {
    throw new UpstreamInvalidError(`proposer certificate is not X.509: ${(err as Error).message}`);
  }
  const nodeId = formatNodeId(ripemd160(sha256(der)));
  if (nodeIds.size >= 1024) nodeIds.clear();
  nodeIds.set(key, nodeId);
  return nodeId;
}

function parseInner(chain: 'X' | 'P', bytes: Uint8Array): ParsedBlock {
  return chain === 'X' ? parseXBlock(bytes) : parsePBlock(bytes);
}

/** The container as a proposervm block; throws UpstreamInvalidError unless it is exactly one. */
export function parseProposerBlock(chain: 'X' | 'P', bytes: Uint8Array): ContainerBlock {
  const r = new ByteReader(bytes, (m) => new UpstreamInvalidError(`proposervm block: ${m}`));
  if (r.u16() !== 0) throw new UpstreamInvalidError('proposervm block: unknown codec version');
  const type = r.u32();
  let inner: Uint8Array;
  let proposer: ProposerDetails;
  if (type === 1) {
    const parent = r.take(32);
    inner = r.sized();
    if (!r.done()) throw new UpstreamInvalidError('proposervm block: bytes after the option block');
    proposer = { id: cb58(sha256(bytes)), parentId: cb58(parent) };
  } else if (type === 0 || type === 2) {
    const parent = r.take(32);
    const timestamp = BigInt.asIntN(64, r.u64());
    const pChainHeight = r.u64();
    const certificate = r.sized();
    inner = r.sized();
    if (type === 2) r.take(24); // epoch: P-chain height, number, start time
    const unsignedEnd = r.at;
    const signature = r.sized();
    if (!r.done()) throw new UpstreamInvalidError('proposervm block: bytes after the signature');
    if (certificate.length === 0 && signature.length > 0)
      throw new UpstreamInvalidError('proposervm block: a signature without a certificate');
    proposer = {
      id: cb58(sha256(bytes.subarray(0, unsignedEnd))),
      parentId: cb58(parent),
      pChainHeight: Number(pChainHeight),
      timestamp: Number(timestamp),
    };
    if (certificate.length > 0) proposer.nodeId = nodeIdOfCertificate(certificate);
  } else {
    throw new UpstreamInvalidError(`proposervm block: unknown type ${type}`);
  }
  let block: ParsedBlock;
  try {
    block = parseInner(chain, inner);
  } catch (err) {
    throw new UpstreamInvalidError(`proposervm block: inner block: ${(err as Error).message}`);
  }
  return { bytes: inner, blockId: cb58(sha256(inner)), block, proposer };
}

/**
 * An index container of the X- or P-chain → the chain's block, with the proposervm wrapper's
 * details when it has one.
 */
export function readContainerBlock(chain: 'X' | 'P', bytes: Uint8Array): ContainerBlock {
  const plain = (): ContainerBlock => ({
    bytes,
    blockId: cb58(sha256(bytes)),
    block: parseInner(chain, bytes),
  });
  // Wrapper type ids are 0–2 after codec version 0.
  const maybeWrapped =
    bytes.length >= 6 &&
    bytes[0] === 0 &&
    bytes[1] === 0 &&
    bytes[2] === 0 &&
    bytes[3] === 0 &&
    bytes[4] === 0;
  if (!maybeWrapped || bytes[5] > 2) return plain();
  let wrapError: Error;
  try {
    return parseProposerBlock(chain, bytes);
  } catch (err) {
    wrapError = err as Error;
  }
  // X-chain blocks have type 20: these bytes can only have been meant as a wrapper.
  if (chain === 'X') throw wrapError;
  try {
    return plain();
  } catch (err) {
    throw new UpstreamInvalidError(
      `P-chain container is neither a proposervm block (${wrapError.message}) nor a P-chain block (${(err as Error).message})`,
    );
  }
}
