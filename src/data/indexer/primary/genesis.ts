/**
 * Genesis allocations, which no index container carries, read once through public interfaces
 * and written like any batch: rows and a checkpoint of their own (`X/genesis`, `P/genesis`) in
 * one transaction, so a crash never half-writes them and a restart does not write them twice.
 * Spends of genesis UTXOs indexed earlier settle when the outputs arrive (batch.ts).
 *
 * - X-chain: `avm.getTx` of the AVAX asset id is the genesis CreateAssetTx (the reference serves
 *   it; so does Flurry). Its outputs are the genesis UTXOs: tx id = the asset id (not the hash of
 *   the bytes: a devnet's bytes need not hash to its well-known id), output index in order.
 * - P-chain: no standard method lists genesis UTXOs. A Flurry node serves `devnet.getGenesis`
 *   (UTXOs and the genesis validators' txs); against another node they are not indexed.
 */
import { avaxSerial, Id, utils, Utxo } from '@avalabs/avalanchejs';
// Staking txs decode without avalanchejs's pure-JS proof-of-possession check: the node that
// accepted them verified it.
import '../../../shared/pvm-proof-of-possession.js';
import type { Kysely } from 'kysely';
import type { Logger } from '../../../shared/logger.js';
import { UpstreamUnavailableError } from '../../internal/errors.js';
import type { NodeClient } from '../../internal/node-client.js';
import {
  CheckpointConflictError,
  emptyBatch,
  readCheckpoint,
  writeBatch,
  type BatchRows,
} from '../../store/batch.js';
import type { DataSchema } from '../../store/schema.js';
import { decodeBlock, decodeTx, utxoRow, type DecodeContext, type Place } from './decode.js';
import { createIndexReader } from './index-reader.js';
import type { IndexedNetwork } from './network.js';
import { packUtxo } from './outputs.js';
import { readContainerBlock } from './proposervm.js';

/** What `devnet.getGenesis` answers (hex with checksum, as getUTXOs). */
interface DevnetGenesis {
  startTime: number;
  pChain: { utxos: string[]; validatorTxs: string[] };
}

const X_SOURCE = 'X/genesis';
const P_SOURCE = 'P/genesis';
/** Checkpoints of the genesis block rows. */
const BLOCK_SOURCES = { X: 'X/genesis-block', P: 'P/genesis-block' } as const;

const avm = utils.getManagerForVM('AVM');
const pvm = utils.getManagerForVM('PVM');
const val = (x: any): any => (x && typeof x.value === 'function' ? x.value() : x);
/** Node hex: the bytes followed by a 4-byte checksum. */
const unhex = (text: string) => utils.hexToBuffer(text).subarray(0, -4);

/** Indexes what genesis created on X and P, unless a previous start already did. */
export async function indexGenesis(
  db: Kysely<DataSchema>,
  node: NodeClient,
  network: IndexedNetwork,
  logger?: Logger,
): Promise<void> {
  const xDone = (await readCheckpoint(db, X_SOURCE)) > 0;
  const pDone = (await readCheckpoint(db, P_SOURCE)) > 0;
  const blocksDone =
    (await readCheckpoint(db, BLOCK_SOURCES.X)) > 0 && (await readCheckpoint(db, BLOCK_SOURCES.P)) > 0;
  if (xDone && pDone && blocksDone) return;
  const devnet = await optional(() => node.call<DevnetGenesis>('/ext/devnet', 'devnet.getGenesis'));
  const ts = devnet?.startTime ?? (await firstXBlockTime(node));
  const at: Place = { height: 0, blockId: '', ts, seq: 0 };

  if (!xDone) {
    const tx = await optional(() =>
      node.call<{ tx: string }>('/ext/bc/X', 'avm.getTx', { txID: network.avaxAssetID, encoding: 'hex' }),
    );
    if (tx) await write(db, X_SOURCE, xGenesisRows(network, unhex(tx.tx), at));
    else
      logger?.warn(
        'the node does not serve the genesis tx (avm.getTx): X-chain genesis UTXOs are not indexed',
      );
  }
  if (!pDone) {
    if (devnet) await write(db, P_SOURCE, await pGenesisRows(network, node, devnet, at));
    else
      logger?.warn(
        'the node does not serve devnet.getGenesis: P-chain genesis UTXOs and validators are not indexed',
      );
  }
  for (const chain of ['X', 'P'] as const) await indexGenesisBlock(db, node, network, chain, ts, logger);
}

/**
 * The chain's genesis block row. No index holds a genesis block on a real node (the VM sets it
 * as last accepted at initialization; the indexer only hears of blocks accepted through
 * consensus), nor on a Flurry node since it does the same: it is read with `getBlockByHeight` 0.
 * A store that already has it (read from the index of a Flurry data dir that still holds the
 * genesis at position 0) only records the checkpoint; the block source skips such a container.
 * The P-chain genesis has no time of its own: it takes the genesis time.
 */
async function indexGenesisBlock(
  db: Kysely<DataSchema>,
  node: NodeClient,
  network: IndexedNetwork,
  chain: 'X' | 'P',
  ts: number,
  logger?: Logger,
): Promise<void> {
  const source = BLOCK_SOURCES[chain];
  if ((await readCheckpoint(db, source)) > 0) return;
  const chainId = chain === 'X' ? network.xChainID : network.pChainID;
  const rows = emptyBatch();
  if (!(await hasGenesisBlock(db, chainId))) {
    const bytes = await genesisBlock(node, chain);
    if (!bytes) {
      logger?.warn({ chain }, 'the node does not serve getBlockByHeight 0: the genesis block is not indexed');
      return;
    }
    const ctx: DecodeContext = {
      chainId,
      chain,
      hrp: network.hrp,
      manager: chain === 'X' ? avm : pvm,
      node,
      staker: async () => undefined,
      subnetValidatorTx: async () => undefined,
      rememberStaker: () => {},
    };
    await decodeBlock(ctx, { timestampMs: ts * 1000 }, readContainerBlock(chain, bytes), rows);
    // No L1 can exist at genesis: the P-chain starts with no L1 validator and no accrued fee.
    if (chain === 'P')
      for (const b of rows.blocks) Object.assign(b, { active_l1_validators: 0, l1_accrued_fees: '0' });
  }
  await write(db, source, rows);
}

