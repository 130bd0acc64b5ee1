/**
 * The P-chain engine: a mempool of verified transactions, a block builder that packs them into
 * Banff standard blocks as soon as they arrive, and the node-issued blocks of every staker change
 * the devnet clock has passed (a staking period's end: a Banff proposal block with a
 * RewardValidatorTx, then its commit block; an L1 validator's balance running out: an empty
 * standard block), each at the very time of its change. Each block is accepted in one database
 * transaction together with its index entry and shared-memory changes.
 */
import { Utxo, pvmSerial, TransferOutput, BigIntPr, type OutputOwners } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { toCb58, fromCb58 } from '../../../shared/encoding.js';
import type { ChainContext } from '../../chains/chain.js';
import { epochAt, type ProposerWrap } from '../../index/proposer-block.js';
import { blockId, encodeBlock, rewardValidatorTxBytes, type BlockKind } from './block/block.js';
import { makeUtxo, parseSignedTx, type ParsedTx } from './codec.js';
import type { PlatformConfig } from './config.js';
import {
  advanceGasState,
  advanceValidatorFee,
  consumeGas,
  secondsUntilAccrued,
  gasPrice,
  type GasState,
} from './fees/dynamic-fee.js';
import { splitReward } from './reward/calculator.js';
import { genesisChainTxBytes, writeGenesis, type GenesisChain } from './state/genesis.js';
import { PlatformState, type ChainRecord, type StakerRecord, type StoredTx } from './state/platform-state.js';
import { executeTx, StagedTxError } from './txs/executor.js';
import { PRIMARY_NETWORK, type ChainIds, type ExecEnv, type Executed } from './txs/env.js';
import { l1Weight } from './txs/l1-txs.js';
import { TxVerifyError } from './txs/utxo-kinds.js';
import { PlatformMempool, type Waiting } from './mempool.js';

export type ChainCreatedListener = (chain: ChainRecord) => void;

/** The reference's words for a tx refused at issue (the service's and the gossip mempool's wraps). */
const refused = (reason: string) => new TxVerifyError(`couldn't issue tx: ${reason}`);

export class PlatformVM {
  readonly state: PlatformState;
  readonly ids: ChainIds;
  private readonly mempool = new PlatformMempool();
  private readonly chainListeners: ChainCreatedListener[] = [];
  private buildScheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** The genesis chains' CreateChainTxs by cb58 chain id, built on first use. */
  private genesisChainTxs: Map<string, StoredTx> | undefined;

  /**
   * `genesisChains` lists the chains the P-chain genesis creates (the X- and C-chain), with the
   * genesis their VMs start from; their CreateChainTxs are served by `tx`.
   */
  constructor(
    private readonly ctx: ChainContext,
    readonly config: PlatformConfig,
    private readonly genesisChains: () => readonly GenesisChain[] = () => [],
  ) {
    const n = ctx.config.network;
    this.ids = {
      p: fromCb58(n.pChainID),
      x: fromCb58(n.xChainID),
      c: fromCb58(n.cChainID),
      avax: fromCb58(n.avaxAssetID),
    };
    this.state = new PlatformState(ctx.db, n.pChainID);
    // The genesis block is the last accepted block from the start, never accepted through
    // consensus, so (as on the reference, whose indexer only hears of consensus acceptances) it is
    // not indexed: `P/block` position 0 is height 1. Data dirs indexed before this rule keep the
    // genesis at position 0.
    if (!this.state.lastBlock())
      ctx.db.transaction(() => writeGenesis(ctx.db, this.state, ctx.genesis, config, this.ids, Date.now()));
  }

  /**
   * Starts the timer that builds the blocks of staker changes (staking periods ending, L1
   * balances running out) the clock passes while nothing else happens. It may wake late: the
   * blocks carry the changes' own times.
   */
  start(): void {
    this.timer = setInterval(() => {
      const now = this.ctx.clock.nowSeconds();
      if (this.nextStakerChangeTime(now + 1) <= now) this.buildNow();
    }, 1000);
    this.timer.unref();
    this.buildNow();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    for (const w of this.mempool.all()) this.mempool.settle(w, new Error('node is shutting down'));
  }

  /** Subscribes to blockchains created by accepted CreateChainTxs (after their block commits). */
  onChainCreated(listener: ChainCreatedListener): void {
    this.chainListeners.push(listener);
  }

