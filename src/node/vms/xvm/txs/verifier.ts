/**
 * Everything the reference AVM checks before a transaction may enter a block, in two passes:
 * syntax (the tx on its own: network and chain ids, memo, sorting, amounts, fees, asset names)
 * and semantics (the tx against state: UTXOs exist and are unspent, assets exist and use the
 * right fx, signatures authorise every spend, atomic UTXOs are in shared memory). A failure
 * throws TxVerifyError naming the first broken rule; verification never writes anything.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { sameSubnetFailure, type PeerSubnet } from '../../components/same-subnet.js';
import { checkOwnersWellFormed, FxError, verifySpend } from '../../components/secp256k1fx.js';
import { toCb58 } from '../../../../shared/encoding.js';
import {
  FX,
  MAX_ASSET_NAME_LEN,
  MAX_ASSET_SYMBOL_LEN,
  MAX_DENOMINATION,
  MAX_MEMO_BYTES,
  MAX_NFT_PAYLOAD_BYTES,
  MAX_UINT64,
  MIN_ASSET_NAME_LEN,
  NUM_FXS,
} from '../constants.js';
import { refInputId } from './effects.js';
import type { Credential, Output, Owners, TxInput, TxOutput, UtxoRef, XTx, XUtxo } from './model.js';

export class TxVerifyError extends Error {
  override readonly name = 'TxVerifyError';
}

export interface VerifierContext {
  readonly networkId: number;
  readonly chainId: Uint8Array;
  readonly avaxAssetId: Uint8Array;
  readonly txFee: bigint;
  readonly createAssetTxFee: bigint;
  /** Chains this chain may export to and import from (P and C), by id. */
  readonly atomicPeers: readonly Uint8Array[];
  /** Any other chain's subnet (a Subnet-EVM chain), for the reference's words about a wrong peer. */
  readonly peerSubnet?: (chainId: string) => PeerSubnet;
}

export interface AssetInfo {
  readonly fxs: readonly number[];
}

/** The state a tx is checked against: accepted state plus the mempool's pending changes. */
export interface StateView {
  /** The UTXO, or a string naming why it cannot be spent (missing, spent by a pending tx). */
  utxo(ref: UtxoRef): XUtxo | string;
  atomicUtxo(sourceChain: Uint8Array, ref: UtxoRef): XUtxo | string;
  asset(assetId: Uint8Array): AssetInfo | undefined;
}

function fail(message: string): never {
  throw new TxVerifyError(message);
}

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
const compare = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Checks the tx alone. */
export function verifySyntax(tx: XTx, ctx: VerifierContext): void {
  if (tx.networkId !== ctx.networkId)
    fail(`tx has wrong network ID: expected ${ctx.networkId}, got ${tx.networkId}`);
  if (!same(tx.blockchainId, ctx.chainId))
    fail(`tx has wrong chain ID: expected ${toCb58(ctx.chainId)}, got ${toCb58(tx.blockchainId)}`);
  if (tx.memo.length > MAX_MEMO_BYTES)
    fail(`memo length ${tx.memo.length} exceeds maximum length ${MAX_MEMO_BYTES}`);

  verifyOutputs(tx.outs, 'outputs');
  verifyInputs(tx.ins, 'inputs');
  let fee = ctx.txFee;
  switch (tx.kind) {
    case 'CreateAssetTx':
      verifyCreateAsset(tx);
      fee = ctx.createAssetTxFee;
      break;
    case 'OperationTx':
      verifyOperations(tx);
      break;
    case 'ImportTx':
      if (tx.importedIns.length === 0) fail('no import inputs');
      verifyInputs(tx.importedIns, 'imported inputs');
      break;
    case 'ExportTx':
      if (tx.exportedOuts.length === 0) fail('no export outputs');
      verifyOutputs(tx.exportedOuts, 'exported outputs');
      break;
    default:
      break;
  }
  verifyFlow(tx, ctx.avaxAssetId, fee);
  const spends = tx.ins.length + tx.importedIns.length + tx.ops.length;
  if (tx.credentials.length !== spends)
    fail(`tx has ${tx.credentials.length} credentials but spends ${spends} inputs and operations`);
}

