/**
 * The stakers, as the reference verifies them in staker_tx_verification.go: subnet validators
 * added and removed by the subnet's owner, and the primary network's permissionless validators and
 * delegators (staking period, stake outputs, rewards).
 */
import { OutputOwners, pvmSerial, type TransferableOutput } from '@avalabs/avalanchejs';
import { toCb58, formatNodeId } from '../../../../shared/encoding.js';
import { ownersOf, type ParsedTx } from '../codec.js';
import { potentialReward } from '../reward/calculator.js';
import { PRIMARY_NETWORK, type ExecEnv, type Executed } from './env.js';
import {
  MAX_UINT64,
  checkNodeIdNotEmpty,
  checkOwnersOf,
  common,
  consumeAndProduce,
  eq,
  fail,
  flowCheckedSpend,
  localInputs,
  proofOfPossessionFault,
  verifyAuthInput,
  verifyBaseTx,
  verifyOutputs,
  verifyPoASubnetAuth,
  verifySubnetAuth,
} from './base-checks.js';
import { outputInfo } from './utxo-kinds.js';
import { outputsSorted } from './sort-order.js';

/** A rewards owner as the codec reads it (only secp256k1fx output owners parse there). */
function rewardsOwner(owner: unknown): OutputOwners {
  if (!(owner instanceof OutputOwners)) fail('wrong owner type');
  return owner;
}

/**
 * The stake outputs' syntactic checks (each output, one asset, order, their sum against the
 * weight, refused in `mismatch`'s words). Returns the staked asset (cb58).
 */
function verifyStake(
  stake: readonly TransferableOutput[],
  mismatch: (total: bigint) => string,
  weight: bigint,
): string {
  verifyOutputs(stake, 'failed to verify output');
  const asset = stake[0]!.assetId.toString();
  let total = outputInfo(stake[0]!.output).amount;
  for (const out of stake.slice(1)) {
    total += outputInfo(out.output).amount;
    if (total > MAX_UINT64) fail('overflow');
    const other = out.assetId.toString();
    if (other !== asset) fail(`multiple staked assets: "${asset}" and "${other}"`);
  }
  if (!outputsSorted(stake)) fail('outputs not sorted');
  if (total !== weight) fail(mismatch(total));
  return asset;
}

/** The primary network stakes AVAX: `incorrect staked assetID: <AVAX> != <staked>`. */
function checkStakedAsset(env: ExecEnv, staked: string): void {
  const avax = toCb58(env.ids.avax);
  if (staked !== avax) fail(`incorrect staked assetID: ${avax} != ${staked}`);
}

/** A primary-network staker as a permissionless validator or delegator tx adds it. */
interface PrimaryStaker {
  readonly kind: 'validator' | 'delegator';
  readonly nodeId: Uint8Array;
  readonly weight: bigint;
  readonly start: number;
  readonly end: number;
  readonly delegationFee: number;
  readonly blsPublicKey?: Uint8Array;
  /** A delegator's validator tx. */
  readonly validatorTx?: Uint8Array;
}

/**
 * What both permissionless staker txs end with once their own rules passed: the spend with the
 * stake among the outputs, the potential reward from the supply now, and the effects (the staked
 * UTXOs, the current staker, the supply the reward will add, the validator set's weight).
 */
function stakeOnPrimary(
  tx: ParsedTx,
  env: ExecEnv,
  c: ReturnType<typeof common>,
  stake: readonly TransferableOutput[],
  s: PrimaryStaker,
): () => void {
  flowCheckedSpend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), [
    ...c.base.outputs,
    ...stake,
  ]);
  const supply = env.state.currentSupply();
  const reward = potentialReward(env.config.reward, BigInt(s.end - s.start), s.weight, supply);
  return () => {
    consumeAndProduce(env, tx.id, c.base);
    env.state.addStaker({
      txId: tx.id,
      kind: s.kind,
      subnet: PRIMARY_NETWORK,
      nodeId: s.nodeId,
      weight: s.weight,
      startTime: s.start,
      endTime: s.end,
      potentialReward: reward,
      delegationFee: s.delegationFee,
      blsPublicKey: s.blsPublicKey,
      accruedDelegateeReward: 0n,
      status: 'current',
      validatorTx: s.validatorTx,
    });
    env.state.setCurrentSupply(supply + reward);
    env.state.validators.change(env.height, PRIMARY_NETWORK, s.nodeId, s.weight, s.blsPublicKey);
  };
}

