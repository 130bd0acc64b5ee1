/**
 * The block format, shaped like the reference C-chain's: the Ethereum header fields plus
 * `extDataHash`, `extDataGasUsed` and `blockGasCost`, and a body of
 * [header, transactions, uncles, version, extData] where extData carries the block's atomic
 * transactions. The block hash is keccak256 of the header's RLP, as in the reference, so the
 * bytes in the C-chain block index are the real block.
 */
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import { keccak256 } from '../keccak.js';
import { txBytes } from '../tx-bytes.js';

export const EMPTY_UNCLE_HASH = keccak256(RLP.encode([]));
export const EMPTY_ROOT = keccak256(RLP.encode(new Uint8Array()));
/** Coinbase of every C-chain block: fees (base and tip) are burned there. */
export const BLACKHOLE_ADDRESS = Uint8Array.from(
  Buffer.from('0100000000000000000000000000000000000000', 'hex'),
);

export interface EvmHeader {
  parentHash: Uint8Array;
  uncleHash: Uint8Array;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  transactionsRoot: Uint8Array;
  receiptsRoot: Uint8Array;
  logsBloom: Uint8Array;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  timestamp: bigint;
  extraData: Uint8Array;
  mixHash: Uint8Array;
  nonce: Uint8Array;
  extDataHash: Uint8Array;
  baseFeePerGas: bigint;
  extDataGasUsed: bigint;
  blockGasCost: bigint;
  blobGasUsed: bigint;
  excessBlobGas: bigint;
  parentBeaconBlockRoot: Uint8Array;
}

/** An accepted block as the chain keeps its head: number, hash and decoded header. */
export interface ChainHead {
  number: bigint;
  hash: Uint8Array;
  header: EvmHeader;
}

const u = bigIntToUnpaddedBytes;

export function headerFields(h: EvmHeader): Uint8Array[] {
  return [
    h.parentHash,
    h.uncleHash,
    h.coinbase,
    h.stateRoot,
    h.transactionsRoot,
    h.receiptsRoot,
    h.logsBloom,
    u(h.difficulty),
    u(h.number),
    u(h.gasLimit),
    u(h.gasUsed),
    u(h.timestamp),
    h.extraData,
    h.mixHash,
    h.nonce,
    h.extDataHash,
    u(h.baseFeePerGas),
    u(h.extDataGasUsed),
    u(h.blockGasCost),
    u(h.blobGasUsed),
    u(h.excessBlobGas),
    h.parentBeaconBlockRoot,
  ];
}

export function encodeHeader(h: EvmHeader): Uint8Array {
  return RLP.encode(headerFields(h));
}

export function decodeHeader(bytes: Uint8Array): EvmHeader {
  const f = RLP.decode(bytes) as Uint8Array[];
  if (!Array.isArray(f) || f.length !== 22) throw new Error('malformed header');
  const b = (x: Uint8Array) => bytesToBigInt(x);
  return {
    parentHash: f[0],
    uncleHash: f[1],
    coinbase: f[2],
    stateRoot: f[3],
    transactionsRoot: f[4],
    receiptsRoot: f[5],
    logsBloom: f[6],
    difficulty: b(f[7]),
    number: b(f[8]),
    gasLimit: b(f[9]),
    gasUsed: b(f[10]),
    timestamp: b(f[11]),
    extraData: f[12],
    mixHash: f[13],
    nonce: f[14],
    extDataHash: f[15],
    baseFeePerGas: b(f[16]),
    extDataGasUsed: b(f[17]),
    blockGasCost: b(f[18]),
    blobGasUsed: b(f[19]),
    excessBlobGas: b(f[20]),
    parentBeaconBlockRoot: f[21],
  };
}

export function hashHeader(headerRlp: Uint8Array): Uint8Array {
  return keccak256(headerRlp);
}

/** The extra data (the C-chain's atomic txs) of a block's bytes: the body's fifth element. */
export function blockExtData(blockBytes: Uint8Array): Uint8Array {
  const body = RLP.decode(blockBytes) as unknown[];
  const extra = body[4];
  return extra instanceof Uint8Array ? extra : new Uint8Array();
}

export function extDataHash(extData: Uint8Array): Uint8Array {
  return keccak256(RLP.encode(extData));
}

/** A transaction as it sits in a block body: legacy as its field list, typed as bytes. */
function bodyTx(tx: TypedTransaction): Uint8Array | Uint8Array[] {
  return tx.type === 0 ? (tx.raw() as Uint8Array[]) : txBytes(tx);
}

export function encodeBlock(
  headerRlp: Uint8Array,
  txs: readonly TypedTransaction[],
  extData: Uint8Array,
): Uint8Array {
  const header = RLP.decode(headerRlp) as Uint8Array[];
  return RLP.encode([header, txs.map(bodyTx), [], u(0n), extData]);
}

export function hex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}
