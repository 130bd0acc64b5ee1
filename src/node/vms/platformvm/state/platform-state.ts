/**
 * The P-chain's durable state: blocks, transactions, UTXOs, stakers, subnets, blockchains, L1
 * validators, reward UTXOs, validator-set history and the fee states. Reads are plain; writes are
 * made by the block acceptor inside its database transaction. The values every issued tx and
 * every block asks for (the last block, the fee states, the active L1 validator count) are kept
 * in memory as last read or written, and forgotten when a transaction rolls back: the store stays
 * the only durable copy.
 */
import type { OutputOwners, Utxo } from '@avalabs/avalanchejs';
import { fitsSqlInteger, type NodeDatabase } from '../../../storage/database.js';
import { one } from './sql.js';
import { UtxoStore } from '../../components/utxo-store.js';
import { inputIdOf } from '../../components/utxo-id.js';
import { packOwners, packUtxo, unpackOwners, unpackUtxo } from '../codec.js';
import type { GasState, ValidatorFeeState } from '../fees/dynamic-fee.js';
import { createPlatformSchema } from './schema.js';
import { ValidatorSets } from './validator-sets.js';
import { utxoOwners } from '../txs/utxo-kinds.js';

const B = (b: Uint8Array): Buffer => Buffer.from(b);
const U = (b: unknown): Uint8Array => new Uint8Array(b as Uint8Array);

export type StakerKind = 'validator' | 'delegator' | 'subnet_validator';
export type TxStatus = 'Committed' | 'Aborted';

export interface StakerRecord {
  readonly txId: Uint8Array;
  readonly kind: StakerKind;
  readonly subnet: Uint8Array;
  readonly nodeId: Uint8Array;
  readonly weight: bigint;
  readonly startTime: number;
  readonly endTime: number;
  readonly potentialReward: bigint;
  /** Parts per million (validators only). */
  readonly delegationFee: number;
  readonly blsPublicKey: Uint8Array | undefined;
  readonly accruedDelegateeReward: bigint;
  readonly status: 'current' | 'removed';
  /** For delegators: the validator's tx. */
  readonly validatorTx: Uint8Array | undefined;
}

export interface StoredBlock {
  readonly height: bigint;
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  readonly time: number;
  readonly kind: string;
  readonly acceptedMs: number;
}

export interface StoredTx {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  readonly height: bigint;
  readonly status: TxStatus;
  readonly type: string;
}

export interface SubnetRecord {
  readonly id: Uint8Array;
  readonly owner: OutputOwners;
  readonly height: bigint;
  readonly conversionId: Uint8Array | undefined;
  readonly managerChain: Uint8Array | undefined;
  readonly managerAddress: Uint8Array | undefined;
}

export interface ChainRecord {
  readonly id: Uint8Array;
  readonly subnet: Uint8Array;
  readonly name: string;
  readonly vmId: Uint8Array;
  readonly genesis: Uint8Array;
  readonly fxIds: readonly Uint8Array[];
  readonly height: bigint;
}

export interface L1ValidatorRecord {
  readonly validationId: Uint8Array;
  readonly subnet: Uint8Array;
  readonly nodeId: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly weight: bigint;
  readonly startTime: number;
  readonly minNonce: bigint;
  /** The accrued-fee counter value at which the balance runs out (0 when inactive). */
  readonly endAccumulatedFee: bigint;
  readonly remainingBalanceOwner: OutputOwners;
  readonly deactivationOwner: OutputOwners;
  readonly height: bigint;
  readonly status: 'active' | 'inactive' | 'removed';
}

/** UTXOs kept in memory at most (the reference's UTXO cache size). */
const UTXOS_KEPT = 8192;

const GAS_KEY = 'p/gas-state';
const VALIDATOR_FEE_KEY = 'p/validator-fee-state';
const SUPPLY_KEY = 'p/current-supply';

/** What the state keeps in memory of the store; absent: read it from the store. */
interface Kept {
  lastBlock?: StoredBlock;
  gas?: GasState;
  validatorFee?: ValidatorFeeState;
  activeL1Count?: bigint;
}

