/**
 * Verifies a P-chain transaction against the current state, as a node does before accepting it,
 * and returns what accepting it writes. Verification only reads; a rejected transaction changes
 * nothing. `apply()` runs inside the accepting block's database transaction.
 */
import {
  BigIntPr,
  OutputOwners,
  pvm,
  pvmSerial,
  TransferOutput,
  type TransferableInput,
  type TransferableOutput,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { toCb58, formatNodeId } from '../../../../shared/encoding.js';
import { blsVerifyProofOfPossession } from '../../../../shared/crypto/bls.js';
import { LruSet } from './lru-set.js';
import type { NetworkIdentity } from '../../../../shared/networks.js';
import { FxError, checkOwnersWellFormed, verifySpend } from '../../components/secp256k1fx.js';
import { sameSubnetFailure } from '../../components/same-subnet.js';
import type { SharedMemory } from '../../components/shared-memory.js';
import { inputIdOf } from '../../components/utxo-id.js';
import { authIndices, makeUtxo, ownersOf, packUtxo, unpackUtxo, type ParsedTx } from '../codec.js';
import type { PlatformConfig } from '../config.js';
import { dimensionsToGas } from '../fees/dynamic-fee.js';
import { potentialReward } from '../reward/calculator.js';
import type { ChainRecord, L1ValidatorRecord, PlatformState } from '../state/platform-state.js';
import type { L1Weight } from '../state/validator-sets.js';
import {
  WarpError,
  parseAddressedCall,
  parseL1ValidatorWeight,
  parseRegisterL1Validator,
  parseWarpMessage,
  verifyWarpSignature,
  type PChainOwnerValue,
} from '../warp/warp-message.js';
import { checkInputsUnique, inputIdOfInput, verifyUtxoSpend, type SpendInput } from './spend.js';
import { TxVerifyError, inputInfo, outputInfo } from './utxo-kinds.js';
import { inputsSortedAndUnique, outputsSorted } from './sort-order.js';

export interface ChainIds {
  readonly p: Uint8Array;
  readonly x: Uint8Array;
  readonly c: Uint8Array;
  readonly avax: Uint8Array;
}

export interface ExecEnv {
  readonly state: PlatformState;
  readonly config: PlatformConfig;
  readonly network: NetworkIdentity;
  readonly ids: ChainIds;
  readonly sharedMemory: SharedMemory;
  /** The timestamp of the block the tx goes into (Unix seconds). */
  readonly chainTime: number;
  /** Height of that block. */
  readonly height: bigint;
  readonly gasPrice: bigint;
  /** The L1 validator fee counter at the block's time. */
  readonly validatorFeeAccrued: bigint;
}

export interface Executed {
  readonly type: string;
  readonly gas: bigint;
  /** Writes the tx's effects; call inside the accepting transaction. */
  readonly apply: () => void;
  readonly createdChain?: ChainRecord;
}

export const PRIMARY_NETWORK = new Uint8Array(32);

/**
 * Proofs of possession already verified. A pairing costs a few hundred milliseconds in pure JS
 * and a tx is verified twice (when issued, and again when its block is built).
 */
const verifiedProofs = new LruSet(4096);

function proofOfPossessionValid(publicKey: Uint8Array, proof: Uint8Array): boolean {
  const key = Buffer.from(publicKey).toString('hex') + Buffer.from(proof).toString('hex');
  if (verifiedProofs.has(key)) return true;
  const ok = blsVerifyProofOfPossession(publicKey, proof);
  if (ok) verifiedProofs.add(key);
  return ok;
}
const MAX_MEMO = 256;
const MAX_CHAIN_NAME = 128;
const MAX_GENESIS = 1024 * 1024;
const MAX_MANAGER_ADDRESS = 4096;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const MAX_UINT64 = (1n << 64n) - 1n;

/** The reference refuses the empty NodeID wherever a tx names a new validator. */
function checkNodeIdNotEmpty(nodeId: Uint8Array, message = 'validator nodeID cannot be empty'): void {
  if (nodeId.every((b) => b === 0)) fail(message);
}
const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

function fail(message: string): never {
  throw new TxVerifyError(message);
}

/** `TransferableOutput.Verify` (asset, stakeable lock, secp256k1fx output) for each output. */
function verifyOutputs(outputs: readonly TransferableOutput[], what = 'output failed verification'): void {
  for (const out of outputs) {
    const why = outputFault(out);
    if (why) fail(`${what}: ${why}`);
  }
}

function outputFault(out: TransferableOutput): string | undefined {
  if (eq(out.assetId.toBytes(), EMPTY_ID)) return 'empty asset ID is not valid';
  if (out.output instanceof pvmSerial.StakeableLockOut && out.output.getLocktime() === 0n)
    return 'invalid locktime';
  const info = outputInfo(out.output);
  if (info.amount === 0n) return 'output has no value';
  try {
    checkOwnersWellFormed(info.owners);
  } catch (err) {
    if (err instanceof FxError) return err.message;
    throw err;
  }
  return undefined;
}

/** `TransferableInput.Verify` (asset, stakeable lock, secp256k1fx input) for each input. */
function verifyInputs(inputs: readonly TransferableInput[]): void {
  for (const input of inputs) {
    let why: string | undefined;
    const info = inputInfo(input.input);
    if (eq(input.assetId.toBytes(), EMPTY_ID)) why = 'empty asset ID is not valid';
    else if (input.input instanceof pvmSerial.StakeableLockIn && info.stakeableLocktime === 0n)
      why = 'invalid locktime';
    else if (info.amount === 0n) why = 'input has no value';
    else if (info.sigIndices.some((x, i) => i > 0 && x <= info.sigIndices[i - 1]!))
      why = 'address indices not sorted and unique';
    if (why) fail(`input failed verification: ${why}`);
  }
}

const EMPTY_ID = new Uint8Array(32);

type AnyBaseTx = {
  NetworkId: { value(): number };
  BlockchainId: { toBytes(): Uint8Array };
  outputs: readonly TransferableOutput[];
  inputs: readonly TransferableInput[];
  memo: { toBytes(): Uint8Array; length: number };
};

export function typeName(unsigned: unknown): string {
  const u = unsigned as Record<string, unknown>;
  const t = typeof u._type === 'string' ? u._type : 'Unknown';
  return t.replace(/^pvm\./, '');
}

export function executeTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as unknown;
  if (pvmSerial.isPvmBaseTx(u as never)) return baseTx(tx, env);
  if (pvmSerial.isImportTx(u as never)) return importTx(tx, env);
  if (pvmSerial.isExportTx(u as never)) return exportTx(tx, env);
  if (pvmSerial.isCreateSubnetTx(u as never)) return createSubnetTx(tx, env);
  if (pvmSerial.isCreateChainTx(u as never)) return createChainTx(tx, env);
  if (pvmSerial.isAddSubnetValidatorTx(u as never)) return addSubnetValidatorTx(tx, env);
  if (pvmSerial.isRemoveSubnetValidatorTx(u as never)) return removeSubnetValidatorTx(tx, env);
  if (pvmSerial.isTransferSubnetOwnershipTx(u as never)) return transferSubnetOwnershipTx(tx, env);
  if (pvmSerial.isAddPermissionlessValidatorTx(u as never)) return addValidatorTx(tx, env);
  if (pvmSerial.isAddPermissionlessDelegatorTx(u as never)) return addDelegatorTx(tx, env);
  if (pvmSerial.isConvertSubnetToL1Tx(u as never)) return convertSubnetTx(tx, env);
  if (pvmSerial.isRegisterL1ValidatorTx(u as never)) return registerL1ValidatorTx(tx, env);
  if (pvmSerial.isSetL1ValidatorWeightTx(u as never)) return setL1ValidatorWeightTx(tx, env);
  if (pvmSerial.isIncreaseL1ValidatorBalanceTx(u as never)) return increaseL1BalanceTx(tx, env);
  if (pvmSerial.isDisableL1ValidatorTx(u as never)) return disableL1ValidatorTx(tx, env);
  fail(`${typeName(u)} is not accepted by this P-chain (it is disabled on current networks)`);
}

