/**
 * A Subnet-EVM chain: the shared EVM chain with Subnet-EVM's rules on top — the fee config
 * (genesis, or the FeeManager's once set) for gas limit and base fee, fees paid in full to the
 * block's coinbase (the RewardManager's address, or the blackhole), precompiles configured when
 * they activate and wiped when they are disabled, the transaction allow list checked at
 * admission and the deployer allow list at every contract creation (against tx.origin).
 */
import type { Block } from '@ethereumjs/block';
import { EVMError } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { ChainContext } from '../../../chains/chain.js';
import * as acp176 from '../block/acp176.js';
import type { EvmChainConfig } from '../chain-config.js';
import { EvmChain, type AcceptedBlock } from '../evm-chain.js';
import { EvmTxError } from '../vm-errors.js';
import { isEnabled, roleOf } from '../precompiles/allow-list.js';
import { goAddress, readSlot, writeSlot } from '../precompiles/contract.js';
import {
  FEE_CONFIG_CHANGED,
  FEE_MANAGER_ADDRESS,
  feeConfigFromChangedLog,
  feeConfigLastChangedAt,
  storedFeeConfig,
} from '../precompiles/fee-manager.js';
import {
  FEE_RECIPIENTS_ALLOWED,
  REWARD_ADDRESS_CHANGED,
  REWARD_MANAGER_ADDRESS,
  REWARDS_DISABLED,
  rewardSetting,
} from '../precompiles/reward-manager.js';
import {
  BLACKHOLE,
  PRECOMPILE_ADDRESSES,
  type SubnetPrecompileModule,
} from '../precompiles/subnet-module.js';
import { decayWindow, nextBaseFee, type FeeConfig } from './fee-config.js';
import type { SubnetEvmGenesis } from './genesis.js';

const DEPLOYER = createAddressFromString(PRECOMPILE_ADDRESSES.contractDeployerAllowListConfig);
const TX_ALLOW_LIST = createAddressFromString(PRECOMPILE_ADDRESSES.txAllowListConfig);
/** Where this node sends fees when block producers may choose (the reference default etherbase). */
const NODE_FEE_RECIPIENT = createAddressFromString(BLACKHOLE);
/** A slot in each precompile's storage recording which activation configured it. */
const ACTIVATION_MARKER = keccak_256(new TextEncoder().encode('flurry.precompile.activation'));
const INVALID_OPCODE = Uint8Array.of(0xfe);

export class SubnetEvmChain extends EvmChain {
  private feeConfigNow: FeeConfig;
  private coinbaseNow: Address = createAddressFromString(BLACKHOLE);

  constructor(
    ctx: ChainContext,
    config: EvmChainConfig,
    readonly genesisConfig: SubnetEvmGenesis,
  ) {
    super(ctx, config);
    this.feeConfigNow = genesisConfig.feeConfig;
    this.on('block', (b: AcceptedBlock) => this.followSettings(b));
    this.on('vm', (vm: VM) => this.hookEngine(vm));
  }

  get modules(): SubnetPrecompileModule[] {
    return this.config.precompiles as SubnetPrecompileModule[];
  }

  isActive(configKey: string, timestamp: number): boolean {
    return this.precompiles.activeAt(timestamp).some((m) => m.configKey === configKey);
  }

  override async open(): Promise<void> {
    await super.open();
    await this.loadSettings(this.stateAt(), Number(this.latest.header.timestamp));
  }

  /**
   * The precompiles active at genesis are configured in the genesis state, as subnet-evm's
   * `Genesis.toBlock` does (`ApplyPrecompileActivations` at block 0, the genesis timestamp), so a
   * new chain starts at height 0 with block 0 holding their roles, mints and fee/reward config.
   */
  protected override async configureGenesisPrecompiles(state: MerkleStateManager): Promise<void> {
    const timestamp = BigInt(this.config.genesis.timestamp);
    await this.applyActivations(state, timestamp, () => 0n);
  }

  /**
   * Data dirs made before genesis configured the precompiles hold an empty block 1 that did it.
   * One stopped right after writing such a block 0 has not built it yet: build it now, so that
   * admission (the transaction allow list) reads configured roles. Called once the chain's
   * engine hooks (Warp predicates) are registered.
   */
  async configureLegacyGenesis(): Promise<void> {
    if (this.latest.number !== 0n) return;
    const timestamp = this.config.genesis.timestamp;
    const first = this.modules.find((m) => m.activation <= timestamp);
    if (!first) return;
    const marker = await readSlot(
      this.stateAt(0n),
      createAddressFromString(first.address),
      ACTIVATION_MARKER,
    );
    if (marker !== 0n) return;
    let pending = true;
    this.extraBuilder = {
      hasWork: () => pending,
      build: async () => {
        pending = false;
        return { extData: new Uint8Array(), gasUsed: 0n, atomicTxs: [], commit() {}, accepted() {} };
      },
    };
    await this.produce();
    this.extraBuilder = undefined;
  }