export class PlatformState {
  readonly utxos: UtxoStore;
  readonly validators: ValidatorSets;
  private kept: Kept = {};
  /**
   * UTXOs lately written or read, by input id (hex), as the reference's UTXO state keeps a cache
   * of them: a tx reads each of its UTXOs when issued and again when its block is built, and
   * most spend what a recent block made. A store read and a decode each time cost more than the
   * rest of a BaseTx's checks but its signature. Forgotten with the other kept values when a
   * transaction rolls back.
   */
  private readonly utxoCache = new Map<string, Utxo>();

  constructor(
    readonly db: NodeDatabase,
    chainId: string,
  ) {
    createPlatformSchema(db);
    this.utxos = new UtxoStore(db, chainId);
    this.validators = new ValidatorSets(db);
    // What a rolled-back block wrote is not the store's any more.
    db.onRollback(() => {
      this.kept = {};
      this.utxoCache.clear();
    });
  }

  // ---- blocks and txs -------------------------------------------------------------------------

  lastBlock(): StoredBlock | undefined {
    if (this.kept.lastBlock) return this.kept.lastBlock;
    const row = this.db.prepare('SELECT * FROM p_blocks ORDER BY height DESC LIMIT 1').get();
    if (row) this.kept.lastBlock = toBlock(row);
    return this.kept.lastBlock;
  }

  blockByHeight(height: bigint): StoredBlock | undefined {
    if (!fitsSqlInteger(height)) return undefined;
    const row = this.db.prepare('SELECT * FROM p_blocks WHERE height = ?').get(height);
    return row ? toBlock(row) : undefined;
  }

  /** The height of the last block accepted with a timestamp at or before `time` (0 if none). */
  heightAtTime(time: number): bigint {
    // Block times never decrease with height, so the newest qualifying block is the answer.
    const row = this.db
      .prepare('SELECT height FROM p_blocks WHERE time <= ? ORDER BY height DESC LIMIT 1')
      .get(time) as { height: number | bigint } | undefined;
    return row ? BigInt(row.height) : 0n;
  }

  blockById(id: Uint8Array): StoredBlock | undefined {
    const row = this.db.prepare('SELECT * FROM p_blocks WHERE id = ?').get(one(id));
    return row ? toBlock(row) : undefined;
  }

  putBlock(b: StoredBlock): void {
    this.db
      .prepare('INSERT INTO p_blocks (height, id, bytes, time, kind, accepted_ms) VALUES (?, ?, ?, ?, ?, ?)')
      .run(b.height, B(b.id), B(b.bytes), b.time, b.kind, b.acceptedMs);
    // Unknown stays unknown (read when asked); a block above the kept one is the new last.
    const kept = this.kept.lastBlock;
    if (kept && b.height > kept.height) this.kept.lastBlock = { ...b };
  }

  putTx(tx: StoredTx): void {
    this.db
      .prepare('INSERT INTO p_txs (id, bytes, height, status, type) VALUES (?, ?, ?, ?, ?)')
      .run(B(tx.id), B(tx.bytes), tx.height, tx.status, tx.type);
  }

  getTx(id: Uint8Array): StoredTx | undefined {
    const row = this.db.prepare('SELECT * FROM p_txs WHERE id = ?').get(one(id));
    if (!row) return undefined;
    return {
      id: U(row.id),
      bytes: U(row.bytes),
      height: BigInt(row.height),
      status: row.status as TxStatus,
      type: row.type as string,
    };
  }

  // ---- UTXOs ----------------------------------------------------------------------------------

  addUtxo(utxo: Utxo): Uint8Array {
    const inputId = inputIdOf(utxo.utxoId.txID.toBytes(), utxo.utxoId.outputIdx.value());
    this.utxos.put([{ inputId, bytes: packUtxo(utxo), addresses: utxoOwners(utxo.output).addresses }]);
    this.keepUtxo(B(inputId).toString('hex'), utxo);
    return inputId;
  }