/** Whether the store holds the chain's genesis block row. */
export async function hasGenesisBlock(db: Kysely<DataSchema>, chainId: string): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('height')
    .where('chain_id', '=', chainId)
    .where('height', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/** A call whose absence (unknown method or endpoint) is an answer; an unreachable node is not. */
async function optional<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UpstreamUnavailableError) throw err;
    return undefined;
  }
}

/**
 * The chain's genesis block (`getBlockByHeight` 0), which a real node's index never holds: the
 * VM sets it as last accepted at initialization, and the indexer only hears of blocks accepted
 * through consensus. Undefined from a node that does not serve the method.
 */
async function genesisBlock(node: NodeClient, chain: 'X' | 'P'): Promise<Uint8Array | undefined> {
  const [path, method] =
    chain === 'X' ? ['/ext/bc/X', 'avm.getBlockByHeight'] : ['/ext/bc/P', 'platform.getBlockByHeight'];
  const answer = await optional(() =>
    node.call<{ block: string }>(path, method, { height: '0', encoding: 'hex' }),
  );
  return answer ? unhex(answer.block) : undefined;
}

/** Without the devnet method, the time of the X-chain's first block stands in for genesis time. */
async function firstXBlockTime(node: NodeClient): Promise<number> {
  const [first] = await createIndexReader(node, 'X/block')
    .range(0, 1)
    .catch(() => []);
  if (!first) return 0;
  const time = readContainerBlock('X', first.bytes).block.time;
  return time !== undefined ? Number(time) : Math.floor(first.timestampMs / 1000);
}

async function write(db: Kysely<DataSchema>, source: string, rows: BatchRows): Promise<void> {
  try {
    await writeBatch(db, source, 0, 1, rows);
  } catch (err) {
    // Another indexer on the same store wrote it first.
    if (!(err instanceof CheckpointConflictError)) throw err;
  }
}

/** The genesis CreateAssetTx → the native asset and its outputs, under the asset id. */
export function xGenesisRows(network: IndexedNetwork, bytes: Uint8Array, at: Place): BatchRows {
  const rows = emptyBatch();
  const unsigned: any = avm.unpack(bytes, avaxSerial.SignedTx).unsignedTx;
  if (unsigned._type !== 'avm.CreateAssetTx')
    throw new Error(`the genesis tx of ${network.avaxAssetID} is a ${unsigned._type}, not a CreateAssetTx`);
  const ctx = { chainId: network.xChainID, chain: 'X' as const, hrp: network.hrp, manager: avm };
  const txId = network.avaxAssetID;
  const asset = Id.fromString(txId);
  const outputs: { assetId: Id; output: any }[] = [
    ...((unsigned.baseTx?.outputs ?? []) as any[]).map((o) => ({ assetId: o.assetId, output: o.output })),
    ...(unsigned.initialStates as any[]).flatMap((s) =>
      (s.outputs as any[]).map((output) => ({ assetId: asset, output })),
    ),
  ];
  outputs.forEach((o, outputIndex) => rows.utxos.push(utxoRow(ctx, { txId, outputIndex, ...o, at })));
  rows.assets.push({
    asset_id: txId,
    name: String(val(unsigned.name)),
    symbol: String(val(unsigned.symbol)),
    denomination: Number(unsigned.denomination?.byte?.[0] ?? val(unsigned.denomination) ?? 0),
    asset_type: 'secp256k1',
    cap: 'fixed',
    created_at: at.ts,
    tx_hash: txId,
  });
  return rows;
}

/** The P-chain genesis UTXOs as they are, and the genesis validators as staking txs at height 0. */
async function pGenesisRows(
  network: IndexedNetwork,
  node: NodeClient,
  genesis: DevnetGenesis,
  at: Place,
): Promise<BatchRows> {
  const rows = emptyBatch();
  const ctx: DecodeContext = {
    chainId: network.pChainID,
    chain: 'P',
    hrp: network.hrp,
    manager: pvm,
    node,
    staker: async () => undefined,
    subnetValidatorTx: async () => undefined,
    rememberStaker: () => {},
  };
  for (const hex of genesis.pChain.utxos ?? []) {
    const utxo = pvm.unpack(unhex(hex), Utxo);
    rows.utxos.push({
      ...utxoRow(ctx, {
        txId: utxo.utxoId.txID.toString(),
        txIdBytes: utxo.utxoId.txID.toBytes(),
        outputIndex: Number(val((utxo.utxoId as any).outputIdx)),
        assetId: utxo.assetId,
        output: utxo.output,
        at,
      }),
      utxo_bytes: packUtxo(pvm, utxo),
    });
  }
  // Genesis validators: their staker rows and stake outputs, but no transaction rows (no block
  // holds them).
  const validatorTxs = genesis.pChain.validatorTxs ?? [];
  for (let i = 0; i < validatorTxs.length; i++) {
    const scratch = emptyBatch();
    const bytes = unhex(validatorTxs[i]);
    const tx = { bytes, signed: pvm.unpack(bytes, avaxSerial.SignedTx) };
    await decodeTx(ctx, tx, { ...at, seq: i }, scratch);
    rows.utxos.push(...scratch.utxos);
    rows.stakers.push(...scratch.stakers);
  }
  return rows;
}