  height(): bigint {
    return this.state.lastBlock()!.height;
  }

  /**
   * The time a tx issued now is verified at: the clock's (never before the last block). The
   * block that takes it comes after the blocks of the staker changes up to then, at this time.
   */
  nextBlockTime(last = this.state.lastBlock()!): number {
    return Math.max(last.time, this.ctx.clock.nowSeconds());
  }

  currentGasState(at = this.nextBlockTime()): GasState {
    return advanceGasState(this.config.gasFee, this.state.gasState()!, at);
  }

  currentGasPrice(): bigint {
    return gasPrice(this.config.gasFee, this.currentGasState());
  }

  validatorFeeAccrued(at = this.nextBlockTime()): bigint {
    return advanceValidatorFee(
      this.config.validatorFee,
      this.state.validatorFeeState()!,
      this.state.activeL1ValidatorCount(),
      at,
    ).accrued;
  }

  /**
   * An accepted tx, or a genesis chain's CreateChainTx. The reference stores the latter as
   * committed txs at genesis (`syncGenesis`), under their ids; the devnet keeps the network's
   * well-known chain ids, which are not the hashes of these bytes, so they are built from the
   * node's genesis when first asked for (data dirs of any age serve them) and kept under the
   * chain ids.
   */
  tx(id: Uint8Array): StoredTx | undefined {
    const stored = this.state.getTx(id);
    if (stored) return stored;
    this.genesisChainTxs ??= new Map(
      this.genesisChains().map((chain) => [
        toCb58(chain.id),
        {
          id: chain.id,
          bytes: genesisChainTxBytes(this.ctx.config.network.networkID, chain),
          height: 0n,
          status: 'Committed',
          type: 'CreateChainTx',
        },
      ]),
    );
    return this.genesisChainTxs.get(toCb58(id));
  }

  txStatus(id: Uint8Array): { status: string; reason?: string } {
    const stored = this.tx(id);
    if (stored) return { status: stored.status };
    if (this.mempool.has(id)) return { status: 'Processing' };
    const reason = this.mempool.dropReason(id);
    if (reason !== undefined) return { status: 'Dropped', reason };
    return { status: 'Unknown' };
  }

  /**
   * Verifies a signed tx against the current state and, when valid, queues it for the next block;
   * resolves once that block is accepted. As in the reference: a tx already waiting is not an
   * error (its issuers wait together), a tx that fails verification, conflicts with a waiting one
   * or would take the mempool past its gas capacity is refused and remembered as dropped with its
   * reason, and a dropped tx issued again gets that reason back.
   */
  issue(bytes: Uint8Array): Promise<Uint8Array> {
    const tx = parseSignedTx(bytes);
    // No check for an accepted tx: the reference's gossip mempool verifies it as any other, and
    // it fails on the first UTXO it spent (every tx pays a fee, so spends something); the
    // reason is kept as a dropped tx's, while getTxStatus still answers Committed.
    const waiting = this.mempool.get(tx.id);
    if (waiting) return waiting;
    const reason = this.mempool.dropReason(tx.id);
    if (reason !== undefined) throw refused(reason);
    const last = this.state.lastBlock()!;
    const time = this.nextBlockTime(last);
    const gas = this.currentGasState(time);
    let executed: Executed;
    try {
      // As the reference's VerifyTx: a tx past the capacity the chain will hold at the next
      // block (the state's, advanced to that block's time; the mempool's waiting txs not
      // counted) is refused before it runs, not kept waiting for the capacity to refill.
      executed = executeTx(
        tx,
        this.env(time, last.height + 1n, gasPrice(this.config.gasFee, gas)),
        gas.capacity,
      );
    } catch (err) {
      if (!(err instanceof TxVerifyError)) throw err;
      this.mempool.drop(tx.id, err.message);
      throw refused(`failed verification: ${err.message}`);
    }
    const unfit = this.mempool.conflicts(tx)
      ? 'tx conflicts with other tx'
      : this.mempool.full(executed.gas)
        ? 'not enough gas'
        : undefined;
    if (unfit) {
      this.mempool.drop(tx.id, unfit);
      throw refused(unfit);
    }
    const done = this.mempool.add(tx, executed.gas);
    this.scheduleBuild();
    return done;
  }

