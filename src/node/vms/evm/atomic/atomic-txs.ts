/**
 * The C-chain's atomic transactions: verified as the reference verifies them, kept in an atomic
 * mempool, and carried in blocks as the reference carries them — in the block body's extra data
 * (hashed into the header's `extDataHash`), their gas counted in `extDataGasUsed` and against
 * the block's ACP-176 capacity, their state changes applied after the block's EVM transactions,
 * and their shared-memory effects (consumed imports, new exports) committed in the block's
 * accept transaction.
 *
 * Rules (coreth's): imports spend atomic UTXOs from X or P (secp256k1fx spend rule over
 * sha256(unsigned bytes)) and credit EVM outputs; exports debit EVM inputs (each signed by the
 * input's address, with its current nonce, which they increment) and create UTXOs for X or P.
 * Only AVAX moves. Inputs and outputs are sorted and unique. The fee, burned, is
 * gas × baseFee rounded up to nAVAX, gas = len(unsigned bytes) + 1000 per signature + 10000.
 */
import { Address } from '@ethereumjs/util';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromCb58, toCb58 } from '../../../../shared/encoding.js';
import { sameSubnetFailure, type PeerSubnet } from '../../components/same-subnet.js';
import type { SharedMemory, AtomicUtxoEntry } from '../../components/shared-memory.js';
import { FxError, recoverPublicKey, verifySpend } from '../../components/secp256k1fx.js';
import { inputIdOf } from '../../components/utxo-id.js';
// The same avax.IsSortedTransferableOutputs the P-chain applies (outputs pack alike in every codec).
import { outputsSorted } from '../../platformvm/txs/sort-order.js';
import type { ExtraBlockBuilder, ExtraBlockPart } from '../block/builder.js';
import { encodeAtomicBatch, packUtxo, parseAtomicTx, parseUtxo, type ParsedAtomicTx } from './codec.js';

export const TX_BYTES_GAS = 1n;
export const COST_PER_SIGNATURE = 1000n;
export const FIXED_FEE_GAS = 10_000n;
/** 1 nAVAX = 10^9 wei: the X→C conversion rate. */
export const X2C_RATE = 1_000_000_000n;

export class AtomicTxError extends Error {
  override readonly name = 'AtomicTxError';
}

export interface AtomicContext {
  networkID: number;
  cChainID: string;
  avaxAssetID: string;
  /** Chains atomic txs may import from / export to (X and P), cb58. */
  peers: readonly string[];
  /** Any other chain's subnet (a Subnet-EVM chain), for the words of a refused peer. */
  peerSubnet?: (chainId: string) => PeerSubnet;
  sharedMemory: SharedMemory;
  now(): bigint;
}

export function atomicGas(tx: ParsedAtomicTx): bigint {
  const sigs = tx.credentials.reduce((n, c) => n + c.length, 0);
  return BigInt(tx.unsignedBytes.length) * TX_BYTES_GAS + BigInt(sigs) * COST_PER_SIGNATURE + FIXED_FEE_GAS;
}

/** The fee in nAVAX: gas × baseFee (wei) / 10^9, rounded up. */
export function atomicFee(gas: bigint, baseFeeWei: bigint): bigint {
  return (gas * baseFeeWei + X2C_RATE - 1n) / X2C_RATE;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

interface Effects {
  /** Shared-memory UTXOs an import consumes. */
  consumed: Uint8Array[];
  sourceChain?: string;
  /** UTXOs an export creates. */
  exported: AtomicUtxoEntry[];
  destChain?: string;
  credits: { address: Uint8Array; wei: bigint }[];
  debits: { address: Uint8Array; wei: bigint; nonce: bigint }[];
}

/** coreth's Banff rule, in its words (atomic.ErrImportNonAVAX*Banff, ErrExportNonAVAX*Banff). */
const IMPORT_NON_AVAX_INPUT = 'import input cannot contain non-AVAX in Banff';
const IMPORT_NON_AVAX_OUTPUT = 'import output cannot contain non-AVAX in Banff';
const EXPORT_NON_AVAX_INPUT = 'export input cannot contain non-AVAX in Banff';
const EXPORT_NON_AVAX_OUTPUT = 'export output cannot contain non-AVAX in Banff';
/** The P-chain's id (constants.PlatformChainID): all zeros. */
const PLATFORM_CHAIN_ID = toCb58(new Uint8Array(32));

function sortedUnique(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] >= keys[i]) return false;
  return true;
}

