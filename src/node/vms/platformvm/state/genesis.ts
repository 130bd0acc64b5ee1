/**
 * The P-chain's height-0 state from the devnet genesis: allocations as UTXOs with the empty tx id
 * and output index i, as the reference assigns them (an allocation with a lock time becomes a
 * stakeable-locked UTXO, as the reference treats unlock schedules), the
 * primary-network validators as genesis AddPermissionlessValidatorTxs with BLS keys and their
 * stake held as staked, and the X- and C-chains as blockchains of the primary network, whose
 * CreateChainTxs `getTx` serves under their well-known ids (built on demand, not stored).
 */
import {
  avaxSerial,
  BigIntPr,
  Bytes,
  Id,
  Input,
  Int,
  OutputOwners,
  pvmSerial,
  TransferableOutput,
  TransferOutput,
  Stringpr,
  type Utxo,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Genesis } from '../../../genesis/genesis.js';
import type { NodeDatabase } from '../../../storage/database.js';
import { VM_IDS } from '../../../../shared/networks.js';
import { fromCb58, toCb58 } from '../../../../shared/encoding.js';
import { encodeBlock, blockId } from '../block/block.js';
import { makeUtxo, uncheckedProofOfPossession } from '../codec.js';
import type { PlatformConfig } from '../config.js';
import { potentialReward } from '../reward/calculator.js';
import { PRIMARY_NETWORK, type ChainIds } from '../txs/env.js';
import type { PlatformState } from './platform-state.js';

const WEI_PER_NANO_AVAX = 1_000_000_000n;

export interface GenesisResult {
  readonly blockId: Uint8Array;
  readonly time: number;
}

/**
 * Meta key recording that the genesis UTXOs carry the empty tx id, as the reference's do. Data
 * dirs written before it used a seed-derived id (the genesis block's parent) and keep it.
 */
const UTXO_TX_ID_KEY = 'platform/genesis-utxo-tx-id';
const EMPTY_ID = new Uint8Array(32);

/** sha256 of the devnet's genesis parameters: the genesis block's parent. */
function genesisHash(genesis: Genesis): Uint8Array {
  const network = genesis.network;
  return sha256(
    new TextEncoder().encode(`flurry/p-genesis/${network.networkID}/${genesis.seed}/${genesis.startTime}`),
  );
}

/** The tx id of this node's genesis UTXOs (the empty id, or the legacy seed-derived one). */
export function genesisUtxoTxId(db: NodeDatabase, genesis: Genesis): Uint8Array {
  return db.getMetaString(UTXO_TX_ID_KEY) === 'empty' ? EMPTY_ID : genesisHash(genesis);
}

/** The allocations as UTXOs (tx id `txId`, output index = position); a lock time makes a stakeable lock. */
export function genesisUtxos(genesis: Genesis, avax: Uint8Array, txId: Uint8Array): Utxo[] {
  return genesis.pAllocations.map((a, i) => {
    const transfer = new TransferOutput(
      new BigIntPr(a.amount),
      OutputOwners.fromNative([a.shortAddress], 0n, 1),
    );
    const output =
      a.locktime > 0 ? new pvmSerial.StakeableLockOut(new BigIntPr(BigInt(a.locktime)), transfer) : transfer;
    return makeUtxo(txId, i, avax, output);
  });
}

/**
 * The genesis validators as signed (credential-less) AddPermissionlessValidatorTxs, in
 * validator order, so getTx, getStake and the reward path treat them like any other validator.
 */
export function genesisValidatorTxs(genesis: Genesis, ids: ChainIds): Uint8Array[] {
  const network = genesis.network;
  return genesis.validators.map((v) => {
    const owner = OutputOwners.fromNative([v.rewardAddress], 0n, 1);
    const unsigned = new pvmSerial.AddPermissionlessValidatorTx(
      avaxSerial.BaseTx.fromNative(network.networkID, toCb58(ids.p), [], [], new Uint8Array()),
      pvmSerial.SubnetValidator.fromNative(
        v.nodeID,
        BigInt(v.startTime),
        BigInt(v.endTime),
        v.weight,
        new Id(PRIMARY_NETWORK),
      ),
      new pvmSerial.Signer(uncheckedProofOfPossession(v.blsPublicKey, v.blsProofOfPossession)),
      [TransferableOutput.fromNative(toCb58(ids.avax), v.weight, [v.rewardAddress])],
      owner,
      owner,
      new Int(v.delegationFee),
    );
    return new avaxSerial.SignedTx(unsigned, []).toBytes();
  });
}

