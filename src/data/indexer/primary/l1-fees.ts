/**
 * What each L1 validator pays, replayed from the P-chain's blocks. No transaction records the
 * ACP-77 continuous fee: the P-chain deducts it from every active L1 validator's balance each
 * second, at a price that moves with the number of active validators, and deactivates one whose
 * balance runs out. The replay applies the P-chain's own rules (`shared/validator-fee.ts`) to the
 * blocks in order — time advances first, at each block's time, then the block's transactions
 * (ConvertSubnetToL1, RegisterL1Validator, IncreaseL1ValidatorBalance, DisableL1Validator,
 * SetL1ValidatorWeight) move balances — and splits each advance at UTC midnight, so what every
 * validation paid each day is exact, not estimated.
 *
 * The state is loaded at the start of each batch and written with its rows and checkpoint in one
 * transaction, so a crash resumes it where the store stands.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { formatNodeId, plainHex, toCb58 } from '../../../shared/encoding.js';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type {
  DataSchema,
  L1ValidatorBalanceTable,
  L1ValidatorFeeTable,
  L1ValidatorTxDetailTable,
} from '../../store/schema.js';
import type { L1FeeRows } from '../../store/batch.js';
import { bucketStart, nextBucket } from '../../metrics/buckets.js';
import { UpstreamUnavailableError } from '../../internal/errors.js';
import type { NodeClient } from '../../internal/node-client.js';
import { NodeRpcError } from '../../internal/node-client.js';
import {
  advanceValidatorFee,
  type ValidatorFeeRules,
  type ValidatorFeeState,
} from '../../../shared/validator-fee.js';
import { ACP77_TYPE, payloadType, readAddressedCall } from '../../../shared/warp/addressed-call.js';

interface Validation {
  validationId: string;
  subnetId: string;
  nodeId: string;
  weight: bigint;
  /** The fee counter value at which the balance is gone; 0 when not active. */
  end: bigint;
  status: 'active' | 'inactive' | 'removed';
  /** Who gets the balance back; unknown for a validation stored before it was kept. */
  owner?: RefundOwner;
}

/** An L1 validation's RemainingBalanceOwner: a threshold of 20-byte addresses. */
export interface RefundOwner {
  threshold: number;
  addresses: Uint8Array[];
}

/**
 * The output a disable or a removal pays the rest of an active validation's balance back with
 * (the P-chain's, after the tx's own outputs).
 */
export interface Refund {
  amount: bigint;
  owner: RefundOwner;
}

const malformed = (what: string) => new Error(`an L1 transaction's warp message is malformed: ${what}`);

/**
 * The node's validator fee rules (`platform.getValidatorFeeConfig`); undefined from a node that
 * does not serve the method (one without ACP-77), whose L1 fees are then not replayed.
 */
export async function readValidatorFeeRules(node: NodeClient): Promise<ValidatorFeeRules | undefined> {
  try {
    const c = await node.call<Record<string, number | string>>('/ext/bc/P', 'platform.getValidatorFeeConfig');
    return {
      target: BigInt(c.target!),
      minPrice: BigInt(c.minPrice!),
      excessConversionConstant: BigInt(c.excessConversionConstant!),
    };
  } catch (err) {
    if (err instanceof UpstreamUnavailableError) throw err;
    if (err instanceof NodeRpcError) return undefined;
    throw err;
  }
}

/**
 * The fee state the store holds for the P-chain `chainId`, `next` being its P-chain checkpoint.
 * A fresh store starts the replay with the chain (timestamp 0 until its first timed block);
 * undefined for a store whose P-chain was indexed before the replay existed (no fee state,
 * checkpoint past the start): its earlier balances are unknown.
 */
export async function feeState(
  db: Kysely<DataSchema>,
  chainId: string,
  next: number,
): Promise<ValidatorFeeState | undefined> {
  const row = await db
    .selectFrom('l1_fee_state')
    .selectAll()
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
  if (row)
    return { excess: BigInt(row.excess), accrued: BigInt(row.accrued), timestamp: Number(row.timestamp) };
  return next > 0 ? undefined : { excess: 0n, accrued: 0n, timestamp: 0 };
}

export class L1FeeReplay {
  private readonly dirtyValidations = new Set<string>();
  private readonly fees = new Map<string, Insertable<L1ValidatorFeeTable>>();
  private readonly details: Insertable<L1ValidatorTxDetailTable>[] = [];
  /** What this batch's validators paid, for the running total. */
  private paid = 0n;
  /** How many validations are active (kept by `put`, not counted per block). */
  private active: number;

  private constructor(
    private readonly db: Kysely<DataSchema>,
    private readonly chainId: string,
    private readonly rules: ValidatorFeeRules,
    private state: ValidatorFeeState,
    private readonly validations: Map<string, Validation>,
  ) {
    // `load` starts the map with exactly the active validations; others join it through `put`
    // or, already inactive or removed, through `validation`.
    this.active = validations.size;
  }