  getUtxo(inputId: Uint8Array): Utxo | undefined {
    const key = B(inputId).toString('hex');
    const known = this.utxoCache.get(key);
    if (known) return known;
    const bytes = this.utxos.get(inputId);
    if (!bytes) return undefined;
    const utxo = unpackUtxo(bytes);
    this.keepUtxo(key, utxo);
    return utxo;
  }

  /** Removes spent UTXOs (throws if one is missing, so the block's transaction rolls back). */
  spendUtxos(inputIds: readonly Uint8Array[]): void {
    this.utxos.remove(inputIds);
    for (const id of inputIds) this.utxoCache.delete(B(id).toString('hex'));
  }

  private keepUtxo(key: string, utxo: Utxo): void {
    this.utxoCache.delete(key);
    if (this.utxoCache.size >= UTXOS_KEPT) this.utxoCache.delete(this.utxoCache.keys().next().value!);
    this.utxoCache.set(key, utxo);
  }

  // ---- stakers --------------------------------------------------------------------------------

  addStaker(s: StakerRecord): void {
    this.db
      .prepare(
        `INSERT INTO p_stakers (tx_id, kind, subnet, node_id, weight, start_time, end_time, potential_reward,
          delegation_fee, bls_pk, accrued_delegatee_reward, status, validator_tx)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        B(s.txId),
        s.kind,
        B(s.subnet),
        B(s.nodeId),
        s.weight.toString(),
        s.startTime,
        s.endTime,
        s.potentialReward.toString(),
        s.delegationFee,
        s.blsPublicKey ? B(s.blsPublicKey) : null,
        s.accruedDelegateeReward.toString(),
        s.status,
        s.validatorTx ? B(s.validatorTx) : null,
      );
  }

  staker(txId: Uint8Array): StakerRecord | undefined {
    const row = this.db.prepare('SELECT * FROM p_stakers WHERE tx_id = ?').get(one(txId));
    return row ? toStaker(row) : undefined;
  }

  /** The current validator (primary or subnet) of `nodeId` on `subnet`. */
  currentValidator(subnet: Uint8Array, nodeId: Uint8Array): StakerRecord | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM p_stakers WHERE subnet = ? AND node_id = ? AND status = 'current' AND kind != 'delegator'`,
      )
      .get(B(subnet), B(nodeId));
    return row ? toStaker(row) : undefined;
  }

  delegatorsOf(validatorTx: Uint8Array, status: 'current' | 'removed' = 'current'): StakerRecord[] {
    return this.db
      .prepare(`SELECT * FROM p_stakers WHERE validator_tx = ? AND status = ? ORDER BY start_time, tx_id`)
      .all(B(validatorTx), status)
      .map(toStaker);
  }

  currentStakers(subnet?: Uint8Array): StakerRecord[] {
    const rows = subnet
      ? this.db
          .prepare(`SELECT * FROM p_stakers WHERE status = 'current' AND subnet = ? ORDER BY node_id, tx_id`)
          .all(one(subnet))
      : this.db.prepare(`SELECT * FROM p_stakers WHERE status = 'current' ORDER BY node_id, tx_id`).all();
    return rows.map(toStaker);
  }

