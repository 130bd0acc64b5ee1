/**
 * ACP-77's L1 txs: ConvertSubnetToL1Tx, RegisterL1ValidatorTx, SetL1ValidatorWeightTx,
 * IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx, with the conversion's ids and the
 * continuous fee's capacity.
 */
import { BigIntPr, OutputOwners, TransferOutput, type pvmSerial } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { toCb58 } from '../../../../shared/encoding.js';
import { makeUtxo, ownersOf, type ParsedTx } from '../codec.js';
import type { L1ValidatorRecord } from '../state/platform-state.js';
import type { L1Weight } from '../state/validator-sets.js';
import {
  parseL1ValidatorWeight,
  parseRegisterL1Validator,
  type PChainOwnerValue,
} from '../warp/warp-message.js';
import { PRIMARY_NETWORK, type ExecEnv, type Executed } from './env.js';
import {
  MAX_UINT64,
  checkNodeIdNotEmpty,
  checkOwnersOf,
  common,
  consumeAndProduce,
  eq,
  fail,
  localInputs,
  proofOfPossessionFault,
  spend,
  verifyAuth,
  verifyAuthInput,
  verifyBaseTx,
  verifyPoASubnetAuth,
} from './base-checks.js';
import { managerMessage, verifyL1Conversion, wrapWarp } from './warp-messages.js';

const MAX_MANAGER_ADDRESS = 4096;

function pOwner(o: PChainOwnerValue, wrap = ''): OutputOwners {
  const owners = OutputOwners.fromNative(o.addresses, 0n, o.threshold);
  checkOwnersOf(ownersOf(owners), wrap);
  return owners;
}

function ownerFromPChainOwner(o: {
  threshold: { value(): number };
  addresses: { toBytes(): Uint8Array }[];
}): OutputOwners {
  return pOwner({ threshold: o.threshold.value(), addresses: o.addresses.map((a) => a.toBytes()) });
}

/** sha256(codec ‖ SubnetToL1ConversionData), the id a conversion is known by. */
function conversionIdOf(
  subnetId: Uint8Array,
  chainId: Uint8Array,
  address: Uint8Array,
  validators: { nodeId: Uint8Array; publicKey: Uint8Array; weight: bigint }[],
): Uint8Array {
  const parts: Buffer[] = [Buffer.alloc(2), Buffer.from(subnetId), Buffer.from(chainId)];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  parts.push(u32(address.length), Buffer.from(address), u32(validators.length));
  for (const v of validators) {
    const w = Buffer.alloc(8);
    w.writeBigUInt64BE(v.weight);
    parts.push(u32(v.nodeId.length), Buffer.from(v.nodeId), Buffer.from(v.publicKey), w);
  }
  return sha256(Buffer.concat(parts));
}

/** validationID of the i-th conversion validator: sha256(subnetID ‖ uint32 i). */
function conversionValidationId(subnetId: Uint8Array, index: number): Uint8Array {
  const b = Buffer.alloc(36);
  Buffer.from(subnetId).copy(b);
  b.writeUInt32BE(index, 32);
  return sha256(b);
}

/** `ids.ToNodeID` of a length-prefixed node id. */
function nodeIdFault(nodeId: Uint8Array): string | undefined {
  if (nodeId.length !== 20) return `invalid hash length: expected 20 bytes but got ${nodeId.length}`;
  return undefined;
}

/** Room for one more active L1 validator (the continuous fee's capacity). */
function checkActiveCapacity(env: ExecEnv, adding: bigint): void {
  if (env.state.activeL1ValidatorCount() + adding >= env.config.validatorFee.capacity)
    fail('already at the max number of active validators');
}

