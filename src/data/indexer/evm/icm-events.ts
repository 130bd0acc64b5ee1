/**
 * The ICM (Teleporter) messenger's events, decoded by signature from any contract's logs: the real
 * service keys on the events, not on one messenger address. Pure: no I/O.
 */
import { keccakHex } from '../../evm/abi.js';

/** `TeleporterMessage` as the events carry it (ABI tuple). */
const MESSAGE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)';
const FEE = '(address,uint256)';

export const TOPIC_ICM = {
  send: keccakHex(`SendCrossChainMessage(bytes32,bytes32,${MESSAGE},${FEE})`),
  receive: keccakHex(`ReceiveCrossChainMessage(bytes32,bytes32,address,address,${MESSAGE})`),
  executed: keccakHex('MessageExecuted(bytes32,bytes32)'),
  executionFailed: keccakHex(`MessageExecutionFailed(bytes32,bytes32,${MESSAGE})`),
  receipt: keccakHex(`ReceiptReceived(bytes32,bytes32,address,${FEE})`),
  addFee: keccakHex(`AddFeeAmount(bytes32,${FEE})`),
} as const;

export interface IcmReceiptFact {
  nonce: string;
  relayer: string;
}

export interface IcmMessageBody {
  nonce: string;
  from: string;
  /** 32-byte hex, no 0x. */
  destinationChain: string;
  to: string;
  requiredGasLimit: string;
  receipts: IcmReceiptFact[];
  /** 0x-prefixed message bytes. */
  data: string;
}

export type IcmEvent =
  | { kind: 'send'; messageId: string; message: IcmMessageBody; feeToken: string; feeAmount: string }
  | {
      kind: 'receive';
      messageId: string;
      sourceChain: string;
      deliverer: string;
      rewardRedeemer: string;
      message: IcmMessageBody;
    }
  | { kind: 'executed'; messageId: string }
  | { kind: 'executionFailed'; messageId: string }
  | { kind: 'receipt'; messageId: string }
  | { kind: 'addFee'; messageId: string; feeToken: string; feeAmount: string };

/** A log's data as 32-byte words with bounds-checked readers; throws on out-of-range reads. */
class Words {
  private readonly hex: string;
  constructor(data: string) {
    this.hex = (data.startsWith('0x') ? data.slice(2) : data).toLowerCase();
    if (this.hex.length % 64 !== 0) throw new Error('data is not whole words');
  }
  get count(): number {
    return this.hex.length / 64;
  }
  word(i: number): string {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) throw new Error('read past the data');
    return this.hex.slice(i * 64, i * 64 + 64);
  }
  uint(i: number): bigint {
    return BigInt('0x' + this.word(i));
  }
  /** A word used as an offset or length: small enough to index. */
  small(i: number): number {
    const v = this.uint(i);
    if (v > 1_000_000_000n) throw new Error('offset out of range');
    return Number(v);
  }
  address(i: number): string {
    const w = this.word(i);
    if (!/^0{24}/.test(w)) throw new Error('not an address');
    return '0x' + w.slice(24);
  }
  /** Bytes at byte offset `at` (length word then data). */
  bytes(at: number): string {
    const len = this.small(at / 32);
    const start = (at + 32) * 2;
    if (start + len * 2 > this.hex.length) throw new Error('bytes past the data');
    return '0x' + this.hex.slice(start, start + len * 2);
  }
}

function byteOffset(w: Words, wordIndex: number, base = 0): number {
  const off = base + w.small(wordIndex);
  if (off % 32 !== 0) throw new Error('unaligned offset');
  return off;
}

/** The TeleporterMessage tuple that starts at byte offset `at`. */
function message(w: Words, at: number): IcmMessageBody {
  const i = at / 32;
  const receiptsAt = byteOffset(w, i + 6, at);
  const count = w.small(receiptsAt / 32);
  if (count > 10_000) throw new Error('too many receipts');
  const receipts: IcmReceiptFact[] = [];
  for (let r = 0; r < count; r++) {
    const k = receiptsAt / 32 + 1 + r * 2;
    receipts.push({ nonce: w.uint(k).toString(), relayer: w.address(k + 1) });
  }
  return {
    nonce: w.uint(i).toString(),
    from: w.address(i + 1),
    destinationChain: w.word(i + 2),
    to: w.address(i + 3),
    requiredGasLimit: w.uint(i + 4).toString(),
    receipts,
    data: w.bytes(byteOffset(w, i + 7, at)),
  };
}

function topicWord(topic: string | undefined): string {
  const t = (topic ?? '').toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{64}$/.test(t)) throw new Error('bad topic');
  return t;
}

function topicAddress(topic: string | undefined): string {
  const t = topicWord(topic);
  if (!/^0{24}/.test(t)) throw new Error('not an address');
  return '0x' + t.slice(24);
}

/**
 * The ICM event in a log, or undefined when the log is none (or does not parse as one: a
 * contract may emit a same-named event with other data).
 */
export function decodeIcmLog(topics: string[], data: string): IcmEvent | undefined {
  const topic0 = (topics[0] ?? '').toLowerCase();
  try {
    switch (topic0) {
      case TOPIC_ICM.send: {
        if (topics.length !== 3) return undefined;
        const w = new Words(data);
        return {
          kind: 'send',
          messageId: topicWord(topics[1]),
          message: message(w, byteOffset(w, 0)),
          feeToken: w.address(1),
          feeAmount: w.uint(2).toString(),
        };
      }
      case TOPIC_ICM.receive: {
        if (topics.length !== 4) return undefined;
        const w = new Words(data);
        return {
          kind: 'receive',
          messageId: topicWord(topics[1]),
          sourceChain: topicWord(topics[2]),
          deliverer: topicAddress(topics[3]),
          rewardRedeemer: w.address(0),
          message: message(w, byteOffset(w, 1)),
        };
      }
      case TOPIC_ICM.executed:
        return topics.length === 3 ? { kind: 'executed', messageId: topicWord(topics[1]) } : undefined;
      case TOPIC_ICM.executionFailed:
        return topics.length === 3 ? { kind: 'executionFailed', messageId: topicWord(topics[1]) } : undefined;
      case TOPIC_ICM.receipt:
        return topics.length === 4 ? { kind: 'receipt', messageId: topicWord(topics[1]) } : undefined;
      case TOPIC_ICM.addFee: {
        if (topics.length !== 2) return undefined;
        const w = new Words(data);
        return {
          kind: 'addFee',
          messageId: topicWord(topics[1]),
          feeToken: w.address(0),
          feeAmount: w.uint(1).toString(),
        };
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