/**
 * coreth's Verify runs `verify.SameSubnet` on the peer chain and answers any failure with
 * `tx has wrong chain ID`; why it failed follows in parentheses.
 */
function requireAtomicPeer(ctx: AtomicContext, peer: string): void {
  const failure = sameSubnetFailure(ctx.cChainID, peer, ctx.peers, (id) => ctx.peerSubnet?.(id));
  if (failure) throw new AtomicTxError(`tx has wrong chain ID (${failure})`);
}

/** Everything that does not depend on state: shapes, ids, sorting, amounts, fee. */
export function verifySyntax(ctx: AtomicContext, tx: ParsedAtomicTx, baseFeeWei: bigint): Effects {
  const u = tx.unsigned;
  // coreth's Verify words (atomic.ErrWrongNetworkID, ErrWrongChainID), then what was expected.
  if (u.networkId.value() !== ctx.networkID)
    throw new AtomicTxError(
      `tx was issued with a different network ID (expected ${ctx.networkID}, got ${u.networkId.value()})`,
    );
  if (toCb58(u.blockchainId.toBytes()) !== ctx.cChainID)
    throw new AtomicTxError(
      `tx has wrong chain ID (expected ${ctx.cChainID}, got ${toCb58(u.blockchainId.toBytes())})`,
    );
  const avax = hex(fromCb58(ctx.avaxAssetID));
  let inAvax = 0n;
  let outAvax = 0n;
  const effects: Effects = { consumed: [], exported: [], credits: [], debits: [] };
  if (tx.kind === 'import') {
    const source = toCb58(u.sourceChain.toBytes());
    requireAtomicPeer(ctx, source);
    effects.sourceChain = source;
    if (u.importedInputs.length === 0) throw new AtomicTxError('tx has no imported inputs');
    if (u.Outs.length === 0) throw new AtomicTxError('tx has no EVM outputs');
    const keys = u.importedInputs.map((i: any) =>
      hex(inputIdOf(i.utxoID.txID.toBytes(), i.utxoID.outputIdx.value())),
    );
    const inputOrder = u.importedInputs.map(
      (i: any) => hex(i.utxoID.txID.toBytes()) + i.utxoID.outputIdx.value().toString(16).padStart(8, '0'),
    );
    // coreth's UnsignedImportTx.Verify order: each EVM output, then each imported input (its
    // own checks, then the Banff AVAX-only rule), then the sorting of inputs and of outputs.
    for (const o of u.Outs) {
      const amount = o.amount.value() as bigint;
      if (amount === 0n) throw new AtomicTxError('output has no value');
      if (hex(o.assetId.toBytes()) !== avax) throw new AtomicTxError(IMPORT_NON_AVAX_OUTPUT);
      outAvax += amount;
      effects.credits.push({ address: o.address.toBytes(), wei: amount * X2C_RATE });
    }
    for (const i of u.importedInputs) {
      const amount = i.input.amount() as bigint;
      if (amount === 0n) throw new AtomicTxError('input has no value');
      if (hex(i.assetId.toBytes()) !== avax) throw new AtomicTxError(IMPORT_NON_AVAX_INPUT);
      inAvax += amount;
    }
    if (!sortedUnique(inputOrder)) throw new AtomicTxError('inputs not sorted and unique');
    effects.consumed = keys.map((k: string) => Uint8Array.from(Buffer.from(k, 'hex')));
    const outKeys = u.Outs.map((o: any) => hex(o.address.toBytes()) + hex(o.assetId.toBytes()));
    if (!sortedUnique(outKeys)) throw new AtomicTxError('outputs not sorted and unique');
  } else {
    const dest = toCb58(u.destinationChain.toBytes());
    requireAtomicPeer(ctx, dest);
    effects.destChain = dest;
    if (u.ins.length === 0) throw new AtomicTxError('tx has no EVM inputs');
    if (u.exportedOutputs.length === 0) throw new AtomicTxError('tx has no exported outputs');
    // coreth's UnsignedExportTx.Verify order: each EVM input, each exported output, then the
    // outputs' order (avax.IsSortedTransferableOutputs) and the inputs' (sorted and unique).
    for (const i of u.ins) {
      const amount = i.amount.value() as bigint;
      if (amount === 0n) throw new AtomicTxError('input has no value');
      if (hex(i.assetId.toBytes()) !== avax) throw new AtomicTxError(EXPORT_NON_AVAX_INPUT);
      inAvax += amount;
      effects.debits.push({ address: i.address.toBytes(), wei: amount * X2C_RATE, nonce: i.nonce.value() });
    }
    u.exportedOutputs.forEach((o: any, index: number) => {
      const out = o.output;
      const amount = out.amount() as bigint;
      if (amount === 0n) throw new AtomicTxError('output has no value');
      if (hex(o.assetId.toBytes()) !== avax)
        // coreth refuses another asset bound for the P-chain as a wrong peer before the Banff rule.
        throw new AtomicTxError(
          dest === PLATFORM_CHAIN_ID ? 'tx has wrong chain ID' : EXPORT_NON_AVAX_OUTPUT,
        );
      const owners = out.outputOwners;
      const addrs: Uint8Array[] = owners.addrs.map((a: any) => a.toBytes());
      if (owners.threshold.value() > addrs.length || (owners.threshold.value() === 0 && addrs.length > 0))
        throw new AtomicTxError('output has an invalid threshold');
      if (!sortedUnique(addrs.map(hex))) throw new AtomicTxError('output addresses not sorted and unique');
      outAvax += amount;
      effects.exported.push({
        inputId: inputIdOf(tx.id, index),
        bytes: packUtxo(tx.id, index, o.assetId.toBytes(), out),
        addresses: addrs,
      });
    });
    if (!outputsSorted(u.exportedOutputs)) throw new AtomicTxError('tx outputs not sorted');
    const inKeys = u.ins.map((i: any) => hex(i.address.toBytes()) + hex(i.assetId.toBytes()));
    if (!sortedUnique(inKeys)) throw new AtomicTxError('inputs not sorted and unique');
  }
  const fee = atomicFee(atomicGas(tx), baseFeeWei);
  // coreth's avax.FlowChecker names no amounts; its semantic verifier wraps it per tx kind.
  if (inAvax < outAvax + fee)
    throw new AtomicTxError(`${tx.kind} tx flow check failed due to: insufficient funds`);
  // coreth's semantic verifier counts credentials after Verify and the flow check, in its words.
  const inputs = tx.kind === 'import' ? u.importedInputs.length : u.ins.length;
  const creds = tx.credentials.length;
  if (creds !== inputs)
    throw new AtomicTxError(
      tx.kind === 'import'
        ? `incorrect number of credentials: (${inputs} vs. ${creds})`
        : `export tx contained incorrect number of credentials want ${inputs} got ${creds}`,
    );
  return effects;
}