export function convertSubnetTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.ConvertSubnetToL1Tx;
  const subnetId = u.subnetID.toBytes();
  // The manager may live on any chain (the C-chain, another L1): the reference checks only that
  // its Warp messages come from this chain and address.
  const chainId = u.chainID.toBytes();
  const address = u.address.toBytes().subarray(4);
  const nodeIds = u.validators.map((v) => v.nodeId.toBytes().subarray(4));
  // ConvertSubnetToL1Tx.SyntacticVerify, in its order and words.
  if (eq(subnetId, PRIMARY_NETWORK)) fail('cannot convert a permissionless subnet');
  if (address.length > MAX_MANAGER_ADDRESS) fail('address is too long');
  if (u.validators.length === 0) fail('conversion must include at least one validator');
  for (let i = 1; i < nodeIds.length; i++)
    if (Buffer.compare(Buffer.from(nodeIds[i - 1]), Buffer.from(nodeIds[i])) >= 0)
      fail('conversion validators must be sorted and unique');
  verifyBaseTx(tx, env);
  u.validators.forEach((v, i) => {
    if (v.weight.value() === 0n) fail('validator weight must be non-zero');
    const bad = nodeIdFault(nodeIds[i]);
    if (bad) fail(bad);
    checkNodeIdNotEmpty(nodeIds[i]);
    const popFault = proofOfPossessionFault(v.signer.publicKey, v.signer.signature);
    if (popFault) fail(popFault);
    ownerFromPChainOwner(v.remainingBalanceOwner as never);
    ownerFromPChainOwner(v.deactivationOwner as never);
  });
  verifyAuthInput(u.subnetAuth);
  const c = common(tx, env);
  const creds = verifyPoASubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  let balances = 0n;
  let activating = 0n;
  const validators = u.validators.map((v, i) => {
    const nodeId = nodeIds[i];
    const balance = v.balance.value();
    if (balance !== 0n) {
      checkActiveCapacity(env, activating);
      activating++;
    }
    // state.PutL1Validator: a legacy validator of the subnet keeps its node id.
    if (env.state.currentValidator(subnetId, nodeId))
      fail('L1 validator contains conflicting subnetID + nodeID pair');
    balances += balance;
    return {
      validationId: conversionValidationId(subnetId, i),
      nodeId,
      weight: v.weight.value(),
      balance,
      publicKey: v.signer.publicKey,
      remaining: ownerFromPChainOwner(v.remainingBalanceOwner as never),
      deactivation: ownerFromPChainOwner(v.deactivationOwner as never),
    };
  });
  spend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs, balances);
  const conversionId = conversionIdOf(subnetId, chainId, address, validators);
  return {
    type: 'ConvertSubnetToL1Tx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.setSubnetConversion(subnetId, conversionId, chainId, address);
      for (const v of validators) {
        const active = v.balance > 0n;
        env.state.putL1Validator({
          validationId: v.validationId,
          subnet: subnetId,
          nodeId: v.nodeId,
          publicKey: v.publicKey,
          weight: v.weight,
          startTime: env.chainTime,
          minNonce: 0n,
          endAccumulatedFee: active ? env.validatorFeeAccrued + v.balance : 0n,
          remainingBalanceOwner: v.remaining,
          deactivationOwner: v.deactivation,
          height: env.height,
          status: active ? 'active' : 'inactive',
        });
        env.state.validators.moveL1(env.height, subnetId, undefined, {
          nodeId: v.nodeId,
          weight: v.weight,
          publicKey: v.publicKey,
          active,
        });
      }
    },
  };
}

/** The L1 validator a tx names, as `GetL1Validator` finds it (a removed one is gone). */
function l1ValidatorOf(env: ExecEnv, validationId: Uint8Array): L1ValidatorRecord | undefined {
  const v = env.state.l1Validator(validationId);
  return v && v.status !== 'removed' ? v : undefined;
}

export function registerL1ValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.RegisterL1ValidatorTx;
  verifyBaseTx(tx, env);
  const c = common(tx, env);
  const balance = u.balance.value();
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs, balance);
  const m = managerMessage(u.message.toBytes().subarray(4));
  const reg = wrapWarp(() => parseRegisterL1Validator(m.call.payload));
  // RegisterL1Validator.Verify.
  if (eq(reg.subnetId, PRIMARY_NETWORK)) fail('invalid subnet ID');
  if (reg.weight === 0n) fail('invalid weight');
  const badNode = nodeIdFault(reg.nodeId);
  if (badNode) fail(`invalid node ID: ${badNode}`);
  checkNodeIdNotEmpty(reg.nodeId, 'invalid node ID: empty nodeID is disallowed');
  const remaining = pOwner(reg.remainingBalanceOwner, 'invalid owner: ');
  const deactivation = pOwner(reg.disableOwner, 'invalid owner: ');
  verifyL1Conversion(env, reg.subnetId, m);
  const now = BigInt(env.chainTime);
  if (reg.expiry <= now) fail(`warp message expired at ${reg.expiry} and it is currently ${now}`);
  if (reg.expiry - now > BigInt(env.config.maxExpiryWindow))
    fail(
      `warp message not yet allowed because time is ${reg.expiry - now} seconds in the future but the limit is ${env.config.maxExpiryWindow}`,
    );
  if (env.state.expiryUsed(reg.validationId) || env.state.l1Validator(reg.validationId))
    fail(`warp message already issued for validationID ${toCb58(reg.validationId)}`);
  const popFault = proofOfPossessionFault(reg.blsPublicKey, u.blsSignature.toBytes());
  if (popFault) fail(popFault);
  if (balance !== 0n) checkActiveCapacity(env, 0n);
  // state.PutL1Validator: one validation per node and L1, legacy or not.
  if (env.state.currentValidator(reg.subnetId, reg.nodeId))
    fail('L1 validator contains conflicting subnetID + nodeID pair');
  if (env.state.l1ValidatorByNode(reg.subnetId, reg.nodeId))
    fail('L1 validator contains duplicate subnetID + nodeID pair');
  return {
    type: 'RegisterL1ValidatorTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      const active = balance > 0n;
      env.state.putExpiry(reg.validationId, reg.expiry);
      env.state.putL1Validator({
        validationId: reg.validationId,
        subnet: reg.subnetId,
        nodeId: reg.nodeId,
        publicKey: reg.blsPublicKey,
        weight: reg.weight,
        startTime: env.chainTime,
        minNonce: 0n,
        endAccumulatedFee: active ? env.validatorFeeAccrued + balance : 0n,
        remainingBalanceOwner: remaining,
        deactivationOwner: deactivation,
        height: env.height,
        status: active ? 'active' : 'inactive',
      });
      env.state.validators.moveL1(env.height, reg.subnetId, undefined, {
        nodeId: reg.nodeId,
        weight: reg.weight,
        publicKey: reg.blsPublicKey,
        active,
      });
    },
  };
}

