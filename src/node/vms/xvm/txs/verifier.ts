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
  MIN_ASSET_SYMBOL_LEN,
  NUM_FXS,
} from '../constants.js';
import { refInputId } from './effects.js';
import type {
  Credential,
  Output,
  Owners,
  TxInput,
  TxOperation,
  TxOutput,
  UtxoRef,
  XTx,
  XUtxo,
} from './model.js';

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
  /** The UTXO, or undefined when there is none (never made, or spent by an accepted tx). */
  utxo(ref: UtxoRef): XUtxo | undefined;
  /** The UTXO in shared memory, undefined when absent, or a string saying why it is unreadable. */
  atomicUtxo(sourceChain: Uint8Array, ref: UtxoRef): XUtxo | string | undefined;
  asset(assetId: Uint8Array): AssetInfo | undefined;
}

function fail(message: string): never {
  throw new TxVerifyError(message);
}

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
const compare = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Checks the tx alone, in the order and words of the reference's `SyntacticVerifier`. */
export function verifySyntax(tx: XTx, ctx: VerifierContext): void {
  // Each tx kind's own emptiness (and CreateAssetTx's naming) checks come before the base tx's.
  switch (tx.kind) {
    case 'CreateAssetTx':
      verifyAssetNaming(tx);
      break;
    case 'OperationTx':
      if (tx.ops.length === 0) fail('an operationTx must have at least one operation');
      break;
    case 'ImportTx':
      if (tx.importedIns.length === 0) fail('no import inputs');
      break;
    case 'ExportTx':
      if (tx.exportedOuts.length === 0) fail('no export outputs');
      break;
    default:
      break;
  }
  // avax.BaseTx.Verify
  if (tx.networkId !== ctx.networkId) fail('tx has wrong network ID');
  if (!same(tx.blockchainId, ctx.chainId)) fail('tx has wrong chain ID');
  if (tx.memo.length > MAX_MEMO_BYTES)
    fail(`memo exceeds maximum length: ${tx.memo.length} > ${MAX_MEMO_BYTES}`);
  // avax.VerifyTx: the fee, then every output group, then every input group, then the flow.
  const flow = new FlowCheck();
  flow.produce(ctx.avaxAssetId, tx.kind === 'CreateAssetTx' ? ctx.createAssetTxFee : ctx.txFee);
  for (const outs of tx.kind === 'ExportTx' ? [tx.outs, tx.exportedOuts] : [tx.outs])
    verifyOutputs(outs, flow);
  for (const ins of tx.kind === 'ImportTx' ? [tx.ins, tx.importedIns] : [tx.ins]) verifyInputs(ins, flow);
  flow.verify();
  if (tx.kind === 'CreateAssetTx') verifyInitialStates(tx);
  if (tx.kind === 'OperationTx') verifyOperations(tx);
  const spends = tx.ins.length + tx.importedIns.length + tx.ops.length;
  if (tx.credentials.length !== spends)
    fail(`wrong number of credentials: ${tx.credentials.length} != ${spends}`);
}

function verifyOwners(owners: Owners): void {
  try {
    checkOwnersWellFormed(owners);
  } catch (err) {
    fail((err as Error).message);
  }
}

/** An output's own `Verify`, as each fx defines it. */
export function verifyOutput(output: Output): void {
  switch (output.kind) {
    case 'secpTransfer':
      if (output.amount === 0n) fail('output has no value');
      break;
    case 'nftTransfer':
      if (output.payload.length > MAX_NFT_PAYLOAD_BYTES) fail('payload too large');
      break;
    default:
      break;
  }
  verifyOwners(output.owners);
}

const EMPTY_ID = new Uint8Array(32);

/** `avax.Asset.Verify`. */
function verifyAssetId(assetId: Uint8Array): void {
  if (same(assetId, EMPTY_ID)) fail('empty asset ID is not valid');
}