// ---- shared pieces --------------------------------------------------------------------------------

interface Common {
  readonly base: AnyBaseTx;
  readonly gas: bigint;
  readonly fee: bigint;
  readonly hash: Uint8Array;
}

/**
 * The checks every tx makes of its base tx, in the reference's order and words: `BaseTx.SyntacticVerify`
 * (ids and memo, each output and input, their order), then Durango's empty memo. `inputs` is how
 * many inputs the tx spends (credentials are one each, plus `authCreds` for subnet authorisation).
 */
function common(tx: ParsedTx, env: ExecEnv, inputs: number, authCreds = 0): Common {
  const base = (tx.unsigned as unknown as { baseTx: AnyBaseTx }).baseTx;
  if (base.NetworkId.value() !== env.network.networkID)
    fail('metadata failed verification: tx has wrong network ID');
  if (!eq(base.BlockchainId.toBytes(), env.ids.p))
    fail('metadata failed verification: tx has wrong chain ID');
  if (base.memo.length > MAX_MEMO)
    fail(`metadata failed verification: memo exceeds maximum length: ${base.memo.length} > ${MAX_MEMO}`);
  verifyOutputs(base.outputs);
  verifyInputs(base.inputs);
  if (!outputsSorted(base.outputs)) fail('outputs not sorted');
  if (!inputsSortedAndUnique(base.inputs)) fail('inputs not sorted and unique');
  // Since Durango a P-chain tx carries no memo.
  if (base.memo.length > 0) fail(`memo exceeds maximum length: ${base.memo.length} > 0`);
  // The reference takes the authorisation's credential off the end, then counts the rest.
  const got = tx.credentials.length;
  if (got < authCreds) fail('wrong number of credentials');
  if (got - authCreds !== inputs)
    fail(`wrong number of credentials: ${inputs} inputs != ${got - authCreds} credentials`);
  let gas: bigint;
  try {
    const d = pvm.getTxComplexity(tx.unsigned);
    gas = dimensionsToGas([d[0], d[1], d[2], d[3]], env.config.gasFee.weights);
  } catch (err) {
    fail(`couldn't compute the tx's complexity: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { base, gas, fee: gas * env.gasPrice, hash: sha256(tx.unsignedBytes) };
}

function localInputs(
  tx: ParsedTx,
  env: ExecEnv,
  inputs: readonly TransferableInput[],
  credOffset = 0,
): SpendInput[] {
  return inputs.map((input, i) => ({
    input,
    utxo: env.state.getUtxo(inputIdOfInput(input)),
    signatures: tx.credentials[credOffset + i] ?? [],
  }));
}

function spend(
  c: Common,
  env: ExecEnv,
  inputs: SpendInput[],
  outputs: readonly TransferableOutput[],
  extraBurn = 0n,
): void {
  checkInputsUnique(inputs.map((i) => i.input));
  verifyUtxoSpend({
    inputs,
    outputs,
    unsignedHash: c.hash,
    now: BigInt(env.chainTime),
    avaxAssetId: toCb58(env.ids.avax),
    fee: c.fee,
    extraBurn,
  });
}

/**
 * spend() for the txs the reference verifies in staker_tx_verification.go (subnet and primary
 * network stakers, subnet validator removal and ownership), which word any spend failure as a
 * failed flow check.
 */
function flowCheckedSpend(...args: Parameters<typeof spend>): void {
  try {
    spend(...args);
  } catch (err) {
    if (err instanceof TxVerifyError) fail(`flow check failed: ${err.message}`);
    throw err;
  }
}

function consumeAndProduce(env: ExecEnv, txId: Uint8Array, base: AnyBaseTx): void {
  env.state.utxos.remove(base.inputs.map(inputIdOfInput));
  base.outputs.forEach((out, i) => env.state.addUtxo(makeUtxo(txId, i, out.assetId.toBytes(), out.output)));
}

function verifyAuth(
  owner: OutputOwners,
  auth: unknown,
  signatures: readonly Uint8Array[],
  c: Common,
  env: ExecEnv,
  what: string,
): void {
  let indices: number[];
  try {
    indices = authIndices(auth);
  } catch (err) {
    fail(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    verifySpend(ownersOf(owner), indices, signatures, c.hash, BigInt(env.chainTime));
  } catch (err) {
    // The reference's verifyAuthorization wraps the fx error as `unauthorized modification: …`.
    if (err instanceof FxError)
      fail(`${what} is not authorised by the owner: unauthorized modification: ${err.message}`);
    throw err;
  }
}

function checkOwners(owner: unknown, what: string): OutputOwners {
  if (!(owner instanceof OutputOwners)) fail(`${what} is not a secp256k1fx output owners`);
  try {
    checkOwnersWellFormed(ownersOf(owner));
  } catch (err) {
    if (err instanceof FxError) fail(`${what}: ${err.message}`);
    throw err;
  }
  return owner;
}

/**
 * A subnet its owner may act on (exists, not the primary network). Converted L1s included: as in
 * the reference (verifySubnetAuthorization), the owner still removes the legacy validators left
 * from before the conversion and may transfer the ownership.
 */
function ownedSubnet(env: ExecEnv, subnetId: Uint8Array) {
  if (eq(subnetId, PRIMARY_NETWORK)) fail('the primary network cannot be modified by subnet transactions');
  const subnet = env.state.subnet(subnetId);
  if (!subnet) fail(`subnet ${toCb58(subnetId)} does not exist`);
  return subnet;
}

/**
 * A subnet that may still get validators and chains (verifyPoASubnetAuthorization): not an L1,
 * refused in the reference's words.
 */
function mutableSubnet(env: ExecEnv, subnetId: Uint8Array) {
  const subnet = ownedSubnet(env, subnetId);
  if (subnet.conversionId) fail(`"${toCb58(subnetId)}" is immutable`);
  return subnet;
}

function sumStake(stake: readonly TransferableOutput[], env: ExecEnv): bigint {
  let total = 0n;
  for (const out of stake) {
    if (!eq(out.assetId.toBytes(), env.ids.avax)) fail('stake must be AVAX');
    total += outputInfo(out.output).amount;
  }
  return total;
}

function produceStaked(env: ExecEnv, txId: Uint8Array, base: AnyBaseTx): void {
  consumeAndProduce(env, txId, base);
}

// ---- transfers ----------------------------------------------------------------------------------

function baseTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.BaseTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return { type: 'BaseTx', gas: c.gas, apply: () => consumeAndProduce(env, tx.id, c.base) };
}

/**
 * Refuses an atomic tx whose peer chain is not another chain of the primary network, in the
 * reference's words (`verify.SameSubnet` over the P-chain's own chain records).
 */
function requireAtomicPeer(env: ExecEnv, peer: Uint8Array): void {
  const failure = sameSubnetFailure(
    toCb58(env.ids.p),
    toCb58(peer),
    [env.ids.p, env.ids.x, env.ids.c].map((id) => toCb58(id)),
    () => {
      const chain = env.state.chain(peer);
      if (chain) return { subnet: toCb58(chain.subnet) };
      return env.state.getTx(peer) ? { notABlockchain: true } : undefined;
    },
  );
  if (failure) fail(failure);
}

function importTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.ImportTx;
  if (u.ins.length === 0) fail('tx has no imported inputs');
  const c = common(tx, env, u.baseTx.inputs.length + u.ins.length);
  verifyInputs(u.ins);
  if (!inputsSortedAndUnique(u.ins)) fail('inputs not sorted and unique');
  const source = u.sourceChain.toBytes();
  requireAtomicPeer(env, source);
  const sourceText = toCb58(source);
  const pText = toCb58(env.ids.p);
  const imported: SpendInput[] = u.ins.map((input, i) => {
    const bytes = env.sharedMemory.get(sourceText, pText, inputIdOfInput(input));
    return {
      input,
      utxo: bytes ? unpackUtxo(bytes) : undefined,
      signatures: tx.credentials[u.baseTx.inputs.length + i] ?? [],
    };
  });
  // The reference reads all of them from shared memory at once and fails with the database's
  // `not found`, naming none; then it reads the tx's own UTXOs itself.
  if (imported.some((imp) => !imp.utxo)) fail('failed to get shared memory: not found');
  const local = localInputs(tx, env, c.base.inputs);
  for (const l of local)
    if (!l.utxo)
      fail(
        `failed to get UTXO ${l.input.utxoID.txID.toString()}:${l.input.utxoID.outputIdx.value()}: not found`,
      );
  checkInputsUnique([...u.baseTx.inputs, ...u.ins]);
  spend(c, env, [...local, ...imported], c.base.outputs);
  return {
    type: 'ImportTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.sharedMemory.remove(sourceText, pText, u.ins.map(inputIdOfInput));
    },
  };
}

function exportTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.ExportTx;
  if (u.outs.length === 0) fail('no export outputs');
  const c = common(tx, env, u.baseTx.inputs.length);
  for (const out of u.outs) {
    verifyOutputs([out]);
    if (!(out.output instanceof TransferOutput)) fail('wrong locktime reported');
  }
  if (!outputsSorted(u.outs)) fail('outputs not sorted');
  const dest = u.destination.toBytes();
  requireAtomicPeer(env, dest);
  spend(c, env, localInputs(tx, env, c.base.inputs), [...c.base.outputs, ...u.outs]);
  return {
    type: 'ExportTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      const offset = c.base.outputs.length;
      env.sharedMemory.put(
        toCb58(env.ids.p),
        toCb58(dest),
        u.outs.map((out, i) => {
          const utxo = makeUtxo(tx.id, offset + i, out.assetId.toBytes(), out.output);
          return {
            inputId: inputIdOf(tx.id, offset + i),
            bytes: packUtxo(utxo),
            addresses: outputInfo(out.output).owners.addresses,
          };
        }),
      );
    },
  };
}

// ---- subnets and chains -------------------------------------------------------------------------

function createSubnetTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.CreateSubnetTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  const owner = checkOwners(u.subnetOwners, 'subnet owner');
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return {
    type: 'CreateSubnetTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.addSubnet(tx.id, owner, env.height);
    },
  };
}

function createChainTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.CreateChainTx;
  const n = u.baseTx.inputs.length;
  const c = common(tx, env, n, 1);
  const subnetId = u.subnetID.toBytes();
  const subnet = mutableSubnet(env, subnetId);
  const name = u.chainName.value();
  if (name.length > MAX_CHAIN_NAME)
    fail(`chain name is ${name.length} characters, at most ${MAX_CHAIN_NAME}`);
  if (!/^[\p{L}\p{N} ]*$/u.test(name)) fail(`chain name "${name}" has an illegal character`);
  if (u.genesisData.length > MAX_GENESIS)
    fail(`genesis is ${u.genesisData.length} bytes, at most ${MAX_GENESIS}`);
  const vmId = u.vmID.toBytes();
  if (eq(vmId, new Uint8Array(32))) fail('the VM id is empty');
  const fxIds = u.fxIds.map((f) => f.toBytes());
  for (let i = 1; i < fxIds.length; i++)
    if (Buffer.compare(Buffer.from(fxIds[i - 1]), Buffer.from(fxIds[i])) >= 0)
      fail('fx ids are not sorted and unique');
  verifyAuth(subnet.owner, u.subnetAuth, tx.credentials[n], c, env, 'CreateChainTx');
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
  const chain: ChainRecord = {
    id: tx.id,
    subnet: subnetId,
    name,
    vmId,
    genesis: u.genesisData.toBytes().subarray(4),
    fxIds,
    height: env.height,
  };
  return {
    type: 'CreateChainTx',
    gas: c.gas,
    createdChain: chain,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.addChain(chain);
    },
  };
}

function transferSubnetOwnershipTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.TransferSubnetOwnershipTx;
  const n = u.baseTx.inputs.length;
  const c = common(tx, env, n, 1);
  const subnetId = u.subnetID.toBytes();
  const subnet = ownedSubnet(env, subnetId);
  const owner = checkOwners(u.subnetOwners, 'new subnet owner');
  verifyAuth(subnet.owner, u.subnetAuth, tx.credentials[n], c, env, 'TransferSubnetOwnershipTx');
  flowCheckedSpend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return {
    type: 'TransferSubnetOwnershipTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.setSubnetOwner(subnetId, owner);
    },
  };
}

// ---- staking ------------------------------------------------------------------------------------

function stakingPeriod(env: ExecEnv, endTime: bigint, what: string): { start: number; end: number } {
  const start = env.chainTime;
  const end = Number(endTime);
  if (endTime <= BigInt(start))
    fail(`${what} end time ${endTime} is not after the current chain time ${start}`);
  const duration = end - start;
  const { minStakeDuration, maxStakeDuration } = env.config.staking;
  if (duration < minStakeDuration)
    fail(`staking period is too short: ${duration} s, the minimum is ${minStakeDuration} s`);
  if (duration > maxStakeDuration)
    fail(`staking period is too long: ${duration} s, the maximum is ${maxStakeDuration} s`);
  return { start, end };
}

function addSubnetValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.AddSubnetValidatorTx;
  const n = u.baseTx.inputs.length;
  const c = common(tx, env, n, 1);
  const subnetId = u.subnetValidator.subnetId.toBytes();
  const subnet = mutableSubnet(env, subnetId);
  const v = u.subnetValidator.validator;
  const nodeId = v.nodeId.toBytes();
  const weight = v.weight.value();
  if (weight === 0n) fail('subnet validator weight must be positive');
  const primary = env.state.currentValidator(PRIMARY_NETWORK, nodeId);
  if (!primary)
    fail(`${formatNodeId(nodeId)} is not a primary network validator, so it cannot validate a subnet`);
  const { start, end } = stakingPeriod(env, v.endTime.value(), 'subnet validator');
  if (end > primary.endTime)
    fail(`the subnet validation period must end by the primary network validation's end ${primary.endTime}`);
  if (env.state.currentValidator(subnetId, nodeId))
    fail(`${formatNodeId(nodeId)} is already a validator of subnet ${toCb58(subnetId)}`);
  verifyAuth(subnet.owner, u.subnetAuth, tx.credentials[n], c, env, 'AddSubnetValidatorTx');
  flowCheckedSpend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
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

function removeSubnetValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.RemoveSubnetValidatorTx;
  const n = u.baseTx.inputs.length;
  const c = common(tx, env, n, 1);
  const subnetId = u.subnetId.toBytes();
  const subnet = ownedSubnet(env, subnetId);
  const nodeId = u.nodeId.toBytes();
  const staker = env.state.currentValidator(subnetId, nodeId);
  if (!staker) fail(`${formatNodeId(nodeId)} is not a validator of subnet ${toCb58(subnetId)}`);
  verifyAuth(subnet.owner, u.subnetAuth, tx.credentials[n], c, env, 'RemoveSubnetValidatorTx');
  flowCheckedSpend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
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

function addValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.AddPermissionlessValidatorTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  const subnetId = u.subnetValidator.subnetId.toBytes();
  if (!eq(subnetId, PRIMARY_NETWORK))
    fail('permissionless validators of subnets are not supported (TransformSubnetTx is disabled since Etna)');
  const v = u.subnetValidator.validator;
  const nodeId = v.nodeId.toBytes();
  checkNodeIdNotEmpty(nodeId);
  const weight = v.weight.value();
  const { minValidatorStake, maxValidatorStake, minDelegationFee } = env.config.staking;
  if (weight < minValidatorStake)
    fail(`weight of ${weight} nAVAX is below the minimum validator stake ${minValidatorStake}`);
  if (weight > maxValidatorStake)
    fail(`weight of ${weight} nAVAX is above the maximum validator stake ${maxValidatorStake}`);
  const shares = u.shares.value();
  if (shares < minDelegationFee || shares > 1_000_000)
    fail(`delegation fee ${shares} is outside [${minDelegationFee}, 1000000] parts per million`);
  const { start, end } = stakingPeriod(env, v.endTime.value(), 'validator');
  if (!(u.signer instanceof pvmSerial.Signer))
    fail('primary network validators must register a BLS key (signer is empty)');
  const pop = u.signer.proof;
  if (!proofOfPossessionValid(pop.publicKey, pop.signature))
    fail('invalid proof of possession: the signature does not prove ownership of the BLS public key');
  const existing = env.state.currentValidator(PRIMARY_NETWORK, nodeId);
  if (existing)
    fail(
      `${formatNodeId(nodeId)} is already a primary network validator until ${existing.endTime}: staking periods may not overlap`,
    );
  verifyOutputs(u.stake, 'failed to verify output');
  if (!outputsSorted(u.stake)) fail('outputs not sorted');
  if (sumStake(u.stake, env) !== weight)
    fail(`stake outputs sum to ${sumStake(u.stake, env)}, the weight is ${weight}`);
  checkOwners(u.validatorRewardsOwner, 'validation reward owner');
  checkOwners(u.delegatorRewardsOwner, 'delegation reward owner');
  flowCheckedSpend(c, env, localInputs(tx, env, c.base.inputs), [...c.base.outputs, ...u.stake]);
  const supply = env.state.currentSupply();
  const reward = potentialReward(env.config.reward, BigInt(end - start), weight, supply);
  return {
    type: 'AddPermissionlessValidatorTx',
    gas: c.gas,
    apply: () => {
      produceStaked(env, tx.id, c.base);
      env.state.addStaker({
        txId: tx.id,
        kind: 'validator',
        subnet: PRIMARY_NETWORK,
        nodeId,
        weight,
        startTime: start,
        endTime: end,
        potentialReward: reward,
        delegationFee: shares,
        blsPublicKey: pop.publicKey,
        accruedDelegateeReward: 0n,
        status: 'current',
        validatorTx: undefined,
      });
      env.state.setCurrentSupply(supply + reward);
      env.state.validators.change(env.height, PRIMARY_NETWORK, nodeId, weight, pop.publicKey);
    },
  };
}

function addDelegatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.AddPermissionlessDelegatorTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  const subnetId = u.subnetValidator.subnetId.toBytes();
  if (!eq(subnetId, PRIMARY_NETWORK)) fail('delegation is only possible on the primary network');
  const v = u.subnetValidator.validator;
  const nodeId = v.nodeId.toBytes();
  const weight = v.weight.value();
  const { minDelegatorStake, maxValidatorStake, maxValidatorWeightFactor } = env.config.staking;
  if (weight < minDelegatorStake)
    fail(`weight of ${weight} nAVAX is below the minimum delegator stake ${minDelegatorStake}`);
  const validator = env.state.currentValidator(PRIMARY_NETWORK, nodeId);
  if (!validator) fail(`${formatNodeId(nodeId)} is not a primary network validator to delegate to`);
  const { start, end } = stakingPeriod(env, v.endTime.value(), 'delegator');
  if (end > validator.endTime)
    fail(`the delegation period must end by the validator's end ${validator.endTime}, not ${end}`);
  let delegated = 0n;
  for (const d of env.state.delegatorsOf(validator.txId)) delegated += d.weight;
  const limit =
    validator.weight * maxValidatorWeightFactor < maxValidatorStake
      ? validator.weight * maxValidatorWeightFactor
      : maxValidatorStake;
  if (validator.weight + delegated + weight > limit)
    fail(
      `validator would be over delegated: ${validator.weight + delegated + weight} nAVAX exceeds the limit ${limit}`,
    );
  verifyOutputs(u.stake, 'failed to verify output');
  if (!outputsSorted(u.stake)) fail('outputs not sorted');
  if (sumStake(u.stake, env) !== weight)
    fail(`stake outputs sum to ${sumStake(u.stake, env)}, the weight is ${weight}`);
  checkOwners(u.delegatorRewardsOwner, 'delegation reward owner');
  flowCheckedSpend(c, env, localInputs(tx, env, c.base.inputs), [...c.base.outputs, ...u.stake]);
  const supply = env.state.currentSupply();
  const reward = potentialReward(env.config.reward, BigInt(end - start), weight, supply);
  return {
    type: 'AddPermissionlessDelegatorTx',
    gas: c.gas,
    apply: () => {
      produceStaked(env, tx.id, c.base);
      env.state.addStaker({
        txId: tx.id,
        kind: 'delegator',
        subnet: PRIMARY_NETWORK,
        nodeId,
        weight,
        startTime: start,
        endTime: end,
        potentialReward: reward,
        delegationFee: 0,
        blsPublicKey: undefined,
        accruedDelegateeReward: 0n,
        status: 'current',
        validatorTx: validator.txId,
      });
      env.state.setCurrentSupply(supply + reward);
      env.state.validators.change(env.height, PRIMARY_NETWORK, nodeId, weight);
    },
  };
}

// ---- L1s ----------------------------------------------------------------------------------------

function pOwner(o: PChainOwnerValue): OutputOwners {
  const owners = OutputOwners.fromNative(o.addresses, 0n, o.threshold);
  try {
    checkOwnersWellFormed(ownersOf(owners));
  } catch (err) {
    if (err instanceof FxError) fail(`owner: ${err.message}`);
    throw err;
  }
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

function convertSubnetTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.ConvertSubnetToL1Tx;
  const n = u.baseTx.inputs.length;
  const c = common(tx, env, n, 1);
  const subnetId = u.subnetID.toBytes();
  const subnet = mutableSubnet(env, subnetId);
  // The manager may live on any chain (the C-chain, another L1): the reference checks only that
  // its Warp messages come from this chain and address.
  const chainId = u.chainID.toBytes();
  const address = u.address.toBytes().subarray(4);
  if (address.length > MAX_MANAGER_ADDRESS)
    fail(`manager address is ${address.length} bytes, at most ${MAX_MANAGER_ADDRESS}`);
  if (u.validators.length === 0) fail('an L1 needs at least one validator');
  let balances = 0n;
  const validators = u.validators.map((v, i) => {
    const nodeId = v.nodeId.toBytes().subarray(4);
    if (nodeId.length !== 20) fail(`validator ${i} node id must be 20 bytes`);
    checkNodeIdNotEmpty(nodeId);
    const weight = v.weight.value();
    if (weight === 0n) fail(`validator ${i} weight must be positive`);
    if (!proofOfPossessionValid(v.signer.publicKey, v.signer.signature))
      fail(`validator ${i}: invalid proof of possession`);
    balances += v.balance.value();
    return {
      validationId: conversionValidationId(subnetId, i),
      nodeId,
      weight,
      balance: v.balance.value(),
      publicKey: v.signer.publicKey,
      remaining: ownerFromPChainOwner(v.remainingBalanceOwner as never),
      deactivation: ownerFromPChainOwner(v.deactivationOwner as never),
    };
  });
  for (let i = 1; i < validators.length; i++)
    if (Buffer.compare(Buffer.from(validators[i - 1].nodeId), Buffer.from(validators[i].nodeId)) >= 0)
      fail('validators are not sorted and unique by node id');
  verifyAuth(subnet.owner, u.subnetAuth, tx.credentials[n], c, env, 'ConvertSubnetToL1Tx');
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs, balances);
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

/** Parses and checks a Warp message from an L1's validator manager. */
function managerMessage(env: ExecEnv, bytes: Uint8Array) {
  try {
    const msg = parseWarpMessage(bytes);
    const call = parseAddressedCall(msg.payload);
    return { msg, call };
  } catch (err) {
    if (err instanceof WarpError) fail(err.message);
    throw err;
  }
}

function checkFromManager(env: ExecEnv, subnetId: Uint8Array, m: ReturnType<typeof managerMessage>): void {
  const subnet = env.state.subnet(subnetId);
  if (!subnet?.conversionId || !subnet.managerChain || !subnet.managerAddress)
    fail(`subnet ${toCb58(subnetId)} is not an L1`);
  if (!eq(m.msg.sourceChainId, subnet.managerChain))
    fail(
      `warp message comes from chain ${toCb58(m.msg.sourceChainId)}, the L1's manager chain is ${toCb58(subnet.managerChain)}`,
    );
  if (!eq(m.call.sourceAddress, subnet.managerAddress))
    fail(
      `warp message comes from address 0x${hex(m.call.sourceAddress)}, the L1's manager is 0x${hex(subnet.managerAddress)}`,
    );
  const chain = env.state.chain(m.msg.sourceChainId);
  const signingSubnet = chain?.subnet ?? subnetId;
  try {
    verifyWarpSignature(m.msg, env.network.networkID, env.state.validators.at(signingSubnet));
  } catch (err) {
    if (err instanceof WarpError) fail(err.message);
    throw err;
  }
}

function wrapWarp<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WarpError) fail(err.message);
    throw err;
  }
}

