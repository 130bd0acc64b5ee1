/**
 * The P-chain's height-0 state from the devnet genesis: allocations as UTXOs (an allocation with
 * a lock time becomes a stakeable-locked UTXO, as the reference treats unlock schedules), the
 * primary-network validators as genesis AddPermissionlessValidatorTxs with BLS keys and their
 * stake held as staked, and the X- and C-chains as blockchains of the primary network.
 */
import {
  avaxSerial,
  BigIntPr,
  Id,
  Int,
  OutputOwners,
  pvmSerial,
  TransferableOutput,
  TransferOutput,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Genesis } from '../../../genesis/genesis.js';
import { VM_IDS } from '../../../../shared/networks.js';
import { fromCb58, toCb58 } from '../../../../shared/encoding.js';
import { encodeBlock, blockId } from '../block/block.js';
import { makeUtxo, uncheckedProofOfPossession } from '../codec.js';
import type { PlatformConfig } from '../config.js';
import { potentialReward } from '../reward/calculator.js';
import { PRIMARY_NETWORK, type ChainIds } from '../txs/executor.js';
import type { PlatformState } from './platform-state.js';

const WEI_PER_NANO_AVAX = 1_000_000_000n;

export interface GenesisResult {
  readonly blockId: Uint8Array;
  readonly time: number;
}

export function writeGenesis(
  state: PlatformState,
  genesis: Genesis,
  config: PlatformConfig,
  ids: ChainIds,
  acceptedMs: number,
): { id: Uint8Array; bytes: Uint8Array } {
  const network = genesis.network;
  const genesisId = sha256(
    new TextEncoder().encode(`flurry/p-genesis/${network.networkID}/${genesis.seed}/${genesis.startTime}`),
  );
  let supply = 0n;
  for (const a of genesis.xAllocations) supply += a.amount;
  for (const a of genesis.pAllocations) supply += a.amount;
  for (const a of genesis.cAllocations) supply += a.balanceWei / WEI_PER_NANO_AVAX;
  for (const v of genesis.validators) supply += v.weight;

  genesis.pAllocations.forEach((a, i) => {
    const transfer = new TransferOutput(
      new BigIntPr(a.amount),
      OutputOwners.fromNative([a.shortAddress], 0n, 1),
    );
    const output =
      a.locktime > 0 ? new pvmSerial.StakeableLockOut(new BigIntPr(BigInt(a.locktime)), transfer) : transfer;
    state.addUtxo(makeUtxo(genesisId, i, ids.avax, output));
  });

  // Genesis validators are recorded as (credential-less) AddPermissionlessValidatorTxs, so
  // getTx, getStake and the reward path treat them like any other validator.
  for (const v of genesis.validators) {
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
    const bytes = new avaxSerial.SignedTx(unsigned, []).toBytes();
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
  }

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
    parentId: genesisId,
    height: 0n,
    time: BigInt(genesis.startTime),
    txs: [],
  });
  const id = blockId(bytes);
  state.putBlock({ height: 0n, id, bytes, time: genesis.startTime, kind: 'genesis', acceptedMs });
  return { id, bytes };
}