  // ---- fees ---------------------------------------------------------------------------------

  /** The fee config in force for blocks after the head. */
  get feeConfig(): FeeConfig {
    return this.feeConfigNow;
  }

  /** The fee config and its last change as of an accepted block. */
  async feeConfigAt(number: bigint): Promise<{ feeConfig: FeeConfig; lastChangedAt: bigint }> {
    const header = this.headerAt(number)?.header;
    if (!header) throw new EvmTxError('header not found');
    if (!this.isActive('feeManagerConfig', Number(header.timestamp)))
      return { feeConfig: this.genesisConfig.feeConfig, lastChangedAt: 0n };
    const state = this.stateAt(number);
    const stored = await storedFeeConfig(state);
    if (stored.gasLimit === 0n) return { feeConfig: this.genesisConfig.feeConfig, lastChangedAt: 0n };
    return { feeConfig: stored, lastChangedAt: await feeConfigLastChangedAt(state) };
  }

  /** Capacity = the gas limit; `excess` carries the gas used in the last ten seconds. */
  override nextFeeState(timestamp: bigint): acp176.FeeState {
    const parent = this.latest.header;
    const window = parent.number === 0n ? 0n : acp176.decodeFeeState(parent.extraData).excess;
    const elapsed = timestamp > parent.timestamp ? timestamp - parent.timestamp : 0n;
    return { capacity: this.feeConfigNow.gasLimit, excess: decayWindow(window, elapsed), targetExcess: 0n };
  }

  protected override baseFeeFor(state: acp176.FeeState, timestamp: bigint): bigint {
    const parent = this.latest.header;
    const elapsed = timestamp > parent.timestamp ? timestamp - parent.timestamp : 0n;
    return nextBaseFee(this.feeConfigNow, parent.baseFeePerGas, state.excess, elapsed);
  }

  override nextBaseFee(): bigint {
    const now = BigInt(this.ctx.clock.nowSeconds());
    return this.baseFeeFor(this.nextFeeState(now), now);
  }

  override maxBlockGas(): bigint {
    return this.feeConfigNow.gasLimit;
  }

  /** Blocks pay their fees to the reward address (or the blackhole). */
  override executionCoinbase(): Address {
    return this.coinbaseNow;
  }

  /** The coinbase blocks pay to now. */
  get coinbase(): Address {
    return this.coinbaseNow;
  }

  // ---- admission ----------------------------------------------------------------------------

  /** While the tx allow list is active, only its enabled accounts (or managers, admins) send. */
  protected override async senderRefusal(
    state: MerkleStateManager,
    timestamp: bigint,
    sender: Address,
  ): Promise<string | undefined> {
    if (!this.isActive('txAllowListConfig', Number(timestamp))) return undefined;
    if (isEnabled(await roleOf(state, TX_ALLOW_LIST, sender))) return undefined;
    return `cannot issue transaction from non-allow listed address: ${goAddress(sender)}`;
  }

  // ---- engine hooks -------------------------------------------------------------------------

  /** Configures or wipes precompiles whose activation state changed, on the state being built. */
  override async vmFor(state: MerkleStateManager, timestamp: bigint): Promise<VM> {
    const vm = await super.vmFor(state, timestamp);
    // A precompile active at genesis whose configuration is still missing here (a data dir's
    // block 0 written before genesis configured them) records block 0, as the reference's does.
    await this.applyActivations(state, timestamp, (module) =>
      this.latest.number === 0n && module.activation <= this.config.genesis.timestamp
        ? 0n
        : this.latest.number + 1n,
    );
    if (state === (this as unknown as { live: MerkleStateManager }).live)
      await this.loadSettings(state, Number(timestamp));
    return vm;
  }

  private async applyActivations(
    state: MerkleStateManager,
    timestamp: bigint,
    blockNumberFor: (module: SubnetPrecompileModule) => bigint,
  ): Promise<void> {
    const active = this.precompiles.activeAt(Number(timestamp)) as SubnetPrecompileModule[];
    const addresses = new Set(this.modules.map((m) => m.address));
    for (const addressHex of addresses) {
      const address = createAddressFromString(addressHex);
      const module = active.find((m) => m.address === addressHex);
      const marker = await readSlot(state, address, ACTIVATION_MARKER);
      const wanted = module ? BigInt(module.activation) + 1n : 0n;
      if (marker === wanted) continue;
      if (marker !== 0n) {
        // Disabled (or replaced by a new activation): the reference wipes the precompile's state.
        await state.deleteAccount(address);
      }
      if (!module) continue;
      await state.putAccount(address, new Account(1n, 0n));
      await state.putCode(address, Uint8Array.of(1));
      await module.configure(state, {
        blockNumber: blockNumberFor(module),
        blockTimestamp: timestamp,
        allowFeeRecipients: this.genesisConfig.allowFeeRecipients,
        feeConfig: this.genesisConfig.feeConfig,
      });
      await writeSlot(state, address, ACTIVATION_MARKER, wanted);
    }
  }