function verifyOwners(owners: Owners, where: string): void {
  try {
    checkOwnersWellFormed(owners);
  } catch (err) {
    fail(`${where}: ${(err as Error).message}`);
  }
}

export function verifyOutput(output: Output, where: string): void {
  switch (output.kind) {
    case 'secpTransfer':
      if (output.amount === 0n) fail(`${where}: output has no value`);
      break;
    case 'nftTransfer':
      if (output.payload.length > MAX_NFT_PAYLOAD_BYTES)
        fail(`${where}: payload of ${output.payload.length} bytes exceeds ${MAX_NFT_PAYLOAD_BYTES}`);
      break;
    default:
      break;
  }
  verifyOwners(output.owners, where);
}

function verifyOutputs(outs: readonly TxOutput[], what: string): void {
  const bytes: Uint8Array[] = [];
  outs.forEach((out, i) => {
    if (out.output.kind !== 'secpTransfer') fail(`${what}[${i}] is not a transferable amount output`);
    verifyOutput(out.output, `${what}[${i}]`);
    bytes.push(out.bytes);
  });
  for (let i = 1; i < bytes.length; i++)
    if (compare(bytes[i - 1], bytes[i]) > 0) fail(`${what} are not sorted`);
}

function verifyInputs(ins: readonly TxInput[], what: string): void {
  ins.forEach((input, i) => {
    if (input.amount === 0n) fail(`${what}[${i}]: input has no value`);
    verifySigIndices(input.sigIndices, `${what}[${i}]`);
    if (i > 0) {
      const prev = ins[i - 1];
      const c = compare(prev.txId, input.txId) || prev.outputIndex - input.outputIndex;
      if (c >= 0) fail(`${what} are not sorted and unique`);
    }
  });
}

function verifySigIndices(indices: readonly number[], where: string): void {
  for (let i = 1; i < indices.length; i++)
    if (indices[i] <= indices[i - 1]) fail(`${where}: address indices not sorted and unique`);
}

function verifyCreateAsset(tx: XTx): void {
  const asset = tx.createAsset!;
  const { name, symbol, denomination } = asset;
  if (name.length < MIN_ASSET_NAME_LEN || name.length > MAX_ASSET_NAME_LEN)
    fail(`asset name must be between ${MIN_ASSET_NAME_LEN} and ${MAX_ASSET_NAME_LEN} characters`);
  if (symbol.length > MAX_ASSET_SYMBOL_LEN)
    fail(`asset symbol must be at most ${MAX_ASSET_SYMBOL_LEN} characters`);
  if (denomination > MAX_DENOMINATION) fail(`asset denomination ${denomination} exceeds ${MAX_DENOMINATION}`);
  if (name.trim() !== name) fail('asset name has leading or trailing whitespace');
  if (!/^[A-Za-z0-9 ]+$/.test(name)) fail('asset name may hold only ASCII letters, digits and spaces');
  if (!/^[A-Z]*$/.test(symbol)) fail('asset symbol may hold only upper-case ASCII letters');
  if (asset.initialStates.length === 0) fail('assets must support at least one fx');
  asset.initialStates.forEach((state, i) => {
    if (state.fxIndex >= NUM_FXS) fail(`initial state ${i} names unknown fx index ${state.fxIndex}`);
    if (i > 0 && asset.initialStates[i - 1].fxIndex >= state.fxIndex)
      fail('initial states are not sorted and unique');
    state.outputs.forEach((out, j) => {
      if (out.fx !== state.fxIndex)
        fail(`initial state ${i} output ${j} does not belong to fx ${state.fxIndex}`);
      verifyOutput(out, `initial state ${i} output ${j}`);
      if (j > 0 && compare(state.outputBytes[j - 1], state.outputBytes[j]) > 0)
        fail(`initial state ${i} outputs are not sorted`);
    });
  });
}

