/**
 * The P-chain spend rule: every input spends an existing UTXO of the same asset and amount, with
 * a signature set that satisfies its owners; locked funds stay locked to the same owners and lock
 * time; and the unlocked value consumed covers the unlocked value produced plus what the tx
 * burns (the fee, and the balances it moves into L1 validators).
 */
import type { TransferableInput, TransferableOutput, Utxo } from '@avalabs/avalanchejs';
import { toCb58 } from '../../../../shared/encoding.js';
import { FxError, verifySpend, type Owners } from '../../components/secp256k1fx.js';
import { inputIdOf } from '../../components/utxo-id.js';
import { TxVerifyError, inputInfo, outputInfo } from './utxo-kinds.js';

export interface SpendInput {
  readonly input: TransferableInput;
  /** The UTXO it spends, looked up by the caller (the UTXO set or shared memory). */
  readonly utxo: Utxo | undefined;
  readonly signatures: readonly Uint8Array[];
}

export interface SpendCheck {
  readonly inputs: readonly SpendInput[];
  /** How many credentials the tx gives its inputs (the reference counts them after the UTXO reads). */
  readonly credentials: number;
  readonly outputs: readonly TransferableOutput[];
  readonly unsignedHash: Uint8Array;
  readonly now: bigint;
  readonly avaxAssetId: Uint8Array;
  /** The minimum fee by the dynamic fee model. */
  readonly fee: bigint;
  /** Other AVAX the tx must burn (L1 validator balances). */
  readonly extraBurn: bigint;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
/**
 * Assets are told apart by their bytes' hex: cb58 (a base58 conversion and a checksum hash) is
 * several times dearer and a tx is verified twice, so only the refusals spell an asset in cb58.
 */
const assetKey = hex;

function ownersKey(asset: string, locktime: bigint, owners: Owners): string {
  return `${asset}|${locktime}|${owners.threshold}|${owners.locktime}|${owners.addresses.map(hex).join(',')}`;
}

function add(map: Map<string, bigint>, key: string, amount: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + amount);
}

/**
 * Input ids of parsed inputs. An issued tx's inputs are named by id six times (the mempool's
 * conflict check, its add and its settle, the UTXO reads when issued and in the block, the
 * spend), each a sha256; the input objects live as long as the parsed tx.
 */
const inputIds = new WeakMap<TransferableInput, Uint8Array>();

export function inputIdOfInput(input: TransferableInput): Uint8Array {
  let id = inputIds.get(input);
  if (!id) {
    id = inputIdOf(input.utxoID.txID.toBytes(), input.utxoID.outputIdx.value());
    inputIds.set(input, id);
  }
  return id;
}

export function verifyUtxoSpend(check: SpendCheck): void {
  const consumedUnlocked = new Map<string, bigint>();
  const consumedLocked = new Map<string, bigint>();
  // As the reference's VerifySpend: every UTXO is read, then the credentials are counted.
  for (const { input, utxo } of check.inputs) {
    if (!utxo) {
      const name = `${input.utxoID.txID.toString()}:${input.utxoID.outputIdx.value()}`;
      throw new TxVerifyError(`failed to read consumed UTXO ${name} due to: not found`);
    }
  }
  if (check.credentials !== check.inputs.length)
    throw new TxVerifyError(
      `wrong number of credentials: ${check.inputs.length} inputs != ${check.credentials} credentials`,
    );
  for (const { input, utxo: found, signatures } of check.inputs) {
    const utxo = found!;
    const asset = assetKey(input.assetId.toBytes());
    if (assetKey(utxo.assetId.toBytes()) !== asset)
      throw new TxVerifyError(
        `input asset ID does not match UTXO asset ID: ${input.assetId.toString()} != ${utxo.assetId.toString()}`,
      );
    const out = outputInfo(utxo.output);
    const inp = inputInfo(input.input);
    // A plain input may spend a stakeable lock that has expired; a locked input must name the
    // UTXO's lock time exactly.
    if (inp.stakeableLocktime === 0n && out.stakeableLocktime > check.now)
      throw new TxVerifyError('locked funds not marked as locked');
    if (inp.stakeableLocktime !== 0n && inp.stakeableLocktime !== out.stakeableLocktime)
      throw new TxVerifyError(
        `input locktime does not match UTXO locktime: ${inp.stakeableLocktime} != ${out.stakeableLocktime}`,
      );
    // secp256k1fx.Fx.VerifySpend: the amounts, then the credential.
    if (inp.amount !== out.amount)
      throw new TxVerifyError(
        `failed to verify transfer: utxo amount and input amount are not equal: ${out.amount} != ${inp.amount}`,
      );
    try {
      verifySpend(out.owners, inp.sigIndices, signatures, check.unsignedHash, check.now);
    } catch (err) {
      if (err instanceof FxError) throw new TxVerifyError(`failed to verify transfer: ${err.message}`);
      throw err;
    }
    if (out.stakeableLocktime > check.now)
      add(consumedLocked, ownersKey(asset, out.stakeableLocktime, out.owners), inp.amount);
    else add(consumedUnlocked, asset, inp.amount);
  }

  const producedUnlocked = new Map<string, bigint>();
  const producedLocked = new Map<string, { asset: string; amount: bigint }>();
  // Each output's own Verify is the tx's syntactic check, made before the spend.
  for (const output of check.outputs) {
    const asset = assetKey(output.assetId.toBytes());
    const out = outputInfo(output.output);
    if (out.stakeableLocktime > check.now) {
      const key = ownersKey(asset, out.stakeableLocktime, out.owners);
      const prev = producedLocked.get(key);
      producedLocked.set(key, { asset, amount: (prev?.amount ?? 0n) + out.amount });
    } else add(producedUnlocked, asset, out.amount);
  }
  // Locked outputs draw on locked inputs of the same owners and lock time first, then on
  // unlocked funds; surplus locked inputs can never pay for unlocked outputs or fees.
  for (const [key, { asset, amount }] of producedLocked) {
    const available = consumedLocked.get(key) ?? 0n;
    if (amount > available) add(producedUnlocked, asset, amount - available);
  }
  // As the reference's flow check: the fee and the balances moved into L1 validators count as
  // AVAX the tx produces, and any shortfall is worded `needs <n> more <asset>`.
  add(producedUnlocked, assetKey(check.avaxAssetId), check.fee + check.extraBurn);
  for (const [asset, produced] of producedUnlocked) {
    const consumed = consumedUnlocked.get(asset) ?? 0n;
    if (consumed < produced)
      throw new TxVerifyError(
        `insufficient unlocked funds: needs ${produced - consumed} more ${toCb58(Buffer.from(asset, 'hex'))}`,
      );
  }
}