function verifyOutputs(outs: readonly TxOutput[], flow: FlowCheck): void {
  for (const out of outs) {
    // The codec only reads amount outputs here; anything else never gets this far there.
    if (out.output.kind !== 'secpTransfer') fail('output is not a transferable amount output');
    verifyAssetId(out.assetId);
    verifyOutput(out.output);
    flow.produce(out.assetId, out.output.amount);
  }
  // Sorted by asset, then by the output's bytes; equal outputs are allowed.
  for (let i = 1; i < outs.length; i++)
    if (compare(outs[i - 1].bytes, outs[i].bytes) > 0) fail('outputs not sorted');
}

function verifyInputs(ins: readonly TxInput[], flow: FlowCheck): void {
  for (const input of ins) {
    verifyAssetId(input.assetId);
    if (input.amount === 0n) fail('input has no value');
    verifySigIndices(input.sigIndices);
    flow.consume(input.assetId, input.amount);
  }
  if (!utxoRefsSortedAndUnique(ins)) fail('inputs not sorted and unique');
}

function utxoRefsSortedAndUnique(refs: readonly UtxoRef[]): boolean {
  for (let i = 1; i < refs.length; i++) {
    const prev = refs[i - 1];
    const c = compare(prev.txId, refs[i].txId) || prev.outputIndex - refs[i].outputIndex;
    if (c >= 0) return false;
  }
  return true;
}

/** `secp256k1fx.Input.Verify`. */
function verifySigIndices(indices: readonly number[]): void {
  for (let i = 1; i < indices.length; i++)
    if (indices[i] <= indices[i - 1]) fail('address indices not sorted and unique');
}

/** The name, symbol, fx count and denomination rules checked before anything else. */
function verifyAssetNaming(tx: XTx): void {
  const { name, symbol, denomination, initialStates } = tx.createAsset!;
  // Go measures strings in bytes.
  const nameLen = Buffer.byteLength(name, 'utf8');
  const symbolLen = Buffer.byteLength(symbol, 'utf8');
  if (nameLen < MIN_ASSET_NAME_LEN) fail(`name is too short, minimum size is ${MIN_ASSET_NAME_LEN}`);
  if (nameLen > MAX_ASSET_NAME_LEN) fail(`name is too long, maximum size is ${MAX_ASSET_NAME_LEN}`);
  if (symbolLen < MIN_ASSET_SYMBOL_LEN) fail(`symbol is too short, minimum size is ${MIN_ASSET_SYMBOL_LEN}`);
  if (symbolLen > MAX_ASSET_SYMBOL_LEN) fail(`symbol is too long, maximum size is ${MAX_ASSET_SYMBOL_LEN}`);
  if (initialStates.length === 0) fail('assets must support at least one Fx');
  if (denomination > MAX_DENOMINATION) fail('denomination is too large');
  if (name.trim() !== name) fail('unexpected whitespace provided');
  if (!/^[A-Za-z0-9 ]*$/.test(name)) fail("asset's name must be made up of only letters and numbers");
  if (!/^[A-Z]*$/.test(symbol)) fail("asset's symbol must be all upper case letters");
}

/** `InitialState.Verify` for each state, then their order. */
function verifyInitialStates(tx: XTx): void {
  const states = tx.createAsset!.initialStates;
  states.forEach((state, i) => {
    if (state.fxIndex >= NUM_FXS) fail('unknown feature extension');
    state.outputs.forEach((out, j) => {
      // The reference's codec reads any fx's output into any state; this node keeps them apart.
      if (out.fx !== state.fxIndex)
        fail(`initial state ${i} output ${j} does not belong to fx ${state.fxIndex}`);
      verifyOutput(out);
    });
    for (let j = 1; j < state.outputBytes.length; j++)
      if (compare(state.outputBytes[j - 1], state.outputBytes[j]) > 0) fail('outputs not sorted');
  });
  for (let i = 1; i < states.length; i++)
    if (states[i - 1].fxIndex >= states[i].fxIndex) fail('initial states not sorted and unique');
}

