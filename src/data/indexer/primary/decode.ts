/**
 * One accepted block → the rows it adds (encode step): the block, its transactions, the outputs
 * they create, the inputs they spend, assets, subnets, chains, stakers and paid rewards. Reward
 * payouts are not transaction outputs, so they are read from the node (`platform.getRewardUTXOs`)
 * when the RewardValidatorTx that pays them is indexed.
 */
import { Address, BigIntPr, Id, Int, OutputOwners, TransferOutput, utils, Utxo } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { toCb58 } from '../../../shared/encoding.js';
import type { NodeClient } from '../../internal/node-client.js';
import { amountKey } from '../../store/amounts.js';
import type { Insertable } from 'kysely';
import type { BatchRows } from '../../store/batch.js';
import type { BlockTable, UtxoTable } from '../../store/schema.js';
import { P_CHAIN_ID } from '../../store/utxo-document.js';
import type { BlockTx } from './blocks.js';
import {
  credentialKeys,
  describeOutput,
  describeOwners,
  packUtxo,
  unsignedTxBytes,
  utxoBytes,
  utxoIdOf,
} from './outputs.js';
import type { ContainerBlock, ProposerDetails } from './proposervm.js';
import type { L1FeeReplay, Refund } from './l1-fees.js';
import { stakerStart } from './staker-start.js';

type Manager = ReturnType<typeof utils.getManagerForVM>;

export interface StakerInfo {
  kind: 'validator' | 'delegator';
  nodeId: string;
  subnetId: string;
  amountStaked: string;
  startTs: number;
  endTs: number;
}

export interface DecodeContext {
  chainId: string;
  chain: 'X' | 'P';
  hrp: string;
  manager: Manager;
  node: NodeClient;
  /** Staker of a staking tx (from this batch or the store). */
  staker(txHash: string): Promise<StakerInfo | undefined>;
  /** Staking tx of the current validator of `nodeId` on `subnetId`, for removals. */
  subnetValidatorTx(nodeId: string, subnetId: string): Promise<string | undefined>;
  /** Remembers stakers seen in the batch being decoded. */
  rememberStaker(txHash: string, info: StakerInfo): void;
  /** The P-chain's L1 validator fee replay, when the store follows it. */
  l1Fees?: L1FeeReplay;
  /** The AVAX asset id: what a tx burns of it is summed (`rows.burned`); none at genesis. */
  avaxAssetId?: string;
}

const val = (x: any): any => (x && typeof x.value === 'function' ? x.value() : x);
const cb58 = toCb58;
// An Id's text is its cb58, made by the shared encoder: avalanchejs's generic base58 costs the
// indexer about as much as the rest of a tx's decoding.
const idText = (x: any): string =>
  x instanceof Id ? toCb58(x.toBytes()) : typeof x?.toString === 'function' ? x.toString() : String(x);

/** Where an output or a spend happened: block height and time, and the order key. */
export interface Place {
  height: number;
  blockId: string;
  ts: number;
  seq: number;
}

export interface OutputRowInput {
  txId: string;
  /** The tx id's bytes when at hand (saves decoding `txId`). */
  txIdBytes?: Uint8Array;
  outputIndex: number;
  assetId: Id;
  output: any;
  at: Place;
  /** Chain that holds the output (the destination for exports); default: the creating chain. */
  consumedOn?: string;
  stake?: { start: number; end: number };
}

/** The row of one unspent output created on `ctx.chainId`. */
export function utxoRow(
  ctx: Pick<DecodeContext, 'chainId' | 'chain' | 'hrp' | 'manager'>,
  o: OutputRowInput,
): Insertable<UtxoTable> {
  const info = describeOutput(o.output, ctx.hrp);
  const txIdBytes = o.txIdBytes ?? Id.fromString(o.txId).toBytes();
  return {
    utxo_id: utxoIdOf(txIdBytes, o.outputIndex),
    tx_hash: o.txId,
    output_index: o.outputIndex,
    created_on: ctx.chainId,
    consumed_on: o.consumedOn ?? ctx.chainId,
    asset_id: idText(o.assetId),
    amount: amountKey(info.amount),
    addresses: JSON.stringify(info.addresses),
    threshold: info.threshold,
    locktime: Number(info.locktime),
    stakeable_locktime: Number(info.stakeableLocktime),
    staked: o.stake ? 1 : 0,
    // The type is named as the chain that lists the output names it: the P-chain's STAKE/TRANSFER
    // for outputs it holds (its own, or imported from X or C), the avm's output kind for the X-
    // and C-chains' (an export from P to X lists among X's own `transfer` outputs).
    utxo_type: (o.consumedOn ?? ctx.chainId) === P_CHAIN_ID ? (o.stake ? 'STAKE' : 'TRANSFER') : info.kind,
    reward_type: null,
    start_ts: o.stake?.start ?? null,
    end_ts: o.stake?.end ?? null,
    block_height: o.at.height,
    block_ts: o.at.ts,
    seq: o.at.seq,
    group_id: info.groupId ?? null,
    payload: info.payload ?? null,
    utxo_bytes: utxoBytes(ctx.manager, txIdBytes, o.outputIndex, o.assetId, o.output),
    consuming_tx: null,
    consuming_height: null,
    consuming_ts: null,
    credentials: null,
  };
}

