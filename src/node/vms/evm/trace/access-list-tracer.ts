/**
 * The access list a transaction would touch, recorded from the engine's `step` events by geth's
 * rules (its AccessListTracer): SLOAD/SSTORE add the executing contract's slot; BALANCE,
 * EXTCODESIZE, EXTCODECOPY, EXTCODEHASH and SELFDESTRUCT add the address on top of the stack;
 * CALL, CALLCODE, DELEGATECALL and STATICCALL add their target. The sender, the recipient (or
 * the created contract) and precompiles are never listed as bare addresses, as they are warm
 * anyway; slots are listed under whichever address owns them.
 */
import type { VM } from '@ethereumjs/vm';
import type { InterpreterStep } from '@ethereumjs/evm';
import { Address, bigIntToHex, setLengthLeft, bigIntToBytes, bytesToHex } from '@ethereumjs/util';

export interface AccessListEntry {
  address: string;
  storageKeys: string[];
}

const SLOT_OPS = new Set(['SLOAD', 'SSTORE']);
const ADDRESS_OPS = new Set(['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT']);
const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);

const word = (v: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(v), 32));
const address = (v: bigint) => {
  const hex = bigIntToHex(v & ((1n << 160n) - 1n)).slice(2);
  return '0x' + hex.padStart(40, '0');
};

export class AccessListTracer {
  /** address (lowercase hex) → slots (32-byte hex) */
  private readonly list = new Map<string, Set<string>>();
  private readonly onStep = (step: InterpreterStep, resolve?: () => void) => {
    const { name } = step.opcode;
    const stack = step.stack;
    const top = stack.length - 1;
    if (SLOT_OPS.has(name) && top >= 0) this.addSlot(step.address.toString(), word(stack[top]));
    else if (ADDRESS_OPS.has(name) && top >= 0) this.addAddress(address(stack[top]));
    else if (CALL_OPS.has(name) && stack.length >= 5) this.addAddress(address(stack[top - 1]));
    resolve?.();
  };

  /**
   * @param start the list to extend (the previous round's, or the caller's)
   * @param excluded addresses never listed bare: sender, recipient, precompiles
   */
  constructor(
    start: readonly AccessListEntry[],
    private readonly excluded: (address: string) => boolean,
  ) {
    for (const e of start) {
      this.addAddress(e.address.toLowerCase());
      for (const k of e.storageKeys) this.addSlot(e.address.toLowerCase(), k.toLowerCase());
    }
  }

  private addAddress(a: string): void {
    if (!this.excluded(a) && !this.list.has(a)) this.list.set(a, new Set());
  }

  private addSlot(a: string, slot: string): void {
    let slots = this.list.get(a);
    if (!slots) this.list.set(a, (slots = new Set()));
    slots.add(slot);
  }

  attach(vm: VM): void {
    vm.evm.events!.on('step', this.onStep);
  }

  detach(vm: VM): void {
    vm.evm.events!.off('step', this.onStep);
  }

  /** Addresses and their slots, both in ascending order (geth sorts them the same way). */
  accessList(): AccessListEntry[] {
    return [...this.list.keys()].sort().map((a) => ({
      address: new Address(Buffer.from(a.slice(2), 'hex')).toString(),
      storageKeys: [...this.list.get(a)!].sort(),
    }));
  }

  /** The same addresses and slots as `other`. */
  equals(other: AccessListTracer): boolean {
    if (this.list.size !== other.list.size) return false;
    for (const [a, slots] of this.list) {
      const theirs = other.list.get(a);
      if (!theirs || theirs.size !== slots.size) return false;
      for (const s of slots) if (!theirs.has(s)) return false;
    }
    return true;
  }
}