/** Where an L1 validator's weight sits in its L1's set now. */
export function l1Weight(v: L1ValidatorRecord): L1Weight {
  return { nodeId: v.nodeId, weight: v.weight, publicKey: v.publicKey, active: v.status === 'active' };
}

/** The remaining balance of an L1 validator, returned as a UTXO to its owner. */
function makeRefund(env: ExecEnv, txId: Uint8Array, index: number, amount: bigint, owner: OutputOwners) {
  return makeUtxo(txId, index, env.ids.avax, new TransferOutput(new BigIntPr(amount), owner));
}

export function setL1ValidatorWeightTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.SetL1ValidatorWeightTx;
  verifyBaseTx(tx, env);
  const c = common(tx, env);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs);
  const m = managerMessage(u.message.toBytes().subarray(4));
  const w = wrapWarp(() => parseL1ValidatorWeight(m.call.payload));
  // L1ValidatorWeight.Verify: the last nonce only removes (a weight set with it would leave no
  // nonce to follow).
  if (w.nonce === MAX_UINT64 && w.weight !== 0n) fail('maxUint64 nonce is reserved for removal');
  const v = l1ValidatorOf(env, w.validationId);
  if (!v) fail('could not load L1 validator: not found');
  if (w.nonce < v.minNonce)
    fail(`warp message contains stale nonce ${w.nonce} must be at least ${v.minNonce}`);
  verifyL1Conversion(env, v.subnet, m);
  if (w.weight === 0n) {
    let total = 0n;
    for (const other of env.state.l1Validators(v.subnet)) total += other.weight;
    if (total === v.weight) fail('attempting to remove the last L1 validator from a converted subnet');
  }
  const remainingBalance = v.status === 'active' ? v.endAccumulatedFee - env.validatorFeeAccrued : 0n;
  return {
    type: 'SetL1ValidatorWeightTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      if (w.weight === 0n) {
        if (remainingBalance > 0n)
          env.state.addUtxo(
            makeRefund(env, tx.id, c.base.outputs.length, remainingBalance, v.remainingBalanceOwner),
          );
        env.state.validators.moveL1(env.height, v.subnet, l1Weight(v), undefined);
        env.state.putL1Validator({
          ...v,
          weight: 0n,
          minNonce: w.nonce + 1n,
          endAccumulatedFee: 0n,
          status: 'removed',
        });
        return;
      }
      env.state.validators.moveL1(env.height, v.subnet, l1Weight(v), { ...l1Weight(v), weight: w.weight });
      env.state.putL1Validator({ ...v, weight: w.weight, minNonce: w.nonce + 1n });
    },
  };
}

export function increaseL1BalanceTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.IncreaseL1ValidatorBalanceTx;
  const balance = u.balance.value();
  if (balance === 0n) fail('balance must be greater than 0');
  verifyBaseTx(tx, env);
  const c = common(tx, env);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs, balance);
  const v = l1ValidatorOf(env, u.validationId.toBytes());
  if (!v) fail('not found');
  if (v.status !== 'active') checkActiveCapacity(env, 0n);
  return {
    type: 'IncreaseL1ValidatorBalanceTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      if (v.status === 'active') {
        env.state.putL1Validator({ ...v, endAccumulatedFee: v.endAccumulatedFee + balance });
      } else {
        env.state.putL1Validator({
          ...v,
          endAccumulatedFee: env.validatorFeeAccrued + balance,
          status: 'active',
        });
        env.state.validators.moveL1(env.height, v.subnet, l1Weight(v), { ...l1Weight(v), active: true });
      }
    },
  };
}

export function disableL1ValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.DisableL1ValidatorTx;
  verifyBaseTx(tx, env);
  verifyAuthInput(u.disableAuth);
  const c = common(tx, env);
  const v = l1ValidatorOf(env, u.validationId.toBytes());
  if (!v) fail('could not load L1 validator: not found');
  const creds = verifyAuth(tx, v.deactivationOwner, u.disableAuth, c, env);
  spend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
  const remainingBalance = v.status === 'active' ? v.endAccumulatedFee - env.validatorFeeAccrued : 0n;
  return {
    type: 'DisableL1ValidatorTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      if (remainingBalance > 0n)
        env.state.addUtxo(
          makeRefund(env, tx.id, c.base.outputs.length, remainingBalance, v.remainingBalanceOwner),
        );
      env.state.validators.moveL1(env.height, v.subnet, l1Weight(v), { ...l1Weight(v), active: false });
      env.state.putL1Validator({ ...v, endAccumulatedFee: 0n, status: 'inactive' });
    },
  };
}
