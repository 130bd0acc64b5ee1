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
import { blsProofOfPossessionFault } from '../../../../shared/crypto/bls.js';
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

/** Why a proof of possession fails, in the reference's words (see blsProofOfPossessionFault). */
function proofOfPossessionFault(publicKey: Uint8Array, proof: Uint8Array): string | undefined {
  const key = Buffer.from(publicKey).toString('hex') + Buffer.from(proof).toString('hex');
  if (verifiedProofs.has(key)) return undefined;
  const fault = blsProofOfPossessionFault(publicKey, proof);
  if (!fault) verifiedProofs.add(key);
  return fault;
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

/**
 * Verifies `tx` as the reference's `VerifyTx` does: the Warp messages it carries first (their
 * refusals under `failed verifying warp messages: `), then the execution against the state. The
 * execution's refusal carries two layers, as since avalanchego v1.11.13 (#3525): `StandardTx`
 * wraps every visitor error as `standard tx <txID> failed execution: <why>`, and `VerifyTx` wraps
 * that as `failed execution: `.
 */
export function executeTx(tx: ParsedTx, env: ExecEnv): Executed {
  try {
    verifyWarpMessages(tx, env);
  } catch (err) {
    if (err instanceof TxVerifyError) throw new StagedTxError('failed verifying warp messages', err.message);
    throw err;
  }
  try {
    return executeStandardTx(tx, env);
  } catch (err) {
    if (err instanceof TxVerifyError)
      throw new StagedTxError(
        'failed execution',
        `standard tx ${toCb58(tx.id)} failed execution: ${err.message}`,
      );
    throw err;
  }
}

/**
 * A refusal under the stage of `VerifyTx` that made it. The block builder drops a tx with the
 * `reason` under the stage (the Warp error bare, or `StandardTx`'s `standard tx <txID> failed
 * execution: <why>`), as the reference's builder marks what those calls return.
 */
export class StagedTxError extends TxVerifyError {
  constructor(
    readonly stage: string,
    readonly reason: string,
  ) {
    super(`${stage}: ${reason}`);
  }
}

function executeStandardTx(tx: ParsedTx, env: ExecEnv): Executed {
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

/** The tx's base tx. */
function baseOf(tx: ParsedTx): AnyBaseTx {
  return (tx.unsigned as unknown as { baseTx: AnyBaseTx }).baseTx;
}

/**
 * `BaseTx.SyntacticVerify` in the reference's order and words: ids and memo, each output and
 * input, their order. `wrap` prefixes its refusals, as the permissionless staker txs do.
 */
function verifyBaseTx(tx: ParsedTx, env: ExecEnv, wrap = ''): AnyBaseTx {
  const base = baseOf(tx);
  try {
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
  } catch (err) {
    if (wrap && err instanceof TxVerifyError) fail(`${wrap}${err.message}`);
    throw err;
  }
  return base;
}

/**
 * What every tx does after its `SyntacticVerify` (which the caller has run): Durango's empty memo,
 * then the tx's complexity, which prices it.
 */
function common(tx: ParsedTx, env: ExecEnv): Common {
  const base = baseOf(tx);
  // Since Durango a P-chain tx carries no memo.
  if (base.memo.length > 0) fail(`memo exceeds maximum length: ${base.memo.length} > 0`);
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

/**
 * The reference's `VerifySpend` (the flow check). `credentials` is how many credentials the tx
 * gives its inputs: all of them, or all but the authorisation's last one.
 */
function spend(
  c: Common,
  env: ExecEnv,
  credentials: number,
  inputs: SpendInput[],
  outputs: readonly TransferableOutput[],
  extraBurn = 0n,
): void {
  checkInputsUnique(inputs.map((i) => i.input));
  verifyUtxoSpend({
    inputs,
    credentials,
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

/** `secp256k1fx.Input.Verify` of a subnet or disable auth, as the tx's SyntacticVerify makes it. */
function verifyAuthInput(auth: unknown): number[] {
  const indices = authIndices(auth);
  for (let i = 1; i < indices.length; i++)
    if (indices[i] <= indices[i - 1]) fail('address indices not sorted and unique');
  return indices;
}

/**
 * The reference's `verifyAuthorization`: the last credential signs for `owner`, and the rest are
 * the base tx's (returns how many). A refusal of the fx is `unauthorized modification: <why>`.
 */
function verifyAuth(tx: ParsedTx, owner: OutputOwners, auth: unknown, c: Common, env: ExecEnv): number {
  if (tx.credentials.length === 0) fail('should have the same number of credentials as inputs');
  const baseCreds = tx.credentials.length - 1;
  try {
    verifySpend(ownersOf(owner), authIndices(auth), tx.credentials[baseCreds], c.hash, BigInt(env.chainTime));
  } catch (err) {
    if (err instanceof FxError) fail(`unauthorized modification: ${err.message}`);
    throw err;
  }
  return baseCreds;
}

/** secp256k1fx `OutputOwners.Verify`, its refusal bare as the reference's SyntacticVerify returns it. */
function checkOwners(owner: unknown): OutputOwners {
  if (!(owner instanceof OutputOwners)) fail('wrong owner type');
  checkOwnersOf(ownersOf(owner));
  return owner;
}

function checkOwnersOf(owners: Parameters<typeof checkOwnersWellFormed>[0], wrap = ''): void {
  try {
    checkOwnersWellFormed(owners);
  } catch (err) {
    if (err instanceof FxError) fail(`${wrap}${err.message}`);
    throw err;
  }
}

/**
 * The owner of a subnet, as the reference's `GetSubnetOwner` finds it: `not found` for an id no tx
 * has, `"<id>" is not a subnet` for another tx's id.
 */
function subnetOwner(env: ExecEnv, subnetId: Uint8Array): OutputOwners {
  const subnet = env.state.subnet(subnetId);
  if (subnet) return subnet.owner;
  if (env.state.getTx(subnetId)) fail(`"${toCb58(subnetId)}" is not a subnet`);
  fail('not found');
}

/**
 * `verifySubnetAuthorization`: the subnet's owner signs the auth. Converted L1s included: as in the
 * reference, the owner still removes the legacy validators left from before the conversion and
 * may transfer the ownership. Returns how many credentials the base tx has.
 */
function verifySubnetAuth(
  tx: ParsedTx,
  env: ExecEnv,
  c: Common,
  subnetId: Uint8Array,
  auth: unknown,
): number {
  return verifyAuth(tx, subnetOwner(env, subnetId), auth, c, env);
}

/**
 * `verifyPoASubnetAuthorization`: the owner's authorisation, then a subnet that may still get
 * validators and chains (not an L1), refused as `"<subnet>" is immutable`.
 */
function verifyPoASubnetAuth(
  tx: ParsedTx,
  env: ExecEnv,
  c: Common,
  subnetId: Uint8Array,
  auth: unknown,
): number {
  const creds = verifySubnetAuth(tx, env, c, subnetId, auth);
  if (env.state.subnet(subnetId)?.conversionId) fail(`"${toCb58(subnetId)}" is immutable`);
  return creds;
}

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

function produceStaked(env: ExecEnv, txId: Uint8Array, base: AnyBaseTx): void {
  consumeAndProduce(env, txId, base);
}

// ---- transfers ----------------------------------------------------------------------------------

function baseTx(tx: ParsedTx, env: ExecEnv): Executed {
  verifyBaseTx(tx, env);
  const c = common(tx, env);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs);
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
  verifyBaseTx(tx, env);
  verifyInputs(u.ins);
  if (!inputsSortedAndUnique(u.ins)) fail('inputs not sorted and unique');
  const c = common(tx, env);
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
  spend(c, env, tx.credentials.length, [...local, ...imported], c.base.outputs);
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
  verifyBaseTx(tx, env);
  for (const out of u.outs) {
    verifyOutputs([out]);
    if (!(out.output instanceof TransferOutput)) fail('wrong locktime reported');
  }
  if (!outputsSorted(u.outs)) fail('outputs not sorted');
  const c = common(tx, env);
  const dest = u.destination.toBytes();
  requireAtomicPeer(env, dest);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), [...c.base.outputs, ...u.outs]);
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
  verifyBaseTx(tx, env);
  const owner = checkOwners(u.subnetOwners);
  const c = common(tx, env);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs);
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
  const subnetId = u.subnetID.toBytes();
  const name = u.chainName.value();
  const vmId = u.vmID.toBytes();
  const fxIds = u.fxIds.map((f) => f.toBytes());
  // CreateChainTx.SyntacticVerify, in its order and words.
  if (eq(subnetId, PRIMARY_NETWORK)) fail("new blockchain can't be validated by primary network");
  if (Buffer.byteLength(name) > MAX_CHAIN_NAME) fail('name too long');
  if (eq(vmId, EMPTY_ID)) fail('invalid VM ID');
  for (let i = 1; i < fxIds.length; i++)
    if (Buffer.compare(Buffer.from(fxIds[i - 1]), Buffer.from(fxIds[i])) >= 0)
      fail('feature extensions IDs must be sorted and unique');
  if (u.genesisData.length > MAX_GENESIS) fail('genesis too long');
  // ASCII letters, digits and spaces (Go's unicode.IsLetter/IsNumber below MaxASCII).
  if (!/^[A-Za-z0-9 ]*$/.test(name)) fail('illegal name character');
  verifyBaseTx(tx, env);
  verifyAuthInput(u.subnetAuth);
  const c = common(tx, env);
  const creds = verifyPoASubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  spend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
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
  const subnetId = u.subnetID.toBytes();
  if (eq(subnetId, PRIMARY_NETWORK)) fail('cannot transfer ownership of a permissionless subnet');
  verifyBaseTx(tx, env);
  verifyAuthInput(u.subnetAuth);
  const owner = checkOwners(u.subnetOwners);
  const c = common(tx, env);
  const creds = verifySubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  flowCheckedSpend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
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

function addSubnetValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
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

function removeSubnetValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
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

function addValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
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
  flowCheckedSpend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), [
    ...c.base.outputs,
    ...u.stake,
  ]);
  const blsKey = pop!.publicKey;
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
        blsPublicKey: blsKey,
        accruedDelegateeReward: 0n,
        status: 'current',
        validatorTx: undefined,
      });
      env.state.setCurrentSupply(supply + reward);
      env.state.validators.change(env.height, PRIMARY_NETWORK, nodeId, weight, blsKey);
    },
  };
}