/** `avm.CreateAssetTx` → `CreateAssetTx`, `pvm.AddPermissionlessValidator` → `AddPermissionlessValidatorTx`. */
export function txTypeName(type: string): string {
  const name = type.replace(/^[a-z]+\./, '');
  return name.endsWith('Tx') ? name : `${name}Tx`;
}

/**
 * A block → its rows. Blocks are named by the chain's block id (the inner block's, when the
 * container is a proposervm block); the wrapper's details are kept as the block's proposer.
 */
export async function decodeBlock(
  ctx: DecodeContext,
  container: { timestampMs: number },
  read: ContainerBlock,
  rows: BatchRows,
): Promise<void> {
  const { block, blockId, proposer } = read;
  const height = Number(block.height);
  const ts = block.time !== undefined ? Number(block.time) : Math.floor(container.timestampMs / 1000);
  const row: Insertable<BlockTable> = {
    chain_id: ctx.chainId,
    height,
    block_id: blockId,
    parent_id: cb58(block.parentId),
    timestamp: ts,
    tx_count: block.txs.length,
    block_type: block.typeName,
    size_bytes: read.bytes.length,
    ...proposerColumns(proposer),
  };
  rows.blocks.push(row);
  // The P-chain charges L1 validators up to a block's time before it executes the block's txs.
  if (ctx.l1Fees && block.time !== undefined) await ctx.l1Fees.advance(ts);
  for (let i = 0; i < block.txs.length; i++)
    await decodeTx(ctx, block.txs[i], { height, blockId, ts, seq: height * 1_000_000 + i }, rows);
  if (ctx.l1Fees) {
    // The block's L1 figures as its state stands after it: registrations and disables included.
    row.active_l1_validators = ctx.l1Fees.activeCount();
    row.l1_accrued_fees = ctx.l1Fees.accrued().toString();
  }
}

/** The block row's proposer columns (all null for a block without a proposervm wrapper). */
export function proposerColumns(p: ProposerDetails | undefined) {
  return {
    proposer_id: p?.id ?? null,
    proposer_parent_id: p?.parentId ?? null,
    proposer_node_id: p?.nodeId ?? null,
    proposer_p_chain_height: p?.pChainHeight ?? null,
    proposer_timestamp: p?.timestamp ?? null,
  };
}

