/**
 * A block given by its RLP encoding (debug_traceBlock's argument), read as coreth's types.Block
 * decodes one: [header, transactions, uncles, version?, extData?]. Its refusals are coreth's
 * `could not decode block: …` with geth's rlp words for the common faults.
 */
import { RLP } from '@ethereumjs/rlp';
import type { Common } from '@ethereumjs/common';
import { bytesToBigInt } from '@ethereumjs/util';
import { RpcCode, RpcError } from '../../../rpc/errors.js';
import type { ExecutionHeader } from '../evm-chain.js';
import { keccak256 } from '../keccak.js';
import type { ReplayTx } from './block-replay.js';
import { replaySender } from './replay-tx.js';

export interface RlpBlock {
  hash: Uint8Array;
  parentHash: Uint8Array;
  /** What the engine runs the block's transactions with. */
  header: ExecutionHeader;
  txs: ReplayTx[];
}

function undecodable(message: string): never {
  throw new RpcError(RpcCode.server, `could not decode block: ${message}`);
}

/** geth's rlp.DecodeBytes words for what ethereumjs's decoder refuses. */
function gethRlpWords(message: string): string {
  if (/remainder must be zero/.test(message)) return 'rlp: input contains more than one value';
  if (/out-of-bounds|not enough bytes/.test(message)) return 'rlp: value size exceeds available input length';
  return `rlp: ${message}`;
}

/** The header fields coreth's Header requires (through Nonce); the rest are optional. */
const REQUIRED_HEADER_FIELDS = 15;
const BASE_FEE_FIELD = 16;

export function decodeRlpBlock(common: Common, blob: Uint8Array): RlpBlock {
  if (blob.length === 0) undecodable('EOF');
  let decoded: unknown;
  try {
    decoded = RLP.decode(blob);
  } catch (err) {
    undecodable(gethRlpWords((err as Error).message));
  }
  if (!Array.isArray(decoded)) undecodable('rlp: expected input list for types.extblock');
  if (decoded.length < 3) undecodable('rlp: too few elements for types.extblock');
  const [header, body] = decoded as unknown[];
  const inHeader = ', decoding into (types.extblock).Header';
  if (!Array.isArray(header)) undecodable(`rlp: expected input list for types.Header${inHeader}`);
  if (header.length < REQUIRED_HEADER_FIELDS)
    undecodable(`rlp: too few elements for types.Header${inHeader}`);
  const fields = header as Uint8Array[];
  if (fields.some((f) => !(f instanceof Uint8Array)))
    undecodable(`rlp: expected input string or byte for types.Header${inHeader}`);
  if (!Array.isArray(body)) undecodable('rlp: expected input list for []*types.Transaction');
  const txs = (body as unknown[]).map((entry, index): ReplayTx => {
    // A body holds a legacy transaction as its field list, a typed one as its bytes.
    const raw = Array.isArray(entry) ? RLP.encode(entry as Uint8Array[]) : (entry as Uint8Array);
    let sender: Uint8Array;
    try {
      sender = replaySender(common, raw);
    } catch (err) {
      undecodable(`transaction ${index}: ${(err as Error).message}`);
    }
    return { index, hash: keccak256(raw), sender, raw };
  });
  const n = (i: number) => bytesToBigInt(fields[i]);
  return {
    hash: keccak256(RLP.encode(fields)),
    parentHash: fields[0],
    header: {
      coinbase: fields[2],
      difficulty: n(7),
      number: n(8),
      gasLimit: n(9),
      timestamp: n(11),
      baseFeePerGas: fields.length > BASE_FEE_FIELD ? n(BASE_FEE_FIELD) : 0n,
    },
    txs,
  };
}