function verifyOperations(tx: XTx): void {
  if (tx.ops.length === 0) fail('an operation tx needs at least one operation');
  const spent = new Set(tx.ins.map((i) => refInputId(i).key));
  tx.ops.forEach((op, i) => {
    if (op.utxos.length === 0) fail(`operation ${i} consumes no UTXOs`);
    op.utxos.forEach((u, j) => {
      if (j > 0) {
        const prev = op.utxos[j - 1];
        if ((compare(prev.txId, u.txId) || prev.outputIndex - u.outputIndex) >= 0)
          fail(`operation ${i} UTXO ids are not sorted and unique`);
      }
      const { key } = refInputId(u);
      if (spent.has(key)) fail(`operation ${i} double spends UTXO ${toCb58(u.txId)}:${u.outputIndex}`);
      spent.add(key);
    });
    if (i > 0 && compare(tx.ops[i - 1].bytes, op.bytes) >= 0) fail('operations are not sorted and unique');
    const o = op.op;
    verifySigIndices(o.sigIndices, `operation ${i}`);
    switch (o.kind) {
      case 'secpMint':
        verifyOutput(o.mintOutput, `operation ${i} mint output`);
        verifyOutput(o.transferOutput, `operation ${i} transfer output`);
        break;
      case 'nftMint':
        if (o.payload.length > MAX_NFT_PAYLOAD_BYTES)
          fail(`operation ${i}: payload of ${o.payload.length} bytes exceeds ${MAX_NFT_PAYLOAD_BYTES}`);
        o.outputs.forEach((owners, j) => verifyOwners(owners, `operation ${i} output ${j}`));
        break;
      case 'nftTransfer':
        verifyOutput(o.output, `operation ${i} output`);
        break;
    }
  });
}

function add(sums: Map<string, bigint>, assetId: Uint8Array, amount: bigint): void {
  // Keyed by hex: cb58 is only worth its cost in error messages.
  const key = Buffer.from(assetId).toString('hex');
  const total = (sums.get(key) ?? 0n) + amount;
  if (total > MAX_UINT64) fail(`amounts of asset ${toCb58(assetId)} overflow uint64`);
  sums.set(key, total);
}

/** Per asset, inputs cover outputs; the fee is burned in the native asset. */
function verifyFlow(tx: XTx, avaxAssetId: Uint8Array, fee: bigint): void {
  const consumed = new Map<string, bigint>();
  const produced = new Map<string, bigint>();
  for (const i of [...tx.ins, ...tx.importedIns]) add(consumed, i.assetId, i.amount);
  for (const o of [...tx.outs, ...tx.exportedOuts])
    if (o.output.kind === 'secpTransfer') add(produced, o.assetId, o.output.amount);
  if (fee > 0n) add(produced, avaxAssetId, fee);
  const avaxKey = Buffer.from(avaxAssetId).toString('hex');
  for (const [asset, out] of produced) {
    const inAmount = consumed.get(asset) ?? 0n;
    if (out > inAmount) {
      const feeNote = asset === avaxKey ? ` (outputs plus the ${fee} fee)` : '';
      const name = toCb58(Buffer.from(asset, 'hex'));
      fail(`insufficient funds: asset ${name} needs ${out}${feeNote} but the inputs hold ${inAmount}`);
    }
  }
}

/** Checks the tx against state. `now` is Unix seconds (for locktimes). */
/** The peer chain of an import or export must be another primary-network chain (`verify.SameSubnet`). */
function requireAtomicPeer(ctx: VerifierContext, peer: Uint8Array): void {
  const failure = sameSubnetFailure(
    toCb58(ctx.chainId),
    toCb58(peer),
    ctx.atomicPeers.map((p) => toCb58(p)),
    (id) => ctx.peerSubnet?.(id),
  );
  if (failure) fail(failure);
}