  /** The replay as the store left it; undefined where the store does not follow it (`feeState`). */
  static async load(
    db: Kysely<DataSchema>,
    chainId: string,
    rules: ValidatorFeeRules,
    next: number,
  ): Promise<L1FeeReplay | undefined> {
    const state = await feeState(db, chainId, next);
    if (!state) return undefined;
    const active = await db
      .selectFrom('l1_validator_balances')
      .selectAll()
      .where('status', '=', 'active')
      .execute();
    return new L1FeeReplay(
      db,
      chainId,
      rules,
      state,
      new Map(active.map((r) => [r.validation_id, fromRow(r)])),
    );
  }

  /**
   * Moves time to a block's `ts`: every active validation pays the fee of each second (split by
   * UTC day), and those whose balance ran out are deactivated, as the P-chain does before it
   * executes the block's transactions.
   */
  async advance(ts: number): Promise<void> {
    if (this.state.timestamp === 0) this.state = { ...this.state, timestamp: ts };
    const active = [...this.validations.values()].filter((v) => v.status === 'active');
    while (this.state.timestamp < ts) {
      const day = bucketStart('day', this.state.timestamp);
      const until = Math.min(ts, nextBucket('day', day));
      const before = this.state.accrued;
      // The active count is the one at the previous block for the whole interval, as on the
      // P-chain, which deactivates only at block times.
      this.state = advanceValidatorFee(this.rules, this.state, BigInt(active.length), until);
      const perValidator = this.state.accrued - before;
      for (const v of active) {
        const left = v.end - before;
        const paid = left < perValidator ? left : perValidator;
        if (paid > 0n) await this.addFee(v, day, paid);
      }
    }
    for (const v of active) if (v.end <= this.state.accrued) this.put({ ...v, end: 0n, status: 'inactive' });
  }

  /**
   * A P-chain transaction's effect on L1 validator balances (other transactions have none), and
   * the validators it registered or changed as they stand after it (`l1ValidatorDetails`).
   */
  async apply(unsigned: any, txHash: string): Promise<Refund | undefined> {
    const accrued = this.state.accrued;
    const start = (balance: bigint) =>
      balance > 0n
        ? { end: accrued + balance, status: 'active' as const }
        : { end: 0n, status: 'inactive' as const };
    const remaining = (v: Validation | undefined) => (v?.status === 'active' ? v.end - accrued : 0n);
    // What an active validation had left goes back to its owner, when the owner is known.
    const refund = (v: Validation): Refund | undefined =>
      remaining(v) > 0n && v.owner ? { amount: remaining(v), owner: v.owner } : undefined;
    let position = 0;
    const change = (before: Validation | undefined, after: Validation, blsPublicKey?: Uint8Array) => {
      this.put(after);
      this.details.push({
        tx_hash: txHash,
        position: position++,
        validation_id: after.validationId,
        node_id: after.nodeId,
        subnet_id: after.subnetId,
        weight: after.weight.toString(),
        remaining_balance: remaining(after).toString(),
        balance_change: (remaining(after) - remaining(before)).toString(),
        bls_public_key: blsPublicKey ? plainHex(blsPublicKey) : null,
      });
    };
    switch (unsigned?._type) {
      case 'pvm.ConvertSubnetToL1Tx': {
        const subnet = unsigned.subnetID.toBytes() as Uint8Array;
        (unsigned.validators as any[]).forEach((v, i) => {
          const index = Buffer.alloc(4);
          index.writeUInt32BE(i);
          const validation: Validation = {
            validationId: toCb58(sha256(Buffer.concat([subnet, index]))),
            subnetId: toCb58(subnet),
            nodeId: formatNodeId(v.nodeId.bytes),
            weight: v.weight.value(),
            ...start(v.balance.value()),
            owner: {
              threshold: Number(v.remainingBalanceOwner.threshold.value()),
              addresses: (v.remainingBalanceOwner.addresses as any[]).map((a) => a.toBytes() as Uint8Array),
            },
          };
          change(undefined, validation, v.signer?.publicKey);
        });
        return;
      }
      case 'pvm.RegisterL1ValidatorTx': {
        const { payload } = readAddressedCall(unsigned.message.bytes, malformed);
        if (payloadType(payload) !== ACP77_TYPE.registerL1Validator) return;
        // codec (2), type (4), subnet id (32), node id (length-prefixed), BLS key (48), expiry,
        // the two owners, and the weight last (8).
        const p = Buffer.from(payload);
        const nodeEnd = 42 + p.readUInt32BE(38);
        const validation: Validation = {
          validationId: toCb58(sha256(payload)),
          subnetId: toCb58(p.subarray(6, 38)),
          nodeId: formatNodeId(p.subarray(42, nodeEnd)),
          weight: p.readBigUInt64BE(p.length - 8),
          ...start(unsigned.balance.value()),
          // After the BLS key (48) and the expiry (8).
          owner: readOwner(p, nodeEnd + 56),
        };
        change(undefined, validation, p.subarray(nodeEnd, nodeEnd + 48));
        return;
      }
      case 'pvm.IncreaseL1ValidatorBalanceTx': {
        const v = await this.validation(unsigned.validationId.toString());
        if (!v) return;
        const balance: bigint = unsigned.balance.value();
        change(v, v.status === 'active' ? { ...v, end: v.end + balance } : { ...v, ...start(balance) });
        return;
      }
      case 'pvm.DisableL1ValidatorTx': {
        const v = await this.validation(unsigned.validationId.toString());
        if (!v) return;
        change(v, { ...v, end: 0n, status: 'inactive' });
        return refund(v);
      }
      case 'pvm.SetL1ValidatorWeightTx': {
        const { payload } = readAddressedCall(unsigned.message.bytes, malformed);
        if (payloadType(payload) !== ACP77_TYPE.l1ValidatorWeight || payload.length < 54) return;
        // codec (2), type (4), validation id (32), nonce (8), weight (8)
        const p = Buffer.from(payload);
        const v = await this.validation(toCb58(p.subarray(6, 38)));
        const weight = p.readBigUInt64BE(46);
        if (!v) return;
        if (weight !== 0n) {
          change(v, { ...v, weight });
          return;
        }
        // Weight 0 removes the validation, its balance refunded.
        change(v, { ...v, weight, end: 0n, status: 'removed' });
        return refund(v);
      }
    }
  }