/**
 * The staking period, which since Durango starts at the chain time: its length is checked against
 * the bounds as the reference's staker checks do (an end before the chain time is too short).
 */
function stakingPeriod(
  env: ExecEnv,
  endTime: bigint,
  bounds: { minStakeDuration: number; maxStakeDuration: number } = env.config.staking,
): { start: number; end: number } {
  const start = env.chainTime;
  const duration = endTime - BigInt(start);
  if (duration < BigInt(bounds.minStakeDuration)) fail('staking period is too short');
  if (duration > BigInt(bounds.maxStakeDuration)) fail('staking period is too long');
  return { start, end: Number(endTime) };
}

/** `txs.BoundedBy`: [start, end] lies within [lower, upper]. */
function boundedBy(start: number, end: number, lower: number, upper: number): boolean {
  return start >= lower && end <= upper && end >= start;
}

export function addSubnetValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.AddSubnetValidatorTx;
  const subnetId = u.subnetValidator.subnetId.toBytes();
  const v = u.subnetValidator.validator;
  const nodeId = v.nodeId.toBytes();
  const weight = v.weight.value();
  // AddSubnetValidatorTx.SyntacticVerify.
  if (eq(subnetId, PRIMARY_NETWORK)) fail("can't add primary network validator with AddSubnetValidatorTx");
  verifyBaseTx(tx, env);
  if (weight === 0n) fail('weight of this validator is too low');
  verifyAuthInput(u.subnetAuth);
  const c = common(tx, env);
  // verifyAddSubnetValidatorTx.
  const { start, end } = stakingPeriod(env, v.endTime.value());
  if (env.state.currentValidator(subnetId, nodeId))
    fail(`attempted to issue duplicate validator for ${formatNodeId(nodeId)} on subnet ${toCb58(subnetId)}`);
  const primary = env.state.currentValidator(PRIMARY_NETWORK, nodeId);
  if (!primary) fail(`${formatNodeId(nodeId)} isn't a current or pending validator of the primary network`);
  if (!boundedBy(start, end, primary.startTime, primary.endTime))
    fail('proposed staking period is not inside dependent staking period');
  const creds = verifyPoASubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  flowCheckedSpend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return {
    type: 'AddSubnetValidatorTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.addStaker({
        txId: tx.id,
        kind: 'subnet_validator',
        subnet: subnetId,
        nodeId,
        weight,
        startTime: start,
        endTime: end,
        potentialReward: 0n,
        delegationFee: 0,
        blsPublicKey: primary.blsPublicKey,
        accruedDelegateeReward: 0n,
        status: 'current',
        validatorTx: undefined,
      });
      env.state.validators.change(env.height, subnetId, nodeId, weight, primary.blsPublicKey);
    },
  };
}

export function removeSubnetValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.RemoveSubnetValidatorTx;
  const subnetId = u.subnetId.toBytes();
  const nodeId = u.nodeId.toBytes();
  if (eq(subnetId, PRIMARY_NETWORK))
    fail("can't remove primary network validator with RemoveSubnetValidatorTx");
  verifyBaseTx(tx, env);
  verifyAuthInput(u.subnetAuth);
  const c = common(tx, env);
  const staker = env.state.currentValidator(subnetId, nodeId);
  if (!staker)
    fail(`${formatNodeId(nodeId)} isn't a current or pending validator of ${toCb58(subnetId)}: not found`);
  const creds = verifySubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  flowCheckedSpend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return {
    type: 'RemoveSubnetValidatorTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.markStakerRemoved(staker.txId, env.height);
      env.state.validators.change(env.height, subnetId, nodeId, -staker.weight);
    },
  };
}