/** Signatures, UTXO existence, nonces and balances against `state` and shared memory. */
export async function verifySemantics(
  ctx: AtomicContext,
  tx: ParsedAtomicTx,
  effects: Effects,
  state: MerkleStateManager,
): Promise<void> {
  const u = tx.unsigned;
  const hash = sha256(tx.unsignedBytes);
  if (tx.kind === 'import') {
    for (let i = 0; i < u.importedInputs.length; i++) {
      const input = u.importedInputs[i];
      const label = `${toCb58(input.utxoID.txID.toBytes())}:${input.utxoID.outputIdx.value()}`;
      const bytes = ctx.sharedMemory.get(effects.sourceChain!, ctx.cChainID, effects.consumed[i]);
      // coreth reads them all from shared memory at once and fails with the database's
      // `not found`; which UTXO it was follows in parentheses.
      if (!bytes)
        throw new AtomicTxError(
          `failed to fetch import UTXOs from ${effects.sourceChain} due to: not found (atomic UTXO ${label} was never exported or is already spent)`,
        );
      const utxo = parseUtxo(bytes) as any;
      // coreth's semanticVerifier.ImportTx: the asset, then the fx's VerifyTransfer (the amounts,
      // then the credential), its refusals under `import tx transfer failed verification: `.
      if (hex(utxo.assetId.toBytes()) !== hex(input.assetId.toBytes()))
        throw new AtomicTxError("asset IDs in the input don't match the utxo");
      const out = utxo.output;
      if (out.amount() !== input.input.amount())
        throw new AtomicTxError(
          `import tx transfer failed verification: utxo amount and input amount are not equal: ${out.amount()} != ${input.input.amount()}`,
        );
      try {
        verifySpend(
          { addresses: out.getOwners(), threshold: out.getThreshold(), locktime: out.getLocktime() },
          input.input.sigIndicies(),
          tx.credentials[i],
          hash,
          ctx.now(),
        );
      } catch (err) {
        throw new AtomicTxError(`import tx transfer failed verification: ${(err as Error).message}`);
      }
    }
  } else {
    for (let i = 0; i < effects.debits.length; i++) {
      const d = effects.debits[i];
      const sigs = tx.credentials[i];
      // coreth's semanticVerifier.ExportTx: one signature per input, by the input's address; then
      // EVMStateTransfer: each input's balance, then its nonce.
      if (sigs.length !== 1)
        throw new AtomicTxError(
          `incorrect number of signatures want 1 signature for EVM Input Credential, but got ${sigs.length}`,
        );
      // SecpCache.RecoverPublicKey's error, returned bare.
      let pub: Uint8Array;
      try {
        pub = recoverPublicKey(hash, sigs[0], false);
      } catch (err) {
        if (err instanceof FxError) throw new AtomicTxError(err.message);
        throw err;
      }
      const signer = keccak_256(pub.subarray(1)).subarray(12);
      if (hex(signer) !== hex(d.address)) throw new AtomicTxError("signature doesn't match public key");
    }
    // EVMStateTransfer's words are bare; inputs of one address draw on its balance in turn.
    const spent = new Map<string, bigint>();
    for (const d of effects.debits) {
      const acct = (await state.getAccount(new Address(d.address))) ?? new Account();
      const already = spent.get(hex(d.address)) ?? 0n;
      if (acct.balance - already < d.wei) throw new AtomicTxError('insufficient funds');
      spent.set(hex(d.address), already + d.wei);
      if (acct.nonce !== d.nonce) throw new AtomicTxError('invalid nonce');
    }
  }
}