/** Each operation's `Verify`, no UTXO consumed twice, then the operations' order. */
function verifyOperations(tx: XTx): void {
  const spent = new Set(tx.ins.map((i) => refInputId(i).key));
  tx.ops.forEach((op) => {
    if (!utxoRefsSortedAndUnique(op.utxos)) fail('utxo IDs not sorted and unique');
    verifyAssetId(op.assetId);
    const o = op.op;
    switch (o.kind) {
      case 'secpMint':
        verifySigIndices(o.sigIndices);
        verifyOutput(o.mintOutput);
        verifyOutput(o.transferOutput);
        break;
      case 'nftMint':
        if (o.payload.length > MAX_NFT_PAYLOAD_BYTES) fail('payload too large');
        o.outputs.forEach((owners) => verifyOwners(owners));
        verifySigIndices(o.sigIndices);
        break;
      case 'nftTransfer':
        verifySigIndices(o.sigIndices);
        verifyOutput(o.output);
        break;
    }
    for (const u of op.utxos) {
      const { key } = refInputId(u);
      if (spent.has(key)) fail('inputs attempt to double spend an input');
      spent.add(key);
    }
  });
  for (let i = 1; i < tx.ops.length; i++)
    if (compare(tx.ops[i - 1].bytes, tx.ops[i].bytes) >= 0) fail('operations not sorted and unique');
}

/** `avax.FlowChecker`: per asset, what the tx consumes covers what it produces (the fee included). */
class FlowCheck {
  private readonly consumed = new Map<string, bigint>();
  private readonly produced = new Map<string, bigint>();
  private overflowed = false;

  consume(assetId: Uint8Array, amount: bigint): void {
    this.add(this.consumed, assetId, amount);
  }

  produce(assetId: Uint8Array, amount: bigint): void {
    this.add(this.produced, assetId, amount);
  }

  private add(sums: Map<string, bigint>, assetId: Uint8Array, amount: bigint): void {
    // Keyed by hex: ids are only printed in no message here.
    const key = Buffer.from(assetId).toString('hex');
    const total = (sums.get(key) ?? 0n) + amount;
    // math.Add refuses the sum; the first such error is what the check reports.
    if (total > MAX_UINT64) this.overflowed = true;
    else sums.set(key, total);
  }

  verify(): void {
    if (this.overflowed) fail('overflow');
    for (const [asset, out] of this.produced)
      if (out > (this.consumed.get(asset) ?? 0n)) fail('insufficient funds');
  }
}

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

/** Checks the tx against state, in the order and words of the reference's `SemanticVerifier`. */
export function verifySemantics(tx: XTx, ctx: VerifierContext, view: StateView, now: bigint): void {
  const hash = sha256(tx.unsignedBytes);
  // BaseTx: each input against its UTXO, then each output's asset.
  tx.ins.forEach((input, i) => {
    try {
      const utxo = view.utxo(input);
      if (!utxo) fail(`failed to get utxo ${toCb58(refInputId(input).inputId)}: not found`);
      spendUtxo(input, utxo, tx.credentials[i], hash, now, view);
    } catch (err) {
      if (err instanceof TxVerifyError) fail(`failed to verify transfer: ${err.message}`);
      throw err;
    }
  });
  for (const out of tx.outs) {
    try {
      requireAssetFx(view, out.assetId, out.output.fx);
    } catch (err) {
      if (err instanceof TxVerifyError) fail(`failed to verify fx usage: ${err.message}`);
      throw err;
    }
  }

  if (tx.kind === 'ImportTx') {
    const source = tx.sourceChain!;
    requireAtomicPeer(ctx, source);
    // Shared memory answers all the imported UTXOs at once, or `not found` for any missing one.
    const utxos = tx.importedIns.map((input) => view.atomicUtxo(source, input));
    if (utxos.some((u) => u === undefined)) fail('not found');
    tx.importedIns.forEach((input, i) => {
      const utxo = utxos[i]!;
      if (typeof utxo === 'string') fail(utxo);
      spendUtxo(input, utxo, tx.credentials[tx.ins.length + i], hash, now, view);
    });
  }

  if (tx.kind === 'ExportTx') {
    requireAtomicPeer(ctx, tx.destinationChain!);
    for (const out of tx.exportedOuts) requireAssetFx(view, out.assetId, out.output.fx);
  }

  tx.ops.forEach((op, i) => verifyOperation(op, tx.credentials[tx.ins.length + i], hash, now, view));
}

