/**
 * The checks every P-chain tx family shares, as the reference's executor has them beside its
 * visitors: `BaseTx.SyntacticVerify` (ids, memo, each output and input, their order), the tx's
 * complexity and fee, the spend (flow check) and its effects on the UTXO set, owners, the
 * authorisation of subnet owners (subnet_tx_verification.go), and proofs of possession.
 */
import {
  OutputOwners,
  pvm,
  pvmSerial,
  type TransferableInput,
  type TransferableOutput,
} from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { toCb58 } from '../../../../shared/encoding.js';
import { blsProofOfPossessionFault } from '../../../../shared/crypto/bls.js';
import { LruSet } from './lru-set.js';
import { FxError, checkOwnersWellFormed, verifySpend } from '../../components/secp256k1fx.js';
import { authIndices, makeUtxo, ownersOf, type ParsedTx } from '../codec.js';
import { dimensionsToGas } from '../fees/dynamic-fee.js';
import type { ExecEnv } from './env.js';
import { inputIdOfInput, verifyUtxoSpend, type SpendInput } from './spend.js';
import { TxVerifyError, inputInfo, outputInfo } from './utxo-kinds.js';
import { inputsSortedAndUnique, outputsSorted } from './sort-order.js';

/**
 * Proofs of possession already verified. A pairing costs a few hundred milliseconds in pure JS
 * and a tx is verified twice (when issued, and again when its block is built).
 */
const verifiedProofs = new LruSet(4096);

/** Why a proof of possession fails, in the reference's words (see blsProofOfPossessionFault). */
export function proofOfPossessionFault(publicKey: Uint8Array, proof: Uint8Array): string | undefined {
  const key = Buffer.from(publicKey).toString('hex') + Buffer.from(proof).toString('hex');
  if (verifiedProofs.has(key)) return undefined;
  const fault = blsProofOfPossessionFault(publicKey, proof);
  if (!fault) verifiedProofs.add(key);
  return fault;
}

const MAX_MEMO = 256;

export const MAX_UINT64 = (1n << 64n) - 1n;

/** The reference refuses the empty NodeID wherever a tx names a new validator. */
export function checkNodeIdNotEmpty(nodeId: Uint8Array, message = 'validator nodeID cannot be empty'): void {
  if (nodeId.every((b) => b === 0)) fail(message);
}
export const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

export function fail(message: string): never {
  throw new TxVerifyError(message);
}

