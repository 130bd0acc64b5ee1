/**
 * The C-chain's atomic transactions, read from `blockExtraData` of its eth blocks (where coreth
 * serves the block body's extra data): an ImportTx consumes UTXOs the X- or P-chain exported to
 * C, an ExportTx creates UTXOs in their atomic memory. They become the primary network's UTXO
 * rows and spends, written with the C-chain's checkpoint, so an exported output shows as
 * consumed once C imports it, and C's exports are listed on their destination. Pure: no I/O.
 *
 * The extra data is the codec's encoding of a list of signed txs (codec version, count, each tx
 * without its version); blocks before Apricot Phase 5 carried one tx (version, tx).
 */
import { evmSerial, Id, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Insertable } from 'kysely';
import { UpstreamInvalidError } from '../../internal/errors.js';
import type {
  TransactionAddressTable,
  TransactionTable,
  UtxoSpendTable,
  UtxoTable,
} from '../../store/schema.js';
import { checksumAddress } from '../../evm/abi.js';
import { utxoRow } from '../primary/decode.js';
import { credentialKeys, utxoIdOf } from '../primary/outputs.js';

const evm = utils.getManagerForVM('EVM');
const codec = evm.getDefaultCodec();
const VERSION = new Uint8Array([0, 0]);
const SIGNATURE_BYTES = 65;

export interface AtomicNetwork {
  /** Blockchain id of the C-chain (whose blocks carry the txs). */
  cChainId: string;
  pChainId: string;
  hrp: string;
  /** The AVAX asset id: what the atomic txs burn of it is summed (`AtomicRows.burned`). */
  avaxAssetId?: string;
}

export interface AtomicRows {
  utxos: Insertable<UtxoTable>[];
  spends: Insertable<UtxoSpendTable>[];
  /** The txs themselves, with their EVM side in `evm_io` (the primary-network transaction lists). */
  transactions: Insertable<TransactionTable>[];
  /** The EVM addresses of the txs (lower-case), for the lists' `addresses` filter. */
  addresses: Insertable<TransactionAddressTable>[];
  /** nAVAX the txs burned: AVAX consumed less AVAX produced. */
  burned: bigint;
}

interface AtomicTx {
  unsigned: any;
  /** Version + unsigned tx: what the signatures commit to. */
  unsignedBytes: Uint8Array;
  credentials: Uint8Array[][];
  /** Version + whole signed tx: its id is the sha256 of these bytes. */
  bytes: Uint8Array;
}

/** Reads one signed tx (without version) at the start of `body`; returns it and its length. */
function readTx(body: Uint8Array): [AtomicTx, number] {
  const [unsigned, afterUnsigned] = codec.UnpackPrefix(body) as unknown as [any, Uint8Array];
  const unsignedLength = body.length - afterUnsigned.length;
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let at = unsignedLength;
  const need = (n: number) => {
    if (at + n > body.length) throw new UpstreamInvalidError('atomic tx credentials end early');
  };
  need(4);
  const count = view.getUint32(at);
  at += 4;
  const credentials: Uint8Array[][] = [];
  for (let i = 0; i < count; i++) {
    need(8);
    const sigs = view.getUint32(at + 4);
    at += 8;
    need(sigs * SIGNATURE_BYTES);
    const list: Uint8Array[] = [];
    for (let j = 0; j < sigs; j++, at += SIGNATURE_BYTES) list.push(body.slice(at, at + SIGNATURE_BYTES));
    credentials.push(list);
  }
  return [
    {
      unsigned,
      unsignedBytes: utils.concatBytes(VERSION, body.subarray(0, unsignedLength)),
      credentials,
      bytes: utils.concatBytes(VERSION, body.subarray(0, at)),
    },
    at,
  ];
}

function readBatch(extra: Uint8Array): AtomicTx[] {
  const view = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
  if (extra.length < 6 || view.getUint16(0) !== 0) throw new UpstreamInvalidError('bad atomic tx list');
  const count = view.getUint32(2);
  const txs: AtomicTx[] = [];
  let at = 6;
  for (let i = 0; i < count; i++) {
    const [tx, length] = readTx(extra.subarray(at));
    txs.push(tx);
    at += length;
  }
  if (at !== extra.length) throw new UpstreamInvalidError('bytes after the atomic tx list');
  return txs;
}