/** One signed tx of a block → its rows, as placed at `at`. */
export async function decodeTx(ctx: DecodeContext, tx: BlockTx, at: Place, rows: BatchRows): Promise<void> {
  const { bytes, signed } = tx;
  const unsigned: any = signed.unsignedTx;
  const txIdBytes = sha256(bytes);
  const txId = cb58(txIdBytes);
  const type: string = unsigned._type;
  const txType = txTypeName(type);
  const base: any = unsigned.baseTx;
  const codec = ctx.manager.getDefaultCodec();
  const unsignedHash = sha256(unsignedTxBytes(bytes, signed, codec));
  const creds: any[] = signed.credentials as any[];
  const touchedAssets = new Set<string>();
  let source: string | null = null;
  let destination: string | null = null;

  // --- outputs -----------------------------------------------------------------------------
  let index = 0;
  // AVAX in (inputs), out (outputs, stake, exports) and into L1 validator balances: the rest burns.
  const avax = { consumed: 0n, produced: 0n, deposited: 0n };
  const addOutput = (
    assetId: any,
    output: any,
    extra: { consumedOn?: string; stake?: { start: number; end: number } } = {},
  ) => {
    touchedAssets.add(idText(assetId));
    const row = utxoRow(ctx, {
      txId,
      txIdBytes,
      outputIndex: index++,
      assetId,
      output,
      at,
      consumedOn: extra.consumedOn,
      stake: extra.stake,
    });
    rows.utxos.push(row);
    if (row.asset_id === ctx.avaxAssetId) avax.produced += BigInt(row.amount);
  };
  for (const out of (base?.outputs ?? []) as any[]) addOutput(out.assetId, out.output);

  // --- inputs (credentials are aligned with them) ---------------------------------------------
  let credIndex = 0;
  const spend = (utxoID: any) => {
    const cred = creds[credIndex++];
    rows.spends.push({
      utxo_id: utxoIdOf(utxoID.txID.toBytes(), Number(val(utxoID.outputIdx))),
      consuming_tx: txId,
      consuming_height: at.height,
      consuming_ts: at.ts,
      credentials: JSON.stringify(cred ? credentialKeys(cred, unsignedHash) : []),
    });
  };
  const consume = (input: any) => {
    touchedAssets.add(idText(input.assetId));
    if (idText(input.assetId) === ctx.avaxAssetId) avax.consumed += BigInt(input.amount());
    spend(input.utxoID);
  };
  for (const input of (base?.inputs ?? []) as any[]) consume(input);

  const refund = await ctx.l1Fees?.apply(unsigned, txId);
  // Not one of the tx's outputs, so neither produced nor burned: the balance it returns was locked.
  if (refund && ctx.avaxAssetId) rows.utxos.push(refundRow(ctx, txId, txIdBytes, index, refund, at));

  // --- per type ----------------------------------------------------------------------------
  switch (type) {
    case 'avm.ImportTx':
    case 'pvm.ImportTx':
      source = idText(unsigned.sourceChain);
      for (const input of unsigned.ins as any[]) consume(input);
      break;
    case 'avm.ExportTx':
    case 'pvm.ExportTx':
      destination = idText(unsigned.destination);
      for (const out of unsigned.outs as any[])
        addOutput(out.assetId, out.output, { consumedOn: destination });
      break;
    case 'avm.CreateAssetTx': {
      let nft = false;
      let mintable = false;
      for (const state of unsigned.initialStates as any[]) {
        if (Number(val(state.fxId)) === 1) nft = true;
        for (const out of state.outputs as any[]) {
          const kind = describeOutput(out, ctx.hrp).kind;
          if (kind.startsWith('nft')) nft = true;
          if (kind.endsWith('mint')) mintable = true;
          addOutput(Id.fromString(txId), out);
        }
      }
      touchedAssets.add(txId);
      rows.assets.push({
        asset_id: txId,
        name: String(val(unsigned.name)),
        symbol: String(val(unsigned.symbol)),
        denomination: Number(unsigned.denomination?.byte?.[0] ?? val(unsigned.denomination) ?? 0),
        asset_type: nft ? 'nft' : 'secp256k1',
        cap: mintable ? 'variable' : 'fixed',
        created_at: at.ts,
        tx_hash: txId,
      });
      break;
    }
    case 'avm.OperationTx':
      for (const op of unsigned.ops as any[]) {
        const assetId = op.assetId;
        touchedAssets.add(idText(assetId));
        const cred = creds[credIndex];
        for (const u of (op.UTXOId ?? []) as any[]) {
          rows.spends.push({
            utxo_id: utxoIdOf(u.txID.toBytes(), Number(val(u.outputIdx))),
            consuming_tx: txId,
            consuming_height: at.height,
            consuming_ts: at.ts,
            credentials: JSON.stringify(cred ? credentialKeys(cred, unsignedHash) : []),
          });
        }
        credIndex++;
        for (const out of operationOutputs(op.transferOp, codec)) addOutput(assetId, out);
      }
      break;
    case 'pvm.AddValidator':
    case 'pvm.AddValidatorTx':
    case 'pvm.AddDelegator':
    case 'pvm.AddDelegatorTx':
    case 'pvm.AddPermissionlessValidator':
    case 'pvm.AddPermissionlessDelegator':
    case 'pvm.AddSubnetValidator': {
      const permissionless = type.includes('Permissionless') || type === 'pvm.AddSubnetValidator';
      const sv = permissionless ? unsigned.subnetValidator : undefined;
      const v = permissionless ? sv.validator : unsigned.validator;
      const subnetId = sv ? idText(sv.subnetId) : ctx.chainId;
      const nodeId = idText(v.nodeId);
      // Since Durango the declared start is ignored (staker-start.ts): the block's time is the start.
      const start = stakerStart(ctx.hrp, Number(val(v.startTime)), at.ts);
      const end = Number(val(v.endTime));
      const weight = BigInt(val(v.weight));
      const kind: 'validator' | 'delegator' = type.includes('Delegator') ? 'delegator' : 'validator';
      for (const out of (unsigned.stake ?? []) as any[])
        addOutput(out.assetId, out.output, { stake: { start, end } });
      const rewardOwner =
        unsigned.rewardsOwner ?? unsigned.validatorRewardsOwner ?? unsigned.delegatorRewardsOwner;
      const signer = unsigned.signer?.proof;
      const info: StakerInfo = {
        kind,
        nodeId,
        subnetId,
        amountStaked: weight.toString(),
        startTs: start,
        endTs: end,
      };
      ctx.rememberStaker(txId, info);
      rows.stakers.push({
        tx_hash: txId,
        kind,
        node_id: nodeId,
        subnet_id: subnetId,
        seq: at.seq,
        amount_staked: amountKey(weight),
        delegation_shares: unsigned.shares !== undefined ? Number(val(unsigned.shares)) : null,
        start_ts: start,
        end_ts: end,
        bls_public_key: signer ? utils.bufferToHex(signer.publicKey) : null,
        bls_pop: signer ? utils.bufferToHex(signer.signature) : null,
        reward_addresses: JSON.stringify(rewardOwner ? describeOwners(rewardOwner, ctx.hrp).addresses : []),
        reward_tx: null,
        removed_tx: null,
        removed_ts: null,
      });
      break;
    }
    case 'pvm.RewardValidatorTx':
      await decodeReward(ctx, idText(unsigned.txId), txId, at, rows);
      break;
    case 'pvm.RemoveSubnetValidator': {
      const staking = await ctx.subnetValidatorTx(idText(unsigned.nodeId), idText(unsigned.subnetId));
      if (staking) rows.stakerEnds.push({ staking_tx: staking, end_tx: txId, end_ts: at.ts, removed: true });
      break;
    }
    case 'pvm.CreateSubnetTx': {
      const o = describeOwners(unsigned.subnetOwners, ctx.hrp);
      rows.subnets.push({
        subnet_id: txId,
        seq: at.seq,
        create_ts: at.ts,
        create_block: at.height,
        owner_addresses: JSON.stringify(o.addresses),
        threshold: o.threshold,
        locktime: Number(o.locktime),
        is_l1: 0,
        conversion_tx: null,
        manager_chain_id: null,
        manager_address: null,
      });
      break;
    }
    case 'pvm.CreateChainTx':
      rows.blockchains.push({
        blockchain_id: txId,
        subnet_id: idText(unsigned.subnetID),
        seq: at.seq,
        name: String(val(unsigned.chainName)),
        vm_id: idText(unsigned.vmID),
        create_ts: at.ts,
        create_block: at.height,
        genesis: Buffer.from(unsigned.genesisData?.bytes ?? new Uint8Array()).toString('hex'),
      });
      break;
    case 'pvm.TransferSubnetOwnershipTx': {
      const o = describeOwners(unsigned.subnetOwners, ctx.hrp);
      rows.subnetUpdates.push({
        subnet_id: idText(unsigned.subnetID),
        owner: { addresses: o.addresses, threshold: o.threshold, locktime: Number(o.locktime) },
      });
      break;
    }
    case 'pvm.RegisterL1ValidatorTx':
    case 'pvm.IncreaseL1ValidatorBalanceTx':
      avax.deposited += BigInt(unsigned.balance.value());
      break;
    case 'pvm.ConvertSubnetToL1Tx':
      for (const v of unsigned.validators as any[]) avax.deposited += BigInt(v.balance.value());
      rows.subnetUpdates.push({
        subnet_id: idText(unsigned.subnetID),
        conversion: {
          tx: txId,
          managerChainId: idText(unsigned.chainID),
          managerAddress: utils.bufferToHex(unsigned.address?.bytes ?? new Uint8Array()),
        },
      });
      break;
  }

  const burned = avax.consumed - avax.produced - avax.deposited;
  if (burned > 0n) rows.burned = (rows.burned ?? 0n) + burned;
  rows.transactions.push({
    tx_hash: txId,
    chain_id: ctx.chainId,
    seq: at.seq,
    block_height: at.height,
    block_id: at.blockId,
    timestamp: at.ts,
    tx_type: txType,
    memo: utils.bufferToHex(base?.memo?.bytes ?? new Uint8Array()),
    source_chain: source,
    destination_chain: destination,
  });
  if (ctx.chain === 'X')
    for (const asset of touchedAssets)
      rows.assetTransactions.push({
        asset_id: asset,
        seq: at.seq,
        tx_hash: txId,
        tx_type: txType,
        timestamp: at.ts,
      });
}