  /**
   * The next staker to remove at or before `time`: earliest end first, then by the reference's
   * current-staker priorities (permissioned subnet validators, delegators, validators), then by
   * tx id, as the reference orders its staker heap.
   */
  nextEndingStaker(time: number): StakerRecord | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM p_stakers WHERE status = 'current' AND end_time <= ?
         ORDER BY end_time, CASE kind WHEN 'subnet_validator' THEN 0 WHEN 'delegator' THEN 1 ELSE 2 END, tx_id LIMIT 1`,
      )
      .get(time);
    return row ? toStaker(row) : undefined;
  }

  nextStakerEnd(): number | undefined {
    const row = this.db.prepare(`SELECT MIN(end_time) AS t FROM p_stakers WHERE status = 'current'`).get();
    return row?.t === null || row?.t === undefined ? undefined : Number(row.t);
  }

  setAccruedDelegateeReward(txId: Uint8Array, amount: bigint): void {
    this.db
      .prepare('UPDATE p_stakers SET accrued_delegatee_reward = ? WHERE tx_id = ?')
      .run(amount.toString(), B(txId));
  }

  markStakerRemoved(txId: Uint8Array, height: bigint): void {
    this.db
      .prepare(`UPDATE p_stakers SET status = 'removed', removed_height = ? WHERE tx_id = ?`)
      .run(height, B(txId));
  }

  // ---- subnets and chains ---------------------------------------------------------------------

  addSubnet(id: Uint8Array, owner: OutputOwners, height: bigint): void {
    this.db
      .prepare('INSERT INTO p_subnets (id, owner, height) VALUES (?, ?, ?)')
      .run(B(id), B(packOwners(owner)), height);
  }

  subnet(id: Uint8Array): SubnetRecord | undefined {
    const row = this.db.prepare('SELECT * FROM p_subnets WHERE id = ?').get(one(id));
    return row ? toSubnet(row) : undefined;
  }

  subnets(): SubnetRecord[] {
    return this.db.prepare('SELECT * FROM p_subnets ORDER BY height, id').all().map(toSubnet);
  }

  setSubnetOwner(id: Uint8Array, owner: OutputOwners): void {
    this.db.prepare('UPDATE p_subnets SET owner = ? WHERE id = ?').run(B(packOwners(owner)), B(id));
  }

  setSubnetConversion(
    id: Uint8Array,
    conversionId: Uint8Array,
    chain: Uint8Array,
    address: Uint8Array,
  ): void {
    this.db
      .prepare('UPDATE p_subnets SET conversion_id = ?, manager_chain = ?, manager_address = ? WHERE id = ?')
      .run(B(conversionId), B(chain), B(address), B(id));
  }

  addChain(c: ChainRecord): void {
    this.db
      .prepare(
        'INSERT INTO p_chains (id, subnet, name, vm_id, genesis, fx_ids, height) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(B(c.id), B(c.subnet), c.name, B(c.vmId), B(c.genesis), Buffer.concat(c.fxIds.map(B)), c.height);
  }

  chain(id: Uint8Array): ChainRecord | undefined {
    const row = this.db.prepare('SELECT * FROM p_chains WHERE id = ?').get(one(id));
    return row ? toChain(row) : undefined;
  }

  chains(): ChainRecord[] {
    return this.db.prepare('SELECT * FROM p_chains ORDER BY height, id').all().map(toChain);
  }

  // ---- L1 validators --------------------------------------------------------------------------

  putL1Validator(v: L1ValidatorRecord): void {
    this.db
      .prepare(
        `INSERT INTO p_l1_validators (validation_id, subnet, node_id, pk, weight, start_time, min_nonce,
           end_accumulated_fee, remaining_owner, deactivation_owner, height, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(validation_id) DO UPDATE SET weight = excluded.weight, min_nonce = excluded.min_nonce,
           end_accumulated_fee = excluded.end_accumulated_fee, status = excluded.status`,
      )
      .run(
        B(v.validationId),
        B(v.subnet),
        B(v.nodeId),
        B(v.publicKey),
        v.weight.toString(),
        v.startTime,
        v.minNonce.toString(),
        v.endAccumulatedFee.toString(),
        B(packOwners(v.remainingBalanceOwner)),
        B(packOwners(v.deactivationOwner)),
        v.height,
        v.status,
      );
    // Its status may have changed: count again when asked.
    this.kept.activeL1Count = undefined;
  }

  l1Validator(validationId: Uint8Array): L1ValidatorRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM p_l1_validators WHERE validation_id = ?')
      .get(one(validationId));
    return row ? toL1(row) : undefined;
  }

  l1ValidatorByNode(subnet: Uint8Array, nodeId: Uint8Array): L1ValidatorRecord | undefined {
    const row = this.db
      .prepare(`SELECT * FROM p_l1_validators WHERE subnet = ? AND node_id = ? AND status != 'removed'`)
      .get(B(subnet), B(nodeId));
    return row ? toL1(row) : undefined;
  }

  l1Validators(subnet?: Uint8Array): L1ValidatorRecord[] {
    const rows = subnet
      ? this.db
          .prepare(`SELECT * FROM p_l1_validators WHERE subnet = ? AND status != 'removed' ORDER BY node_id`)
          .all(one(subnet))
      : this.db.prepare(`SELECT * FROM p_l1_validators WHERE status != 'removed' ORDER BY node_id`).all();
    return rows.map(toL1);
  }

  activeL1ValidatorCount(): bigint {
    if (this.kept.activeL1Count !== undefined) return this.kept.activeL1Count;
    const row = this.db.prepare(`SELECT COUNT(*) AS n FROM p_l1_validators WHERE status = 'active'`).get();
    return (this.kept.activeL1Count = BigInt(row?.n ?? 0));
  }

  /**
   * The lowest accrued-fee value at which an active L1 validator's balance runs out (the first to
   * run dry), or undefined when none is active. One step down the fee-end index: the decimal
   * text ordered by length, then digits, is numeric order.
   */
  firstL1FeeEnd(): bigint | undefined {
    const row = this.db
      .prepare(
        `SELECT end_accumulated_fee AS fee_end FROM p_l1_validators WHERE status = 'active'
         ORDER BY length(end_accumulated_fee), end_accumulated_fee LIMIT 1`,
      )
      .get();
    return row ? BigInt(row.fee_end) : undefined;
  }

  /**
   * Active L1 validators whose balance ran out by the time the accrued counter reached `accrued`,
   * by validation id. Two ranges of the fee-end index (shorter numbers; as long and not greater),
   * so the validators still paying are not read.
   */
  exhaustedL1Validators(accrued: bigint): L1ValidatorRecord[] {
    const bound = accrued.toString();
    return this.db
      .prepare(
        `SELECT * FROM p_l1_validators WHERE status = 'active' AND length(end_accumulated_fee) < ?1
         UNION ALL
         SELECT * FROM p_l1_validators
           WHERE status = 'active' AND length(end_accumulated_fee) = ?1 AND end_accumulated_fee <= ?2
         ORDER BY validation_id`,
      )
      .all(bound.length, bound)
      .map(toL1);
  }

  expiryUsed(validationId: Uint8Array): boolean {
    return !!this.db.prepare('SELECT 1 FROM p_expiries WHERE validation_id = ?').get(one(validationId));
  }

  putExpiry(validationId: Uint8Array, expiry: bigint): void {
    this.db
      .prepare('INSERT INTO p_expiries (validation_id, expiry) VALUES (?, ?)')
      .run(B(validationId), expiry);
  }

  // ---- rewards --------------------------------------------------------------------------------

  addRewardUtxo(stakerTx: Uint8Array, utxo: Utxo): void {
    const inputId = inputIdOf(utxo.utxoId.txID.toBytes(), utxo.utxoId.outputIdx.value());
    this.db
      .prepare('INSERT INTO p_reward_utxos (staker_tx, input_id, bytes) VALUES (?, ?, ?)')
      .run(B(stakerTx), B(inputId), B(packUtxo(utxo)));
  }

  /** A staker's reward UTXOs in output order: the validation reward before the delegation fees. */
  rewardUtxos(stakerTx: Uint8Array): Uint8Array[] {
    return this.db
      .prepare('SELECT bytes FROM p_reward_utxos WHERE staker_tx = ?')
      .all(one(stakerTx))
      .map((r) => U(r.bytes))
      .map((bytes) => ({ bytes, index: unpackUtxo(bytes).utxoId.outputIdx.value() }))
      .sort((a, b) => a.index - b.index)
      .map((r) => r.bytes);
  }

  // ---- fee states and supply ------------------------------------------------------------------

  gasState(): GasState | undefined {
    if (this.kept.gas) return this.kept.gas;
    const text = this.db.getMetaString(GAS_KEY);
    if (!text) return undefined;
    const j = JSON.parse(text) as { capacity: string; excess: string; timestamp: number };
    return (this.kept.gas = {
      capacity: BigInt(j.capacity),
      excess: BigInt(j.excess),
      timestamp: j.timestamp,
    });
  }

  setGasState(s: GasState): void {
    this.db.setMeta(
      GAS_KEY,
      JSON.stringify({
        capacity: s.capacity.toString(),
        excess: s.excess.toString(),
        timestamp: s.timestamp,
      }),
    );
    this.kept.gas = { ...s };
  }

  validatorFeeState(): ValidatorFeeState | undefined {
    if (this.kept.validatorFee) return this.kept.validatorFee;
    const text = this.db.getMetaString(VALIDATOR_FEE_KEY);
    if (!text) return undefined;
    const j = JSON.parse(text) as { excess: string; accrued: string; timestamp: number };
    return (this.kept.validatorFee = {
      excess: BigInt(j.excess),
      accrued: BigInt(j.accrued),
      timestamp: j.timestamp,
    });
  }

  setValidatorFeeState(s: ValidatorFeeState): void {
    this.db.setMeta(
      VALIDATOR_FEE_KEY,
      JSON.stringify({ excess: s.excess.toString(), accrued: s.accrued.toString(), timestamp: s.timestamp }),
    );
    this.kept.validatorFee = { ...s };
  }

  currentSupply(): bigint {
    return BigInt(this.db.getMetaString(SUPPLY_KEY) ?? '0');
  }

  setCurrentSupply(v: bigint): void {
    this.db.setMeta(SUPPLY_KEY, v.toString());
  }
}

function toBlock(row: Record<string, any>): StoredBlock {
  return {
    height: BigInt(row.height),
    id: U(row.id),
    bytes: U(row.bytes),
    time: Number(row.time),
    kind: row.kind as string,
    acceptedMs: Number(row.accepted_ms),
  };
}

function toStaker(row: Record<string, any>): StakerRecord {
  return {
    txId: U(row.tx_id),
    kind: row.kind as StakerKind,
    subnet: U(row.subnet),
    nodeId: U(row.node_id),
    weight: BigInt(row.weight),
    startTime: Number(row.start_time),
    endTime: Number(row.end_time),
    potentialReward: BigInt(row.potential_reward),
    delegationFee: Number(row.delegation_fee),
    blsPublicKey: row.bls_pk ? U(row.bls_pk) : undefined,
    accruedDelegateeReward: BigInt(row.accrued_delegatee_reward),
    status: row.status as 'current' | 'removed',
    validatorTx: row.validator_tx ? U(row.validator_tx) : undefined,
  };
}

function toSubnet(row: Record<string, any>): SubnetRecord {
  return {
    id: U(row.id),
    owner: unpackOwners(U(row.owner)),
    height: BigInt(row.height),
    conversionId: row.conversion_id ? U(row.conversion_id) : undefined,
    managerChain: row.manager_chain ? U(row.manager_chain) : undefined,
    managerAddress: row.manager_address ? U(row.manager_address) : undefined,
  };
}

function toChain(row: Record<string, any>): ChainRecord {
  const fx = U(row.fx_ids);
  const fxIds: Uint8Array[] = [];
  for (let i = 0; i + 32 <= fx.length; i += 32) fxIds.push(fx.subarray(i, i + 32));
  return {
    id: U(row.id),
    subnet: U(row.subnet),
    name: row.name as string,
    vmId: U(row.vm_id),
    genesis: U(row.genesis),
    fxIds,
    height: BigInt(row.height),
  };
}

function toL1(row: Record<string, any>): L1ValidatorRecord {
  return {
    validationId: U(row.validation_id),
    subnet: U(row.subnet),
    nodeId: U(row.node_id),
    publicKey: U(row.pk),
    weight: BigInt(row.weight),
    startTime: Number(row.start_time),
    minNonce: BigInt(row.min_nonce),
    endAccumulatedFee: BigInt(row.end_accumulated_fee),
    remainingBalanceOwner: unpackOwners(U(row.remaining_owner)),
    deactivationOwner: unpackOwners(U(row.deactivation_owner)),
    height: BigInt(row.height),
    status: row.status as L1ValidatorRecord['status'],
  };
}