/** `SemanticVerifier.verifyOperation`, then the operation's fx's `VerifyOperation`. */
function verifyOperation(
  op: TxOperation,
  cred: Credential,
  hash: Uint8Array,
  now: bigint,
  view: StateView,
): void {
  const utxos = op.utxos.map((ref) => {
    const utxo = view.utxo(ref);
    if (!utxo) fail('not found');
    if (!same(utxo.assetId, op.assetId)) fail("asset IDs in the input don't match the utxo");
    return utxo;
  });
  const o = op.op;
  requireAssetFx(view, op.assetId, o.fx);
  if (o.kind === 'secpMint') {
    if (cred.fx !== FX.secp256k1) fail('wrong credential type');
    if (utxos.length !== 1) fail('wrong number of utxos for the operation');
    const out = utxos[0].output;
    if (out.kind !== 'secpMint') fail('wrong utxo type');
    // A mint operation hands the mint right on to the same owners.
    if (!sameOwners(out.owners, o.mintOutput.owners)) fail('wrong mint output created from the operation');
    authorise(out.owners, o.sigIndices, cred, hash, now);
    return;
  }
  if (utxos.length !== 1) fail('wrong number of UTXOs for the operation');
  if (cred.fx !== FX.nft) fail('wrong credential type');
  const out = utxos[0].output;
  if (o.kind === 'nftMint') {
    if (out.kind !== 'nftMint') fail('wrong utxo type');
    if (out.groupId !== o.groupId) fail('wrong unique ID provided');
  } else {
    if (out.kind !== 'nftTransfer') fail('wrong utxo type');
    if (out.groupId !== o.output.groupId) fail('wrong unique ID provided');
    if (!same(out.payload, o.output.payload)) fail('wrong bytes provided');
  }
  authorise(out.owners, o.sigIndices, cred, hash, now);
}

function sameOwners(a: Owners, b: Owners): boolean {
  return (
    a.locktime === b.locktime &&
    a.threshold === b.threshold &&
    a.addresses.length === b.addresses.length &&
    a.addresses.every((addr, i) => same(addr, b.addresses[i]))
  );
}

/** `verifyFxUsage`: the asset exists and was created with the fx. */
function requireAssetFx(view: StateView, assetId: Uint8Array, fx: number): void {
  const asset = view.asset(assetId);
  // The reference reads the asset's CreateAssetTx from its txs: `not found` when there is none.
  if (!asset) fail('not found');
  if (!asset.fxs.includes(fx)) fail('incompatible feature extension');
}

/** `verifyTransferOfUTXO`: the UTXO's asset, the credential's fx, then the fx's `VerifyTransfer`. */
function spendUtxo(
  input: TxInput,
  utxo: XUtxo,
  cred: Credential,
  hash: Uint8Array,
  now: bigint,
  view: StateView,
): void {
  if (!same(utxo.assetId, input.assetId)) fail("asset IDs in the input don't match the utxo");
  requireAssetFx(view, input.assetId, cred.fx);
  if (cred.fx !== FX.secp256k1) fail('cant transfer with this fx');
  if (utxo.output.kind !== 'secpTransfer') fail('wrong utxo type');
  if (utxo.output.amount !== input.amount)
    fail(`utxo amount and input amount are not equal: ${utxo.output.amount} != ${input.amount}`);
  authorise(utxo.output.owners, input.sigIndices, cred, hash, now);
}

function authorise(
  owners: Owners,
  sigIndices: readonly number[],
  cred: Credential,
  hash: Uint8Array,
  now: bigint,
): void {
  try {
    verifySpend(owners, sigIndices, cred.signatures, hash, now);
  } catch (err) {
    if (err instanceof FxError) fail(err.message);
    throw err;
  }
}