/** A chain the P-chain genesis creates: what its CreateChainTx carries, and the id it is known by. */
export interface GenesisChain {
  readonly id: Uint8Array;
  readonly name: string;
  readonly vmId: string;
  readonly fxIds: readonly string[];
  /** The VM's genesis bytes (the X-chain's avm genesis, the C-chain's JSON text). */
  readonly genesisData: Uint8Array;
}

/**
 * A genesis chain's signed CreateChainTx as the reference's P-chain genesis holds it
 * (`vms/platformvm/genesis` `New`): network id, the empty blockchain id, no inputs, outputs or
 * memo, the Primary Network as subnet, an empty subnet authorization and no credentials.
 */
export function genesisChainTxBytes(networkId: number, chain: GenesisChain): Uint8Array {
  const unsigned = new pvmSerial.CreateChainTx(
    avaxSerial.BaseTx.fromNative(networkId, toCb58(EMPTY_ID), [], [], new Uint8Array()),
    new Id(PRIMARY_NETWORK),
    new Stringpr(chain.name),
    Id.fromString(chain.vmId),
    chain.fxIds.map((fx) => Id.fromString(fx)),
    new Bytes(chain.genesisData),
    new Input([]),
  );
  return new avaxSerial.SignedTx(unsigned, []).toBytes();
}

export function writeGenesis(
  db: NodeDatabase,
  state: PlatformState,
  genesis: Genesis,
  config: PlatformConfig,
  ids: ChainIds,
  acceptedMs: number,
): { id: Uint8Array; bytes: Uint8Array } {
  let supply = 0n;
  for (const a of genesis.xAllocations) supply += a.amount;
  for (const a of genesis.pAllocations) supply += a.amount;
  for (const a of genesis.cAllocations) supply += a.balanceWei / WEI_PER_NANO_AVAX;
  for (const v of genesis.validators) supply += v.weight;

  db.setMeta(UTXO_TX_ID_KEY, 'empty');
  for (const utxo of genesisUtxos(genesis, ids.avax, EMPTY_ID)) state.addUtxo(utxo);

  const validatorTxs = genesisValidatorTxs(genesis, ids);
  genesis.validators.forEach((v, i) => {
    const bytes = validatorTxs[i];
    const tx = { id: sha256(bytes) };
    const reward = potentialReward(config.reward, BigInt(v.endTime - v.startTime), v.weight, supply);
    supply += reward;
    state.putTx({ id: tx.id, bytes, height: 0n, status: 'Committed', type: 'AddPermissionlessValidatorTx' });
    state.addStaker({
      txId: tx.id,
      kind: 'validator',
      subnet: PRIMARY_NETWORK,
      nodeId: v.nodeShortId,
      weight: v.weight,
      startTime: v.startTime,
      endTime: v.endTime,
      potentialReward: reward,
      delegationFee: v.delegationFee,
      blsPublicKey: v.blsPublicKey,
      accruedDelegateeReward: 0n,
      status: 'current',
      validatorTx: undefined,
    });
    state.validators.change(0n, PRIMARY_NETWORK, v.nodeShortId, v.weight, v.blsPublicKey);
  });

  for (const [id, name, vm] of [
    [ids.x, 'X-Chain', VM_IDS.avm],
    [ids.c, 'C-Chain', VM_IDS.evm],
  ] as const) {
    state.addChain({
      id,
      subnet: PRIMARY_NETWORK,
      name,
      vmId: fromCb58(vm),
      genesis: new Uint8Array(),
      fxIds: [],
      height: 0n,
    });
  }
  state.setCurrentSupply(supply);
  state.setGasState({ capacity: config.gasFee.maxCapacity, excess: 0n, timestamp: genesis.startTime });
  state.setValidatorFeeState({ excess: 0n, accrued: 0n, timestamp: genesis.startTime });

  const bytes = encodeBlock({
    kind: 'genesis',
    parentId: genesisHash(genesis),
    height: 0n,
    time: BigInt(genesis.startTime),
    txs: [],
  });
  const id = blockId(bytes);
  state.putBlock({ height: 0n, id, bytes, time: genesis.startTime, kind: 'genesis', acceptedMs });
  return { id, bytes };
}