function addDelegatorTx(tx: ParsedTx, env: ExecEnv): Executed {
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
  flowCheckedSpend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), [
    ...c.base.outputs,
    ...u.stake,
  ]);
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

function convertSubnetTx(tx: ParsedTx, env: ExecEnv): Executed {
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

/** A Warp message's parts, parsed (its refusals in this node's words). */
function managerMessage(bytes: Uint8Array) {
  return wrapWarp(() => {
    const msg = parseWarpMessage(bytes);
    const call = parseAddressedCall(msg.payload);
    return { msg, call };
  });
}

function wrapWarp<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WarpError) fail(err.message);
    throw err;
  }
}

/** The Warp message a tx carries, if any (RegisterL1ValidatorTx, SetL1ValidatorWeightTx). */
function warpMessageOf(tx: ParsedTx): Uint8Array | undefined {
  const u = tx.unsigned as unknown;
  if (pvmSerial.isRegisterL1ValidatorTx(u as never) || pvmSerial.isSetL1ValidatorWeightTx(u as never))
    return (u as pvmSerial.RegisterL1ValidatorTx).message.toBytes().subarray(4);
  return undefined;
}

/**
 * The reference's `VerifyWarpMessages`, made before the tx executes: the message is signed by
 * enough of the validators of its source chain's subnet. A source chain this P-chain has no record
 * of is taken to be the L1's own (its manager on a chain the P-chain did not create), the L1 the
 * message names.
 */