function registerL1ValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.RegisterL1ValidatorTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  const m = managerMessage(env, u.message.toBytes().subarray(4));
  const reg = wrapWarp(() => parseRegisterL1Validator(m.call.payload));
  checkFromManager(env, reg.subnetId, m);
  if (reg.nodeId.length !== 20) fail('node id must be 20 bytes');
  checkNodeIdNotEmpty(reg.nodeId, 'invalid node ID: empty nodeID is disallowed');
  if (reg.weight === 0n) fail('L1 validator weight must be positive');
  if (reg.expiry <= BigInt(env.chainTime))
    fail(`registration expired at ${reg.expiry}, the chain time is ${env.chainTime}`);
  if (reg.expiry > BigInt(env.chainTime + env.config.maxExpiryWindow))
    fail(`registration expiry ${reg.expiry} is more than ${env.config.maxExpiryWindow} s in the future`);
  if (env.state.expiryUsed(reg.validationId) || env.state.l1Validator(reg.validationId))
    fail(`validation ${toCb58(reg.validationId)} was already registered`);
  if (env.state.l1ValidatorByNode(reg.subnetId, reg.nodeId))
    fail(`${formatNodeId(reg.nodeId)} already validates L1 ${toCb58(reg.subnetId)}`);
  if (!proofOfPossessionValid(reg.blsPublicKey, u.blsSignature.toBytes()))
    fail('invalid proof of possession for the BLS key in the registration message');
  const remaining = pOwner(reg.remainingBalanceOwner);
  const deactivation = pOwner(reg.disableOwner);
  const balance = u.balance.value();
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs, balance);
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

