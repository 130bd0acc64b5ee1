/**
 * geth's `prestateTracer`: the state a transaction read or wrote, as it was before the
 * transaction (and, with `diffMode`, what changed: `{post, pre}` holding only changed accounts,
 * fields and slots). Accounts are looked up when first touched — the sender, the recipient or
 * created contract and the coinbase before the transaction, then by the same opcodes geth
 * watches (SLOAD/SSTORE slots of the executing contract; BALANCE, EXTCODE*, SELFDESTRUCT and
 * CALL-family targets; CREATE/CREATE2 addresses) — reading the state before the opcode runs.
 * The rules are coreth's tracer (libevm's, geth 1.13), which differs from geth 1.14+ on created
 * accounts: see `beforeTx` and `result`. It takes none of geth 1.14's later options but honours
 * `disableCode`/`disableStorage` in what it prints (coreth ignores them).
 */
import type { InterpreterStep } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import {
  Address,
  bigIntToBytes,
  bytesToHex,
  generateAddress,
  generateAddress2,
  setLengthLeft,
} from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import type { Tracer } from './tracers.js';

export interface PrestateConfig {
  diffMode?: boolean;
  disableCode?: boolean;
  disableStorage?: boolean;
}

interface AccountState {
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  /** slot → value, both 32-byte hex */
  storage: Map<string, string>;
}

/** libevm's account.exists(): what keeps a created account in diffMode's `pre`. */
const exists = (a: AccountState) =>
  a.nonce > 0n || a.code.length > 0 || a.storage.size > 0 || a.balance !== 0n;

type StateReader = VM['stateManager'];

const ZERO_WORD = '0x' + '00'.repeat(32);
const word = (v: bigint | Uint8Array) =>
  bytesToHex(setLengthLeft(typeof v === 'bigint' ? bigIntToBytes(v) : v, 32));
const addressOf = (v: bigint) => new Address(setLengthLeft(bigIntToBytes(v & ((1n << 160n) - 1n)), 20));
const ADDRESS_OPS = new Set(['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT']);
const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);

export class PrestateTracer implements Tracer {
  private readonly pre = new Map<string, AccountState>();
  private readonly post = new Map<string, Record<string, unknown>>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private state?: StateReader;

  /** The first lookup that failed: the trace answers with it instead of a partial state. */
  private failure?: Error;
  private readonly onBeforeTx = (tx: TypedTransaction, resolve?: () => void) =>
    this.settle(this.beforeTx(tx), resolve);
  private readonly onStep = (step: InterpreterStep, resolve?: () => void) =>
    this.settle(this.step(step), resolve);
  /**
   * The block's coinbase (the blackhole, a Subnet-EVM reward address, a `coinbase` override),
   * known to the engine once it starts the transaction's message: nothing has paid it yet.
   */
  private readonly onMessage = (_msg: unknown, resolve?: () => void) => {
    if (this.coinbaseSeen) return resolve?.();
    this.coinbaseSeen = true;
    const coinbase = (this.vm?.evm as { _block?: { header: { coinbase: Address } } })._block?.header.coinbase;
    this.settle(coinbase ? this.lookupAccount(coinbase).then(() => undefined) : Promise.resolve(), resolve);
  };
  private coinbaseSeen = false;
  private vm?: VM;
  private readonly onAfterTx = (_event: unknown, resolve?: () => void) =>
    this.settle(this.config.diffMode ? this.diff() : Promise.resolve(), resolve);