function verifyWarpMessages(tx: ParsedTx, env: ExecEnv): void {
  const bytes = warpMessageOf(tx);
  if (!bytes) return;
  const msg = wrapWarp(() => parseWarpMessage(bytes));
  const chain = env.state.chain(msg.sourceChainId);
  const signingSubnet = chain?.subnet ?? namedL1(tx, env, msg);
  if (!signingSubnet) fail(`problem retrieving blockchain "${toCb58(msg.sourceChainId)}": not found`);
  wrapWarp(() => verifyWarpSignature(msg, env.network.networkID, env.state.validators.at(signingSubnet)));
}

/** The L1 a manager's message is about, when its payload says. */
function namedL1(
  tx: ParsedTx,
  env: ExecEnv,
  msg: ReturnType<typeof parseWarpMessage>,
): Uint8Array | undefined {
  try {
    const call = parseAddressedCall(msg.payload);
    if (pvmSerial.isRegisterL1ValidatorTx(tx.unsigned as never))
      return parseRegisterL1Validator(call.payload).subnetId;
    const v = env.state.l1Validator(parseL1ValidatorWeight(call.payload).validationId);
    return v && v.status !== 'removed' ? v.subnet : undefined;
  } catch (err) {
    if (err instanceof WarpError) return undefined;
    throw err;
  }
}

/** `verifyL1Conversion`: the message comes from the chain and address that manage the L1. */
function verifyL1Conversion(env: ExecEnv, subnetId: Uint8Array, m: ReturnType<typeof managerMessage>): void {
  const subnet = env.state.subnet(subnetId);
  if (!subnet?.conversionId || !subnet.managerChain || !subnet.managerAddress)
    fail(`could not load subnet conversion for ${toCb58(subnetId)} with: not found`);
  if (!eq(m.msg.sourceChainId, subnet.managerChain))
    fail(
      `wrong warp message source chain ID expected ${toCb58(subnet.managerChain)} but had ${toCb58(m.msg.sourceChainId)}`,
    );
  if (!eq(m.call.sourceAddress, subnet.managerAddress))
    fail(
      `wrong warp message source address expected 0x${hex(subnet.managerAddress)} but got 0x${hex(m.call.sourceAddress)}`,
    );
}

/** The L1 validator a tx names, as `GetL1Validator` finds it (a removed one is gone). */
function l1ValidatorOf(env: ExecEnv, validationId: Uint8Array): L1ValidatorRecord | undefined {
  const v = env.state.l1Validator(validationId);
  return v && v.status !== 'removed' ? v : undefined;
}

function registerL1ValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
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

function setL1ValidatorWeightTx(tx: ParsedTx, env: ExecEnv): Executed {
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

function increaseL1BalanceTx(tx: ParsedTx, env: ExecEnv): Executed {
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

function disableL1ValidatorTx(tx: ParsedTx, env: ExecEnv): Executed {
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