async function applyEffects(effects: Effects, state: MerkleStateManager): Promise<void> {
  for (const c of effects.credits) {
    const a = new Address(c.address);
    const acct = (await state.getAccount(a)) ?? new Account();
    acct.balance += c.wei;
    await state.putAccount(a, acct);
  }
  for (const d of effects.debits) {
    const a = new Address(d.address);
    const acct = (await state.getAccount(a)) ?? new Account();
    acct.balance -= d.wei;
    acct.nonce = d.nonce + 1n;
    await state.putAccount(a, acct);
  }
}

interface Pending {
  tx: ParsedAtomicTx;
  effects: Effects;
}

export type AtomicStatus =
  { status: 'Processing' } | { status: 'Dropped'; reason: string } | { status: 'Unknown' };

/** How many dropped txs are remembered: coreth's mempool keeps its last 50 discarded txs. */
export const MAX_DROPPED_TXS = 50;

/** The atomic mempool and the block part that carries atomic txs. */
export class AtomicMempool implements ExtraBlockBuilder {
  private readonly pending = new Map<string, Pending>();
  /** Txs dropped at block building with why, oldest first (a Map keeps insertion order). */
  private readonly dropped = new Map<string, { tx: ParsedAtomicTx; reason: string }>();

  constructor(
    private readonly ctx: AtomicContext,
    private readonly deps: {
      latestState(): MerkleStateManager;
      baseFee(): bigint;
      requestBlock(): void;
    },
  ) {}