export function verifySemantics(tx: XTx, ctx: VerifierContext, view: StateView, now: bigint): void {
  const hash = sha256(tx.unsignedBytes);
  for (const out of [...tx.outs, ...tx.exportedOuts]) requireAssetFx(view, out.assetId, out.output.fx);

  tx.ins.forEach((input, i) => {
    const utxo = view.utxo(input);
    if (typeof utxo === 'string') fail(utxo);
    spendInput(input, utxo, tx.credentials[i], hash, now, view, `input ${i}`);
  });

  if (tx.kind === 'ImportTx') {
    const source = tx.sourceChain!;
    requireAtomicPeer(ctx, source);
    tx.importedIns.forEach((input, i) => {
      const utxo = view.atomicUtxo(source, input);
      if (typeof utxo === 'string') fail(utxo);
      spendInput(input, utxo, tx.credentials[tx.ins.length + i], hash, now, view, `imported input ${i}`);
    });
  }

  if (tx.kind === 'ExportTx') {
    requireAtomicPeer(ctx, tx.destinationChain!);
  }

  tx.ops.forEach((op, i) => {
    const cred = tx.credentials[tx.ins.length + i];
    requireAssetFx(view, op.assetId, op.op.fx);
    if (op.utxos.length !== 1) fail(`operation ${i} must consume exactly one UTXO`);
    const utxo = view.utxo(op.utxos[0]);
    if (typeof utxo === 'string') fail(utxo);
    if (!same(utxo.assetId, op.assetId))
      fail(`operation ${i} names asset ${toCb58(op.assetId)} but its UTXO holds ${toCb58(utxo.assetId)}`);
    if (cred.fx !== op.op.fx) fail(`operation ${i}: wrong credential type`);
    const o = op.op;
    const out = utxo.output;
    switch (o.kind) {
      case 'secpMint':
        if (out.kind !== 'secpMint') fail(`operation ${i}: the UTXO is not a mint output`);
        break;
      case 'nftMint':
        if (out.kind !== 'nftMint') fail(`operation ${i}: the UTXO is not an nft mint output`);
        if (out.groupId !== o.groupId)
          fail(`operation ${i}: wrong group id ${o.groupId}, the UTXO mints group ${out.groupId}`);
        break;
      case 'nftTransfer':
        if (out.kind !== 'nftTransfer') fail(`operation ${i}: the UTXO is not an nft transfer output`);
        if (out.groupId !== o.output.groupId) fail(`operation ${i}: wrong group id`);
        if (!same(out.payload, o.output.payload)) fail(`operation ${i}: wrong payload`);
        break;
    }
    authorise(out.owners, o.sigIndices, cred, hash, now, `operation ${i}`);
  });
}

function requireAssetFx(view: StateView, assetId: Uint8Array, fx: number): void {
  const asset = view.asset(assetId);
  if (!asset) fail(`asset ${toCb58(assetId)} not found`);
  if (!asset.fxs.includes(fx)) fail(`asset ${toCb58(assetId)} does not support fx ${fx}`);
}

function spendInput(
  input: TxInput,
  utxo: XUtxo,
  cred: Credential,
  hash: Uint8Array,
  now: bigint,
  view: StateView,
  where: string,
): void {
  if (!same(utxo.assetId, input.assetId))
    fail(`${where}: the UTXO holds asset ${toCb58(utxo.assetId)}, the input names ${toCb58(input.assetId)}`);
  requireAssetFx(view, input.assetId, FX.secp256k1);
  if (utxo.output.kind !== 'secpTransfer') fail(`${where}: the UTXO is not a transferable amount output`);
  if (utxo.output.amount !== input.amount)
    fail(`${where}: utxo amount ${utxo.output.amount} and input amount ${input.amount} are not equal`);
  if (cred.fx !== FX.secp256k1) fail(`${where}: wrong credential type`);
  authorise(utxo.output.owners, input.sigIndices, cred, hash, now, where);
}

function authorise(
  owners: Owners,
  sigIndices: readonly number[],
  cred: Credential,
  hash: Uint8Array,
  now: bigint,
  where: string,
): void {
  try {
    verifySpend(owners, sigIndices, cred.signatures, hash, now);
  } catch (err) {
    if (err instanceof FxError) fail(`${where}: ${err.message}`);
    throw err;
  }
}