function setL1ValidatorWeightTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.SetL1ValidatorWeightTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  const m = managerMessage(env, u.message.toBytes().subarray(4));
  const w = wrapWarp(() => parseL1ValidatorWeight(m.call.payload));
  // The last nonce only removes: a weight set with it would leave no nonce to follow.
  if (w.nonce === MAX_UINT64 && w.weight !== 0n) fail('maxUint64 nonce is reserved for removal');
  const v = env.state.l1Validator(w.validationId);
  if (!v || v.status === 'removed') fail(`L1 validator ${toCb58(w.validationId)} does not exist`);
  checkFromManager(env, v.subnet, m);
  if (w.nonce < v.minNonce) fail(`nonce ${w.nonce} is below the validator's minimum nonce ${v.minNonce}`);
  if (w.weight === 0n && env.state.l1Validators(v.subnet).length === 1)
    fail('the last validator of an L1 cannot be removed');
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
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

function increaseL1BalanceTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.IncreaseL1ValidatorBalanceTx;
  const c = common(tx, env, u.baseTx.inputs.length);
  const validationId = u.validationId.toBytes();
  const v = env.state.l1Validator(validationId);
  if (!v || v.status === 'removed') fail(`L1 validator ${toCb58(validationId)} does not exist`);
  const balance = u.balance.value();
  if (balance === 0n) fail('balance increase must be positive');
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs, balance);
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

function disableL1ValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.DisableL1ValidatorTx;
  const n = u.baseTx.inputs.length;
  const c = common(tx, env, n, 1);
  const validationId = u.validationId.toBytes();
  const v = env.state.l1Validator(validationId);
  if (!v || v.status === 'removed') fail(`L1 validator ${toCb58(validationId)} does not exist`);
  verifyAuth(v.deactivationOwner, u.disableAuth, tx.credentials[n], c, env, 'DisableL1ValidatorTx');
  spend(c, env, localInputs(tx, env, c.base.inputs), c.base.outputs);
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