/** `TransferableOutput.Verify` (asset, stakeable lock, secp256k1fx output) for each output. */
export function verifyOutputs(
  outputs: readonly TransferableOutput[],
  what = 'output failed verification',
): void {
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
export function verifyInputs(inputs: readonly TransferableInput[]): void {
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

export const EMPTY_ID = new Uint8Array(32);

export type AnyBaseTx = {
  NetworkId: { value(): number };
  BlockchainId: { toBytes(): Uint8Array };
  outputs: readonly TransferableOutput[];
  inputs: readonly TransferableInput[];
  memo: { toBytes(): Uint8Array; length: number };
};

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
export function verifyBaseTx(tx: ParsedTx, env: ExecEnv, wrap = ''): AnyBaseTx {
  const base = baseOf(tx);
  const passed = syntacticallyVerified.get(tx);
  if (passed && passed.networkId === env.network.networkID && eq(passed.chainId, env.ids.p)) return base;
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
  syntacticallyVerified.set(tx, { networkId: env.network.networkID, chainId: env.ids.p });
  return base;
}

/**
 * Parsed txs whose base tx passed `verifyBaseTx`, with the network and chain it was checked for
 * (all it reads beside the tx). As the reference's tx remembers `SyntacticallyVerified`, a tx
 * checked when issued is not checked again when its block is built: the output checks and the
 * order check (which encodes every output) were a third of a BaseTx's re-verification there.
 */
const syntacticallyVerified = new WeakMap<ParsedTx, { networkId: number; chainId: Uint8Array }>();

/**
 * What every tx does after its `SyntacticVerify` (which the caller has run): Durango's empty memo,
 * then the tx's complexity, which prices it.
 */
export function common(tx: ParsedTx, env: ExecEnv): Common {
  const base = baseOf(tx);
  // Since Durango a P-chain tx carries no memo.
  if (base.memo.length > 0) fail(`memo exceeds maximum length: ${base.memo.length} > 0`);
  let gas: bigint;
  try {
    gas = txGas(tx, env.config.gasFee.weights);
  } catch (err) {
    fail(`couldn't compute the tx's complexity: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { base, gas, fee: gas * env.gasPrice, hash: sha256(tx.unsignedBytes) };
}

/**
 * Each parsed tx's gas under the weights it was priced with: `issue` prices a tx for the
 * capacity check before it runs and the run prices it again for its fee, so the complexity
 * walk (which serializes every output and input) is done once per tx, not twice.
 */
const pricedTxs = new WeakMap<ParsedTx, { weights: readonly number[]; gas: bigint }>();

/**
 * The tx's gas: avalanchejs's port of the reference's complexity rules (`fee.TxComplexity`),
 * weighed. It reads the tx alone, so `VerifyTx` can check it against the capacity before
 * executing anything. Throws avalanchejs's error for a tx type it does not price.
 */
export function txGas(tx: ParsedTx, weights: readonly [number, number, number, number]): bigint {
  const hit = pricedTxs.get(tx);
  if (hit && hit.weights === weights) return hit.gas;
  const d = pvm.getTxComplexity(tx.unsigned);
  const gas = dimensionsToGas([d[0], d[1], d[2], d[3]], weights);
  pricedTxs.set(tx, { weights, gas });
  return gas;
}

export function localInputs(
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
export function spend(
  c: Common,
  env: ExecEnv,
  credentials: number,
  inputs: SpendInput[],
  outputs: readonly TransferableOutput[],
  extraBurn = 0n,
): void {
  verifyUtxoSpend({
    inputs,
    credentials,
    outputs,
    unsignedHash: c.hash,
    now: BigInt(env.chainTime),
    avaxAssetId: env.ids.avax,
    fee: c.fee,
    extraBurn,
  });
}

/**
 * spend() for the txs the reference verifies in staker_tx_verification.go (subnet and primary
 * network stakers, subnet validator removal and ownership), which word any spend failure as a
 * failed flow check.
 */
export function flowCheckedSpend(...args: Parameters<typeof spend>): void {
  try {
    spend(...args);
  } catch (err) {
    if (err instanceof TxVerifyError) fail(`flow check failed: ${err.message}`);
    throw err;
  }
}

export function consumeAndProduce(env: ExecEnv, txId: Uint8Array, base: AnyBaseTx): void {
  env.state.spendUtxos(base.inputs.map(inputIdOfInput));
  base.outputs.forEach((out, i) => env.state.addUtxo(makeUtxo(txId, i, out.assetId.toBytes(), out.output)));
}

/** `secp256k1fx.Input.Verify` of a subnet or disable auth, as the tx's SyntacticVerify makes it. */
export function verifyAuthInput(auth: unknown): number[] {
  const indices = authIndices(auth);
  for (let i = 1; i < indices.length; i++)
    if (indices[i] <= indices[i - 1]) fail('address indices not sorted and unique');
  return indices;
}

/**
 * The reference's `verifyAuthorization`: the last credential signs for `owner`, and the rest are
 * the base tx's (returns how many). A refusal of the fx is `unauthorized modification: <why>`.
 */
export function verifyAuth(
  tx: ParsedTx,
  owner: OutputOwners,
  auth: unknown,
  c: Common,
  env: ExecEnv,
): number {
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
export function checkOwners(owner: unknown): OutputOwners {
  if (!(owner instanceof OutputOwners)) fail('wrong owner type');
  checkOwnersOf(ownersOf(owner));
  return owner;
}

export function checkOwnersOf(owners: Parameters<typeof checkOwnersWellFormed>[0], wrap = ''): void {
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
export function verifySubnetAuth(
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
export function verifyPoASubnetAuth(
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