/**
 * The output a DisableL1ValidatorTx or a removing SetL1ValidatorWeightTx gets from the P-chain: the
 * validation's remaining balance, to its RemainingBalanceOwner, at the index after the tx's own
 * outputs (as the P-chain's executor writes it).
 */
function refundRow(
  ctx: DecodeContext,
  txId: string,
  txIdBytes: Uint8Array,
  outputIndex: number,
  refund: Refund,
  at: Place,
) {
  const owners = new OutputOwners(
    new BigIntPr(0n),
    new Int(refund.owner.threshold),
    refund.owner.addresses.map((a) => new Address(a)),
  );
  const output = new TransferOutput(new BigIntPr(refund.amount), owners);
  return utxoRow(ctx, { txId, txIdBytes, outputIndex, assetId: Id.fromString(ctx.avaxAssetId!), output, at });
}

/** Outputs an X-chain fx operation creates, in the reference's order. */
function operationOutputs(op: any, codec: any): any[] {
  switch (op?._type) {
    case 'secp256k1fx.MintOperation':
      return [op.mintOutput, op.transferOutput];
    case 'nftfx.TransferOperation':
      return [op.output];
    case 'nftfx.MintOperation': {
      const lists: any[] = op.outputOwnerList?.outputOwners ?? [];
      // One nft TransferOutput (codec type 11) per owner set, carrying the group id and payload.
      const NftTransferOutput = codec.typeIdToType[11];
      return lists.map((owners) => new NftTransferOutput(op.groupId, op.payload, owners));
    }
    default:
      return [];
  }
}