  /** The L1 validators active now (the P-chain's `NumActiveL1Validators`). */
  activeCount(): number {
    return this.active;
  }

  /** The fee each active validator has accrued since the start (the P-chain's `AccruedFees`). */
  accrued(): bigint {
    return this.state.accrued;
  }

  /** The rows this batch changed, to be written with it. */
  rows(): L1FeeRows {
    return {
      state: {
        chain_id: this.chainId,
        excess: this.state.excess.toString(),
        accrued: this.state.accrued.toString(),
        timestamp: this.state.timestamp,
      },
      balances: [...this.dirtyValidations].map((id) => toRow(this.validations.get(id)!)),
      fees: [...this.fees.values()],
      details: this.details,
      paid: this.paid,
    };
  }

  private put(v: Validation): void {
    if (this.validations.get(v.validationId)?.status === 'active') this.active--;
    if (v.status === 'active') this.active++;
    this.validations.set(v.validationId, v);
    this.dirtyValidations.add(v.validationId);
  }

  private async validation(id: string): Promise<Validation | undefined> {
    const known = this.validations.get(id);
    if (known) return known.status === 'removed' ? undefined : known;
    const row = await this.db
      .selectFrom('l1_validator_balances')
      .selectAll()
      .where('validation_id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const v = fromRow(row);
    this.validations.set(id, v);
    return v.status === 'removed' ? undefined : v;
  }

  private async addFee(v: Validation, day: number, paid: bigint): Promise<void> {
    const key = `${v.validationId}:${day}`;
    let row = this.fees.get(key);
    if (!row) {
      const stored = await this.db
        .selectFrom('l1_validator_fees')
        .select('fee')
        .where('validation_id', '=', v.validationId)
        .where('day', '=', day)
        .executeTakeFirst();
      row = {
        validation_id: v.validationId,
        day,
        subnet_id: v.subnetId,
        node_id: v.nodeId,
        fee: stored?.fee ?? '0',
      };
      this.fees.set(key, row);
    }
    row.fee = (BigInt(row.fee) + paid).toString();
    this.paid += paid;
  }
}

function fromRow(r: Selectable<L1ValidatorBalanceTable>): Validation {
  return {
    validationId: r.validation_id,
    subnetId: r.subnet_id,
    nodeId: r.node_id,
    weight: BigInt(r.weight),
    end: BigInt(r.end_fee),
    status: r.status as Validation['status'],
    owner: r.remaining_balance_owner ? ownerFromJson(r.remaining_balance_owner) : undefined,
  };
}

/** A PChainOwner as a warp payload packs it at `at`: threshold, then the length-prefixed addresses. */
function readOwner(p: Buffer, at: number): RefundOwner {
  const count = p.readUInt32BE(at + 4);
  const addresses: Uint8Array[] = [];
  for (let i = 0; i < count; i++) addresses.push(p.subarray(at + 8 + 20 * i, at + 28 + 20 * i));
  return { threshold: p.readUInt32BE(at), addresses };
}

function ownerFromJson(text: string): RefundOwner {
  const o = JSON.parse(text) as { threshold: number; addresses: string[] };
  return {
    threshold: o.threshold,
    addresses: o.addresses.map((a) => Buffer.from(a.replace(/^0x/, ''), 'hex')),
  };
}

function ownerToJson(o: RefundOwner): string {
  return JSON.stringify({ threshold: o.threshold, addresses: o.addresses.map((a) => plainHex(a)) });
}

function toRow(v: Validation): Insertable<L1ValidatorBalanceTable> {
  return {
    validation_id: v.validationId,
    subnet_id: v.subnetId,
    node_id: v.nodeId,
    weight: v.weight.toString(),
    end_fee: v.end.toString(),
    status: v.status,
    remaining_balance_owner: v.owner ? ownerToJson(v.owner) : null,
  };
}