/** The atomic txs of a block's extra data (empty for none). */
export function parseAtomicTxs(extra: Uint8Array): AtomicTx[] {
  if (extra.length === 0) return [];
  try {
    return readBatch(extra);
  } catch (batchErr) {
    try {
      const [tx, length] = readTx(extra.subarray(2));
      if (extra[0] === 0 && extra[1] === 0 && length === extra.length - 2) return [tx];
    } catch {
      // neither layout: report the list's error
    }
    throw batchErr instanceof UpstreamInvalidError
      ? batchErr
      : new UpstreamInvalidError(`atomic txs cannot be parsed: ${(batchErr as Error).message}`);
  }
}

/** The UTXO rows and spends of the atomic txs in one C-chain block. */
export function decodeAtomicTxs(
  network: AtomicNetwork,
  block: { number: number; hash: string; timestamp: number; extraDataHex: string },
): AtomicRows {
  const rows: AtomicRows = { utxos: [], spends: [], transactions: [], addresses: [], burned: 0n };
  /** AVAX among `list`'s amounts (EVM inputs and outputs, or transferable inputs and outputs). */
  const avax = (list: any[], amount: (x: any) => bigint) =>
    list.reduce(
      (sum: bigint, x) => (x.assetId.toString() === network.avaxAssetId ? sum + amount(x) : sum),
      0n,
    );
  const evmAmount = (x: any) => BigInt(x.amount.value());
  const burn = (consumed: bigint, produced: bigint) => {
    if (consumed > produced) rows.burned += consumed - produced;
  };
  const txs = parseAtomicTxs(utils.hexToBuffer(block.extraDataHex));
  txs.forEach((tx, position) => {
    const idBytes = sha256(tx.bytes);
    const txId = utils.base58check.encode(idBytes);
    const at = {
      height: block.number,
      blockId: block.hash,
      ts: block.timestamp,
      seq: block.number * 1_000_000 + position,
    };
    const u = tx.unsigned;
    const hash = sha256(tx.unsignedBytes);
    const evmSide = (list: any[], withCredentials: boolean) =>
      list.map((io, i) => ({
        address: checksumAddress(utils.bufferToHex(io.address.toBytes())),
        assetId: io.assetId.toString(),
        amount: BigInt(io.amount.value()).toString(),
        ...(withCredentials
          ? { credentials: credentialKeys({ signatures: tx.credentials[i] ?? [] }, hash) }
          : {}),
      }));
    const record = (type: 'ImportTx' | 'ExportTx', source: string, destination: string, io: any[]) => {
      const row = {
        tx_hash: txId,
        chain_id: network.cChainId,
        seq: at.seq,
        block_height: at.height,
        block_id: at.blockId,
        timestamp: at.ts,
        tx_type: type,
        memo: '',
        source_chain: source,
        destination_chain: destination,
        evm_io: JSON.stringify(io),
      };
      rows.transactions.push(row);
      for (const address of new Set(io.map((x) => x.address.toLowerCase())))
        rows.addresses.push({
          chain_id: row.chain_id,
          address,
          ts: at.ts,
          seq: at.seq,
          tx_hash: txId,
          tx_type: type,
        });
    };
    if (u instanceof evmSerial.ImportTx) {
      record(
        'ImportTx',
        (u as any).sourceChain.toString(),
        network.cChainId,
        evmSide((u as any).Outs, false),
      );
      burn(
        avax((u as any).importedInputs, (x) => BigInt(x.amount())),
        avax((u as any).Outs, evmAmount),
      );
      (u as any).importedInputs.forEach((input: any, i: number) => {
        const sigs = tx.credentials[i] ?? [];
        rows.spends.push({
          utxo_id: utxoIdOf(input.utxoID.txID.toBytes(), Number(input.utxoID.outputIdx.value())),
          consuming_tx: txId,
          consuming_height: at.height,
          consuming_ts: at.ts,
          credentials: JSON.stringify(credentialKeys({ signatures: sigs }, hash)),
        });
      });
    } else if (u instanceof evmSerial.ExportTx) {
      const destination = (u as any).destinationChain.toString();
      record('ExportTx', network.cChainId, destination, evmSide((u as any).ins, true));
      burn(
        avax((u as any).ins, evmAmount),
        avax((u as any).exportedOutputs, (x) => BigInt(x.output.amount())),
      );
      const ctx = {
        chainId: network.cChainId,
        chain: destination === network.pChainId ? ('P' as const) : ('X' as const),
        hrp: network.hrp,
        manager: evm,
      };
      ((u as any).exportedOutputs as any[]).forEach((out, outputIndex) =>
        rows.utxos.push(
          utxoRow(ctx, {
            txId,
            txIdBytes: idBytes,
            outputIndex,
            assetId: out.assetId as Id,
            output: out.output,
            at,
            consumedOn: destination,
          }),
        ),
      );
    }
  });
  return rows;
}