  /** Lets the engine go on once a lookup is done; a lookup never throws into the engine. */
  private settle(work: Promise<void>, resolve?: () => void): void {
    work
      .catch((err: unknown) => {
        this.failure ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => resolve?.());
  }

  constructor(private readonly config: PrestateConfig = {}) {}

  attach(vm: VM): void {
    this.state = vm.stateManager;
    this.vm = vm;
    vm.events.on('beforeTx', this.onBeforeTx);
    vm.evm.events!.on('beforeMessage', this.onMessage);
    vm.evm.events!.on('step', this.onStep);
    vm.events.on('afterTx', this.onAfterTx);
  }

  detach(vm: VM): void {
    vm.events.off('beforeTx', this.onBeforeTx);
    vm.evm.events!.off('beforeMessage', this.onMessage);
    vm.evm.events!.off('step', this.onStep);
    vm.events.off('afterTx', this.onAfterTx);
  }

  private async beforeTx(tx: TypedTransaction): Promise<void> {
    const from = tx.getSenderAddress();
    await this.lookupAccount(from);
    if (tx.to) await this.lookupAccount(tx.to);
    else {
      const created = new Address(generateAddress(from.bytes, bigIntToBytes(tx.nonce)));
      // coreth's tracer (libevm, geth 1.13) reads the created account once the EVM has made it,
      // with the nonce 1 EIP-158 gives it (geth 1.14 reads it before, as nonce 0; coreth has not
      // taken that fix): the account shows in `pre` with nonce 1, and in diffMode its nonce is
      // unchanged, so `post` leaves it out.
      const account = await this.lookupAccount(created);
      account.nonce = 1n;
      this.created.add(created.toString());
    }
  }

  private async step(step: InterpreterStep): Promise<void> {
    const { name } = step.opcode;
    const stack = step.stack;
    const top = stack.length - 1;
    if ((name === 'SLOAD' || name === 'SSTORE') && top >= 0) {
      await this.lookupStorage(step.address, word(stack[top]));
    } else if (ADDRESS_OPS.has(name) && top >= 0) {
      const target = addressOf(stack[top]);
      await this.lookupAccount(target);
      if (name === 'SELFDESTRUCT') this.deleted.add(step.address.toString());
    } else if (CALL_OPS.has(name) && stack.length >= 5) {
      await this.lookupAccount(addressOf(stack[top - 1]));
    } else if (name === 'CREATE' && top >= 0) {
      const nonce = (await this.state!.getAccount(step.address))?.nonce ?? 0n;
      await this.lookupCreated(new Address(generateAddress(step.address.bytes, bigIntToBytes(nonce))));
    } else if (name === 'CREATE2' && stack.length >= 4) {
      const offset = Number(stack[top - 1]);
      const size = Number(stack[top - 2]);
      // Init code beyond memory the call could ever pay for fails the opcode itself.
      if (size > step.memory.length + 32 * 1024 || offset > step.memory.length) return;
      const init = new Uint8Array(size);
      init.set(step.memory.subarray(offset, offset + size));
      const salt = setLengthLeft(bigIntToBytes(stack[top - 3]), 32);
      await this.lookupCreated(new Address(generateAddress2(step.address.bytes, salt, init)));
    }
  }

  private async lookupCreated(address: Address): Promise<void> {
    await this.lookupAccount(address);
    this.created.add(address.toString());
  }

  private async lookupAccount(address: Address): Promise<AccountState> {
    const key = address.toString();
    let known = this.pre.get(key);
    if (known) return known;
    const account = await this.state!.getAccount(address);
    const code = account ? await this.state!.getCode(address) : new Uint8Array();
    const balance = account?.balance ?? 0n;
    const nonce = account?.nonce ?? 0n;
    known = { balance, nonce, code, storage: new Map() };
    this.pre.set(key, known);
    return known;
  }

  private async lookupStorage(address: Address, slot: string): Promise<void> {
    const account = await this.lookupAccount(address);
    if (account.storage.has(slot)) return;
    const value = await this.state!.getStorage(address, setLengthLeft(Buffer.from(slot.slice(2), 'hex'), 32));
    account.storage.set(slot, word(value));
  }

  /** What changed, read once the transaction ran and before anything reverts it. */
  private async diff(): Promise<void> {
    for (const [key, before] of this.pre) {
      if (this.deleted.has(key)) continue;
      const address = new Address(Buffer.from(key.slice(2), 'hex'));
      const account = await this.state!.getAccount(address);
      const after: Record<string, unknown> = {};
      const balance = account?.balance ?? 0n;
      const nonce = account?.nonce ?? 0n;
      const code = account ? await this.state!.getCode(address) : new Uint8Array();
      if (balance !== before.balance) after.balance = balance;
      if (nonce !== before.nonce) after.nonce = nonce;
      if (bytesToHex(code) !== bytesToHex(before.code)) after.code = code;
      let modified = Object.keys(after).length > 0;
      const slots = new Map<string, string>();
      for (const [slot, value] of [...before.storage]) {
        const now = word(await this.state!.getStorage(address, Buffer.from(slot.slice(2), 'hex')));
        // Unchanged slots, and slots that were empty before, are not part of `pre`.
        if (value === ZERO_WORD || value === now) before.storage.delete(slot);
        if (value !== now) {
          modified = true;
          if (now !== ZERO_WORD) slots.set(slot, now);
        }
      }
      if (slots.size) after.storage = slots;
      if (modified) this.post.set(key, after);
      else this.pre.delete(key);
    }
  }

  result(_tx: TypedTransaction, _from: string, _run: RunTxResult): unknown {
    if (this.failure) throw this.failure;
    // Only diffMode leaves out what the transaction created from nothing (once its unchanged
    // fields and empty slots are gone). coreth's default mode keeps every account it looked up:
    // a contract made by CREATE/CREATE2 as it was before (`{"balance": "0x0"}` with the slots its
    // constructor touched, read as zero), the transaction's own creation with its nonce 1.
    if (this.config.diffMode)
      for (const key of this.created) {
        const account = this.pre.get(key);
        if (account && !exists(account)) this.pre.delete(key);
      }
    const pre = this.render(this.pre);
    if (!this.config.diffMode) return pre;
    return { post: this.render(this.post), pre };
  }

  /** Accounts as geth marshals them: keys sorted, zero nonce, empty code and storage omitted. */
  private render(
    accounts: Map<string, AccountState | Record<string, unknown>>,
  ): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const key of [...accounts.keys()].sort()) {
      const a = accounts.get(key) as Partial<AccountState>;
      const json: Record<string, unknown> = {};
      if (a.balance !== undefined) json.balance = '0x' + a.balance.toString(16);
      if (a.code?.length && !this.config.disableCode) json.code = bytesToHex(a.code);
      if (a.nonce) json.nonce = Number(a.nonce);
      if (a.storage?.size && !this.config.disableStorage)
        json.storage = Object.fromEntries([...a.storage].sort(([x], [y]) => (x < y ? -1 : 1)));
      out[key] = json;
    }
    return out;
  }
}