/** RewardValidatorTx: the staking period ends; paid rewards are read from the node. */
async function decodeReward(
  ctx: DecodeContext,
  stakingTx: string,
  rewardTx: string,
  at: Place,
  rows: BatchRows,
) {
  rows.stakerEnds.push({ staking_tx: stakingTx, end_tx: rewardTx, end_ts: at.ts, removed: false });
  const staker = await ctx.staker(stakingTx);
  const result = await ctx.node.call<{ utxos: string[] }>('/ext/bc/P', 'platform.getRewardUTXOs', {
    txID: stakingTx,
    encoding: 'hex',
  });
  let k = 0;
  for (const hex of result.utxos ?? []) {
    // The node's hex carries a 4-byte checksum after the UTXO bytes.
    const utxo = ctx.manager.unpack(utils.hexToBuffer(hex).subarray(0, -4), Utxo);
    const outputIndex = Number(val((utxo.utxoId as any).outputIdx));
    const info = describeOutput(utxo.output, ctx.hrp);
    const utxoId = utxoIdOf(utxo.utxoId.txID.toBytes(), outputIndex);
    const rewardType = staker?.kind === 'delegator' ? 'DELEGATOR' : k === 0 ? 'VALIDATOR' : 'VALIDATOR_FEE';
    const seq = at.seq * 100 + k++;
    rows.utxos.push({
      ...utxoRow(ctx, {
        txId: stakingTx,
        txIdBytes: utxo.utxoId.txID.toBytes(),
        outputIndex,
        assetId: utxo.assetId,
        output: utxo.output,
        at,
      }),
      reward_type: rewardType,
      start_ts: staker?.startTs ?? null,
      end_ts: staker?.endTs ?? null,
      utxo_bytes: packUtxo(ctx.manager, utxo),
    });
    rows.rewards.push({
      utxo_id: utxoId,
      staking_tx: stakingTx,
      reward_tx: rewardTx,
      node_id: staker?.nodeId ?? '',
      reward_type: rewardType,
      asset_id: utxo.getAssetId(),
      amount: amountKey(info.amount),
      addresses: JSON.stringify(info.addresses),
      output_index: outputIndex,
      amount_staked: amountKey(staker?.amountStaked ?? '0'),
      start_ts: staker?.startTs ?? 0,
      end_ts: staker?.endTs ?? at.ts,
      seq,
    });
  }
}