export function addValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.AddPermissionlessValidatorTx;
  const subnetId = u.subnetValidator.subnetId.toBytes();
  const v = u.subnetValidator.validator;
  const nodeId = v.nodeId.toBytes();
  const weight = v.weight.value();
  const shares = u.shares.value();
  // AddPermissionlessValidatorTx.SyntacticVerify, in its order and words.
  checkNodeIdNotEmpty(nodeId);
  if (u.stake.length === 0) fail('no stake');
  if (shares > 1_000_000) fail('a staker can only require at most 1000000 shares from delegators');
  verifyBaseTx(tx, env, 'failed to verify BaseTx: ');
  const wrap = 'failed to verify validator, signer, or rewards owners: ';
  if (weight === 0n) fail(`${wrap}weight of this validator is too low`);
  const pop = u.signer instanceof pvmSerial.Signer ? u.signer.proof : undefined;
  const popFault = pop && proofOfPossessionFault(pop.publicKey, pop.signature);
  if (popFault) fail(`${wrap}${popFault}`);
  checkOwnersOf(ownersOf(rewardsOwner(u.validatorRewardsOwner)), wrap);
  checkOwnersOf(ownersOf(rewardsOwner(u.delegatorRewardsOwner)), wrap);
  const isPrimary = eq(subnetId, PRIMARY_NETWORK);
  if (!!pop !== isPrimary) fail(`invalid signer: hasKey=${!!pop} != isPrimaryNetwork=${isPrimary}`);
  const stakedAsset = verifyStake(
    u.stake,
    (total) => `validator weight mismatch: weight ${weight} != stake ${total}`,
    weight,
  );
  const c = common(tx, env);
  // verifyAddPermissionlessValidatorTx. Only the primary network takes permissionless validators:
  // a subnet's rules would come from its TransformSubnetTx, and none can be made since Etna.
  if (!isPrimary) fail('not found');
  const { minValidatorStake, maxValidatorStake, minDelegationFee } = env.config.staking;
  if (weight < minValidatorStake) fail('weight of this validator is too low');
  if (weight > maxValidatorStake) fail('weight of this validator is too large');
  if (shares < minDelegationFee) fail('staker charges an insufficient delegation fee');
  const { start, end } = stakingPeriod(env, v.endTime.value());
  checkStakedAsset(env, stakedAsset);
  if (env.state.currentValidator(PRIMARY_NETWORK, nodeId))
    fail(`duplicate validator: ${formatNodeId(nodeId)} on ${toCb58(subnetId)}`);
  const apply = stakeOnPrimary(tx, env, c, u.stake, {
    kind: 'validator',
    nodeId,
    weight,
    start,
    end,
    delegationFee: shares,
    blsPublicKey: pop!.publicKey,
  });
  return { type: 'AddPermissionlessValidatorTx', gas: c.gas, apply };
}

export function addDelegatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.AddPermissionlessDelegatorTx;
  const subnetId = u.subnetValidator.subnetId.toBytes();
  const v = u.subnetValidator.validator;
  const nodeId = v.nodeId.toBytes();
  const weight = v.weight.value();
  // AddPermissionlessDelegatorTx.SyntacticVerify, in its order and words.
  if (u.stake.length === 0) fail('no stake');
  verifyBaseTx(tx, env, 'failed to verify BaseTx: ');
  const wrap = 'failed to verify validator or rewards owner: ';
  if (weight === 0n) fail(`${wrap}weight of this validator is too low`);
  checkOwnersOf(ownersOf(rewardsOwner(u.delegatorRewardsOwner)), wrap);
  const stakedAsset = verifyStake(
    u.stake,
    (total) =>
      `delegator weight is not equal to total stake weight, delegator weight ${weight} total stake weight ${total}`,
    weight,
  );
  const c = common(tx, env);
  // verifyAddPermissionlessDelegatorTx.
  if (!eq(subnetId, PRIMARY_NETWORK)) fail('not found');
  const { minDelegatorStake, maxValidatorStake, maxValidatorWeightFactor } = env.config.staking;
  if (weight < minDelegatorStake) fail('weight of this validator is too low');
  const { start, end } = stakingPeriod(env, v.endTime.value());
  checkStakedAsset(env, stakedAsset);
  const validator = env.state.currentValidator(PRIMARY_NETWORK, nodeId);
  if (!validator)
    fail(`failed to fetch the validator for ${formatNodeId(nodeId)} on ${toCb58(subnetId)}: not found`);
  if (!boundedBy(start, end, validator.startTime, validator.endTime))
    fail('proposed staking period is not inside dependent staking period');
  let delegated = 0n;
  for (const d of env.state.delegatorsOf(validator.txId)) delegated += d.weight;
  const limit =
    validator.weight * maxValidatorWeightFactor < maxValidatorStake
      ? validator.weight * maxValidatorWeightFactor
      : maxValidatorStake;
  if (validator.weight + delegated + weight > limit) fail('validator would be over delegated');
  const apply = stakeOnPrimary(tx, env, c, u.stake, {
    kind: 'delegator',
    nodeId,
    weight,
    start,
    end,
    delegationFee: 0,
    validatorTx: validator.txId,
  });
  return { type: 'AddPermissionlessDelegatorTx', gas: c.gas, apply };
}