  hasWork(): boolean {
    return this.pending.size > 0;
  }

  status(id: Uint8Array): AtomicStatus {
    const key = hex(id);
    if (this.pending.has(key)) return { status: 'Processing' };
    const dropped = this.dropped.get(key);
    if (dropped) return { status: 'Dropped', reason: dropped.reason };
    return { status: 'Unknown' };
  }

  /** A tx the mempool knows: pending, or dropped and still remembered (coreth serves both). */
  getKnown(id: Uint8Array): ParsedAtomicTx | undefined {
    const key = hex(id);
    return this.pending.get(key)?.tx ?? this.dropped.get(key)?.tx;
  }

  /** Verifies and pools a signed atomic tx; returns its id. */
  async issue(bytes: Uint8Array): Promise<Uint8Array> {
    const tx = parseAtomicTx(bytes);
    const key = hex(tx.id);
    // coreth's avax.issueTx ignores "already known": issuing a tx the mempool holds answers its id
    // again (wallets that sign and issue, then send the same tx, rely on it). An accepted tx is not
    // known there any more; verification refuses it as its UTXOs or nonces are spent.
    if (this.pending.has(key)) return tx.id;
    const effects = verifySyntax(this.ctx, tx, this.deps.baseFee());
    for (const p of this.pending.values()) {
      for (const c of effects.consumed)
        if (p.effects.consumed.some((x) => hex(x) === hex(c)))
          throw new AtomicTxError(
            `conflicting atomic inputs: UTXO already spent by pending tx ${toCb58(p.tx.id)}`,
          );
      for (const d of effects.debits)
        if (p.effects.debits.some((x) => hex(x.address) === hex(d.address) && x.nonce === d.nonce))
          throw new AtomicTxError(
            `conflicting export: nonce ${d.nonce} of 0x${hex(d.address)} is used by pending tx ${toCb58(p.tx.id)}`,
          );
    }
    await verifySemantics(this.ctx, tx, effects, this.deps.latestState());
    this.dropped.delete(key);
    this.pending.set(key, { tx, effects });
    this.deps.requestBlock();
    return tx.id;
  }

  async build(
    state: MerkleStateManager,
    block: { baseFee: bigint; capacityLeft: bigint },
  ): Promise<ExtraBlockPart | undefined> {
    const chosen: Pending[] = [];
    let gas = 0n;
    const spent = new Set<string>();
    for (const [key, p] of this.pending) {
      const g = atomicGas(p.tx);
      if (gas + g > block.capacityLeft) break;
      try {
        const effects = verifySyntax(this.ctx, p.tx, block.baseFee);
        if (effects.consumed.some((c) => spent.has(hex(c))))
          throw new AtomicTxError('conflicting atomic inputs in block');
        await verifySemantics(this.ctx, p.tx, effects, state);
        await applyEffects(effects, state);
        for (const c of effects.consumed) spent.add(hex(c));
        chosen.push({ tx: p.tx, effects });
        gas += g;
      } catch (err) {
        this.pending.delete(key);
        this.dropped.set(key, { tx: p.tx, reason: (err as Error).message });
        if (this.dropped.size > MAX_DROPPED_TXS) this.dropped.delete(this.dropped.keys().next().value!);
      }
    }
    if (chosen.length === 0) return undefined;
    const { sharedMemory, cChainID } = this.ctx;
    return {
      extData: encodeAtomicBatch(chosen.map((c) => c.tx.bytes)),
      gasUsed: gas,
      atomicTxs: chosen.map((c) => ({ id: c.tx.id, bytes: c.tx.bytes })),
      commit: () => {
        for (const { effects } of chosen) {
          if (effects.consumed.length) sharedMemory.remove(effects.sourceChain!, cChainID, effects.consumed);
          if (effects.exported.length) sharedMemory.put(cChainID, effects.destChain!, effects.exported);
        }
      },
      accepted: () => {
        for (const c of chosen) this.pending.delete(hex(c.tx.id));
      },
    };
  }
}
