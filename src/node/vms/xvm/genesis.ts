/**
 * The X-chain's genesis as the reference lays it out: one CreateAssetTx creating the native
 * asset, whose fixed-cap holders are the allocations, and whose id is the AVAX asset id; the
 * allocations are UTXOs with that id as their tx id and their position as the output index.
 * `avm.getTx` of the asset id serves the tx, so indexers can read the allocations through the
 * public interface. The devnet keeps the network's well-known asset id, which is not the hash of
 * these bytes (docs/compatibility.md).
 */
import {
  avaxSerial,
  avmSerial,
  BigIntPr,
  Byte,
  Id,
  Int,
  OutputOwners,
  Stringpr,
  TransferOutput,
  Utxo,
} from '@avalabs/avalanchejs';
import { concatBytes } from '@noble/hashes/utils.js';
import { toCb58 } from '../../../shared/encoding.js';
import type { Allocation } from '../../genesis/genesis.js';
import { avmCodec, withVersion } from './codec.js';
import { FX, NATIVE_ASSET } from './constants.js';

function allocationOutput(a: Allocation): TransferOutput {
  return new TransferOutput(
    new BigIntPr(a.amount),
    OutputOwners.fromNative([a.shortAddress], BigInt(a.locktime), 1),
  );
}

/** The allocations as UTXOs: tx id = the asset id, output index = position. */
export function genesisUtxos(avaxAssetId: Uint8Array, allocations: readonly Allocation[]): Utxo[] {
  return allocations.map(
    (a, i) =>
      new Utxo(
        new avaxSerial.UTXOID(new Id(avaxAssetId), new Int(i)),
        new Id(avaxAssetId),
        allocationOutput(a),
      ),
  );
}

/**
 * The genesis CreateAssetTx, unsigned. As the reference's `avm.NewGenesis` builds it, its
 * blockchain id is the empty id (the genesis is written before the chain has an id). Its initial
 * state lists the allocations in order, so output i of the tx is UTXO i of `genesisUtxos`.
 */
function genesisAssetTx(networkId: number, allocations: readonly Allocation[]): avmSerial.CreateAssetTx {
  return new avmSerial.CreateAssetTx(
    avaxSerial.BaseTx.fromNative(networkId, toCb58(new Uint8Array(32)), [], [], new Uint8Array()),
    new Stringpr(NATIVE_ASSET.name),
    new Stringpr(NATIVE_ASSET.symbol),
    new Byte(new Uint8Array([NATIVE_ASSET.denomination])),
    [new avmSerial.InitialState(new Int(FX.secp256k1), allocations.map(allocationOutput))],
  );
}

/** The signed (credential-less) genesis CreateAssetTx, as `avm.getTx` of the asset id serves it. */
export function genesisTxBytes(networkId: number, allocations: readonly Allocation[]): Uint8Array {
  const unsigned = genesisAssetTx(networkId, allocations);
  // Signed tx = the typed unsigned tx, then no credentials (avalanchejs's SignedTx cannot pack an
  // AVM CreateAssetTx: it picks the codec from members only its standard txs have).
  return withVersion(concatBytes(avmCodec.PackPrefix(unsigned), new Uint8Array(4)));
}

/** The alias the reference's X-chain genesis gives the native asset (`genesis.FromConfig`). */
const GENESIS_ASSET_ALIAS = 'AVAX';

/**
 * The X-chain's genesis bytes, the GenesisData of its CreateChainTx in the P-chain genesis: the
 * reference's `avm.Genesis` (codec version, then `Txs []*GenesisAsset`, each an alias and the
 * CreateAssetTx's fields inline — a struct, so no type id), holding the same CreateAssetTx
 * `genesisTxBytes` serves.
 */
export function avmGenesisBytes(networkId: number, allocations: readonly Allocation[]): Uint8Array {
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, 1);
  return withVersion(
    concatBytes(
      count,
      new Stringpr(GENESIS_ASSET_ALIAS).toBytes(),
      genesisAssetTx(networkId, allocations).toBytes(avmCodec),
    ),
  );
}