  private hookEngine(vm: VM): void {
    // Contract creation needs an Enabled tx.origin while the deployer allow list is active.
    const evm = vm.evm as unknown as {
      events: { on(e: string, f: (m: any, resolve?: () => void) => void): void };
      _tx?: { origin: Address };
      _block?: Block;
      stateManager: MerkleStateManager;
    };
    // Each message's refusal (or undefined), innermost last: the engine emits afterMessage for
    // every beforeMessage, nested messages in between.
    const refusals: (string | undefined)[] = [];
    vm.events.on('beforeTx', (_tx: unknown, resolve?: () => void) => {
      refusals.length = 0;
      resolve?.();
    });
    evm.events.on('beforeMessage', (msg: any, resolve?: () => void) => {
      const check = async (): Promise<string | undefined> => {
        if (msg.to !== undefined || msg.depth === undefined) return undefined;
        const ts = Number(evm._block?.header.timestamp ?? 0n);
        if (!this.isActive('contractDeployerAllowListConfig', ts)) return undefined;
        const origin = evm._tx?.origin;
        if (!origin || isEnabled(await roleOf(evm.stateManager, DEPLOYER, origin))) return undefined;
        // The reference fails the creation and keeps the gas: run an invalid opcode instead.
        msg.data = INVALID_OPCODE;
        msg.code = INVALID_OPCODE;
        return `tx.origin ${goAddress(origin)} is not authorized to deploy a contract`;
      };
      check()
        .then((refusal) => refusals.push(refusal))
        .finally(() => resolve?.());
    });
    // The refused creation fails with the reference's error (CanCreateContract), not the invalid
    // opcode's, so eth_call, eth_estimateGas and traces say why.
    evm.events.on('afterMessage', (result: any, resolve?: () => void) => {
      const refusal = refusals.pop();
      if (refusal && result?.execResult?.exceptionError)
        // The engine's errors are plain messages; its type lists only its own.
        result.execResult.exceptionError = new EVMError(refusal as ConstructorParameters<typeof EVMError>[0]);
      resolve?.();
    });
  }

  // ---- settings read from precompile state -----------------------------------------------

  private async loadSettings(state: MerkleStateManager, timestamp: number): Promise<void> {
    this.feeConfigNow = this.genesisConfig.feeConfig;
    if (this.isActive('feeManagerConfig', timestamp)) {
      const stored = await storedFeeConfig(state);
      if (stored.gasLimit !== 0n) this.feeConfigNow = stored;
    }
    this.coinbaseNow = createAddressFromString(BLACKHOLE);
    if (this.isActive('rewardManagerConfig', timestamp)) {
      const s = await rewardSetting(state);
      this.coinbaseNow = s.feeRecipientsAllowed ? NODE_FEE_RECIPIENT : s.rewardAddress!;
    } else if (this.genesisConfig.allowFeeRecipients) {
      this.coinbaseNow = NODE_FEE_RECIPIENT;
    }
  }

  /** Applies fee and reward changes of an accepted block before the next block is built. */
  private followSettings(block: AcceptedBlock): void {
    for (const l of block.logs) {
      const topic = l.topics[0];
      if (!topic) continue;
      if (
        FEE_MANAGER_ADDRESS.equals(new Address(l.address)) &&
        bytesToHex(topic) === bytesToHex(FEE_CONFIG_CHANGED)
      ) {
        const next = feeConfigFromChangedLog(l.data);
        if (next) this.feeConfigNow = next;
      } else if (REWARD_MANAGER_ADDRESS.equals(new Address(l.address))) {
        const t = bytesToHex(topic);
        if (t === bytesToHex(REWARD_ADDRESS_CHANGED) && l.topics[3])
          this.coinbaseNow = new Address(l.topics[3].slice(12));
        else if (t === bytesToHex(FEE_RECIPIENTS_ALLOWED)) this.coinbaseNow = NODE_FEE_RECIPIENT;
        else if (t === bytesToHex(REWARDS_DISABLED)) this.coinbaseNow = createAddressFromString(BLACKHOLE);
      }
    }
  }
}