  /**
   * Moves the devnet clock forward, lets every staking period that ended finish, and then accepts
   * an empty standard block carrying the new time (unless a block already carries it), so the
   * chain time (`platform.getTimestamp`) follows the clock as it would on a network where blocks
   * keep coming. The reference refuses a standard block that changes nothing; the devnet issues
   * one only here, where the advance stands in for the time that passes between a real
   * network's blocks.
   */
  advanceTime(seconds: number): number {
    const now = this.ctx.clock.advance(seconds);
    this.buildNow(true);
    return now;
  }

  private env(chainTime: number, height: bigint, price: bigint): ExecEnv {
    return {
      state: this.state,
      config: this.config,
      network: this.ctx.config.network,
      ids: this.ids,
      sharedMemory: this.ctx.sharedMemory,
      chainTime,
      height,
      gasPrice: price,
      validatorFeeAccrued: this.validatorFeeAccrued(chainTime),
    };
  }

  private scheduleBuild(): void {
    if (this.buildScheduled) return;
    this.buildScheduled = true;
    const delay = this.ctx.config.blockTimeMs;
    const run = () => {
      this.buildScheduled = false;
      this.buildNow();
    };
    if (delay > 0) setTimeout(run, delay).unref();
    else setImmediate(run);
  }

  /**
   * Builds and accepts every block that is due now: the blocks of the staker changes the clock
   * has passed first, each at its change's time, then the mempool's txs; with `moveTime`, last
   * an empty block bringing the chain time up to the clock if none did.
   */
  buildNow(moveTime = false): void {
    const created: ChainRecord[] = [];
    const settled: { w: Waiting; err?: Error }[] = [];
    const batch = this.mempool.all();
    let short: bigint | undefined;
    // One instant for the whole build, so no change falls between the catch-up and the txs.
    const now = this.ctx.clock.nowSeconds();
    try {
      this.ctx.db.transaction(() => {
        this.buildStakerChanges(now);
        if (batch.length > 0) short = this.buildStandardBlock(batch, now, created, settled);
        if (moveTime && this.state.lastBlock()!.time < now) this.buildTimeBlock(now);
        // The clock's high-water mark commits with the block, so block times never repeat.
        this.ctx.clock.persist();
      });
    } catch (err) {
      this.ctx.index('P/block').reload();
      this.ctx.logger.error({ err }, 'P-chain block build failed');
      for (const w of batch) this.mempool.settle(w, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    for (const s of settled) this.mempool.settle(s.w, s.err);
    if (short !== undefined) this.retryWhenRefilled(short);
    for (const chain of created) {
      for (const listener of this.chainListeners) {
        try {
          listener(chain);
        } catch (err) {
          this.ctx.logger.error({ err, chain: toCb58(chain.id) }, 'onChainCreated listener failed');
        }
      }
    }
  }

  /**
   * Packs the waiting txs, in arrival order, into a standard block. As the reference's builder
   * does, packing stops at the first tx the block's gas capacity has no room for: it and the txs
   * after it stay in the mempool, and the gas it lacks is returned.
   */
  private buildStandardBlock(
    batch: Waiting[],
    now: number,
    created: ChainRecord[],
    settled: { w: Waiting; err?: Error }[],
  ): bigint | undefined {
    const last = this.state.lastBlock()!;
    const time = Math.max(last.time, now);
    const height = last.height + 1n;
    this.advanceFees(time, height);
    let gas = this.state.gasState()!;
    const price = gasPrice(this.config.gasFee, gas);
    const env = this.env(time, height, price);
    const accepted: { tx: ParsedTx; executed: Executed }[] = [];
    let short: bigint | undefined;
    for (const w of batch) {
      let executed: Executed;
      try {
        executed = executeTx(w.tx, env);
      } catch (err) {
        if (!(err instanceof TxVerifyError)) throw err;
        // The reference's builder marks the tx dropped with what StandardTx (or the Warp check)
        // returned, without VerifyTx's stage: `standard tx <txID> failed execution: <why>`.
        const reason = err instanceof StagedTxError ? err.reason : err.message;
        this.mempool.drop(w.tx.id, reason);
        // Its issuer, still waiting here (the reference's had its id back), hears what issuing
        // the dropped tx again answers.
        settled.push({ w, err: refused(reason) });
        continue;
      }
      if (executed.gas > gas.capacity) {
        short = executed.gas - gas.capacity;
        break;
      }
      gas = consumeGas(gas, executed.gas);
      executed.apply();
      accepted.push({ tx: w.tx, executed });
      settled.push({ w });
      if (executed.createdChain) created.push(executed.createdChain);
    }
    this.state.setGasState(gas);
    if (accepted.length > 0)
      this.acceptBlock(
        'standard',
        time,
        accepted.map((a) => a.tx.bytes),
        (h) => {
          for (const a of accepted)
            this.state.putTx({
              id: a.tx.id,
              bytes: a.tx.bytes,
              height: h,
              status: 'Committed',
              type: a.executed.type,
            });
        },
      );
    return short;
  }

  /** Builds again once the gas capacity has refilled by `gas` (at `maxPerSecond`). */
  private retryWhenRefilled(gas: bigint): void {
    const perSecond = this.config.gasFee.maxPerSecond;
    const seconds = Number((gas + perSecond - 1n) / perSecond);
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => this.buildNow(), Math.max(1, seconds) * 1000);
    this.retry.unref();
  }

  /**
   * The next time the validator set changes by itself, or `bound` if none comes sooner: the
   * earliest end of a staking period, or the second an active L1 validator's balance runs out at
   * the fee the current set pays. As the reference's `GetNextStakerChangeTime`, no block may
   * carry a later time before that change has its block.
   */
  private nextStakerChangeTime(bound: number): number {
    const end = this.state.nextStakerEnd();
    let next = end === undefined ? bound : Math.min(end, bound);
    // The first balance to run out, at the fee the whole active set pays: two indexed reads,
    // not every active validator (this runs once a second and at least once per build).
    const firstDry = this.state.firstL1FeeEnd();
    if (firstDry === undefined) return next;
    const fee = this.state.validatorFeeState()!;
    const seconds = secondsUntilAccrued(
      this.config.validatorFee,
      fee,
      this.state.activeL1ValidatorCount(),
      firstDry,
      Math.max(0, next - fee.timestamp),
    );
    next = Math.min(next, fee.timestamp + seconds);
    return next;
  }

  /** An empty Banff standard block that only moves time to `now` (after `advanceTime`). */
  private buildTimeBlock(now: number): void {
    const last = this.state.lastBlock()!;
    const time = Math.max(last.time, now);
    this.advanceFees(time, last.height + 1n);
    this.acceptBlock('standard', time, [], () => {});
  }

  /**
   * Moves the gas and L1-validator fee states to `time`, deactivating L1 validators that ran dry;
   * answers how many it deactivated.
   */
  private advanceFees(time: number, height: bigint): number {
    this.state.setGasState(this.currentGasState(time));
    const fee = advanceValidatorFee(
      this.config.validatorFee,
      this.state.validatorFeeState()!,
      this.state.activeL1ValidatorCount(),
      time,
    );
    this.state.setValidatorFeeState(fee);
    const exhausted = this.state.exhaustedL1Validators(fee.accrued);
    for (const v of exhausted) {
      this.state.validators.moveL1(height, v.subnet, l1Weight(v), { ...l1Weight(v), active: false });
      this.state.putL1Validator({ ...v, endAccumulatedFee: 0n, status: 'inactive' });
    }
    return exhausted.length;
  }

  private acceptBlock(
    kind: BlockKind,
    time: number,
    txs: Uint8Array[],
    writeTxs: (height: bigint) => void,
  ): void {
    const last = this.state.lastBlock()!;
    const height = last.height + 1n;
    const bytes = encodeBlock({ kind, parentId: last.id, height, time: BigInt(time), txs });
    const id = blockId(bytes);
    const acceptedMs = Date.now();
    writeTxs(height);
    this.state.putBlock({ height, id, bytes, time, kind, acceptedMs });
    // Built on the tip before this block; a commit or abort is an option of its proposal.
    const wrap: ProposerWrap =
      kind === 'commit' || kind === 'abort'
        ? { kind: 'option' }
        : {
            kind: 'block',
            timestamp: BigInt(time),
            pChainHeight: last.height,
            epoch: epochAt(this.ctx.genesis.startTime, time, (t) => this.state.heightAtTime(t)),
          };
    this.ctx.index('P/block').appendBlock(toCb58(id), toCb58(last.id), bytes, acceptedMs, wrap);
  }

  /**
   * Builds the blocks of every staker change up to `now`, one change time after the other, as
   * the reference's builder does by capping each block's time at the next staker change
   * (`NextBlockTime`): so stakers leave at their end time, rewards come in end-time order and L1
   * validators go inactive the second their balance runs out, however far the clock jumped. At
   * each time, as the reference's `AdvanceTimeTo`, the fees advance (deactivating L1 validators
   * that ran dry) and permissioned subnet validators whose period ended leave; then the first
   * primary-network staker ending then (the reference's staker order: end time, delegators
   * before validators) gets a proposal block with its RewardValidatorTx and the commit, or, when
   * none is due, an empty standard block carries the changes.
   */
  private buildStakerChanges(now: number): void {
    for (;;) {
      const last = this.state.lastBlock()!;
      const change = this.nextStakerChangeTime(Math.max(last.time, now) + 1);
      if (change > now) return;
      const time = Math.max(last.time, change);
      const height = last.height + 1n;
      let changed = this.advanceFees(time, height) > 0;
      let staker = this.state.nextEndingStaker(time);
      for (; staker?.kind === 'subnet_validator'; staker = this.state.nextEndingStaker(time)) {
        this.state.markStakerRemoved(staker.txId, height);
        this.state.validators.change(height, staker.subnet, staker.nodeId, -staker.weight);
        changed = true;
      }
      if (staker) {
        this.rewardStaker(staker, time, height);
        continue;
      }
      // Nothing to change is not a block (the reference refuses it); stop rather than loop.
      if (!changed) return;
      this.acceptBlock('standard', time, [], () => {});
    }
  }

  /** The proposal block of `staker`'s RewardValidatorTx at `time`, then its commit. */
  private rewardStaker(staker: StakerRecord, time: number, height: bigint): void {
    const rewardTx = rewardValidatorTxBytes(staker.txId);
    const rewardTxId = sha256(rewardTx);
    this.payStaker(staker, height);
    this.acceptBlock('proposal', time, [rewardTx], () => {});
    this.acceptBlock('commit', time, [], (h) =>
      this.state.putTx({
        id: rewardTxId,
        bytes: rewardTx,
        height: h,
        status: 'Committed',
        type: 'RewardValidatorTx',
      }),
    );
  }

  /**
   * Ends a staking period: the stake comes back as UTXOs of the staking tx (after its own
   * outputs), and rewards become reward UTXOs: the validator's own reward plus the delegation
   * fees it accrued; a delegator's reward minus the validator's share.
   */
  private payStaker(staker: StakerRecord, height: bigint): void {
    this.state.markStakerRemoved(staker.txId, height);
    this.state.validators.change(height, staker.subnet, staker.nodeId, -staker.weight);
    const stored = this.state.getTx(staker.txId);
    if (!stored) throw new Error(`staker tx ${toCb58(staker.txId)} is missing`);
    const u = parseSignedTx(stored.bytes).unsigned as
      pvmSerial.AddPermissionlessValidatorTx | pvmSerial.AddPermissionlessDelegatorTx;
    let index = u.baseTx.outputs.length;
    for (const out of u.stake) this.state.addUtxo(makeUtxo(staker.txId, index++, this.ids.avax, out.output));
    const reward = (amount: bigint, owner: OutputOwners): void => {
      if (amount <= 0n) return;
      const utxo: Utxo = makeUtxo(
        staker.txId,
        index++,
        this.ids.avax,
        new TransferOutput(new BigIntPr(amount), owner),
      );
      this.state.addUtxo(utxo);
      this.state.addRewardUtxo(staker.txId, utxo);
    };
    if (staker.kind === 'validator') {
      const v = u as pvmSerial.AddPermissionlessValidatorTx;
      reward(staker.potentialReward, v.getValidatorRewardsOwner());
      reward(staker.accruedDelegateeReward, v.getDelegatorRewardsOwner());
      return;
    }
    const d = u as pvmSerial.AddPermissionlessDelegatorTx;
    const validator = staker.validatorTx ? this.state.staker(staker.validatorTx) : undefined;
    const [validatorShare, delegatorShare] = splitReward(
      staker.potentialReward,
      validator?.delegationFee ?? 0,
    );
    reward(delegatorShare, d.getDelegatorRewardsOwner());
    if (validator && validatorShare > 0n) {
      if (validator.status === 'current')
        this.state.setAccruedDelegateeReward(
          validator.txId,
          validator.accruedDelegateeReward + validatorShare,
        );
    }
  }

  /** The primary network id, for callers that need it as bytes. */
  static readonly primaryNetwork = PRIMARY_NETWORK;
}
