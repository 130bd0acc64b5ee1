/**
 * Which Warp messages from the P-chain its validators sign (ACP-77, as the reference P-chain
 * answers ACP-118 requests): a SubnetToL1ConversionMessage when the justification names a subnet
 * with that conversion id; an L1ValidatorRegistrationMessage when the validation is current
 * (registered) or provably never can be / no longer is (not registered, justified by the
 * registration message or the conversion's subnet id and index); an L1ValidatorWeightMessage for
 * the validator's current weight and last nonce. Hash payloads of accepted blocks are signed too.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { acceptedBlockRule, hashPayload } from '../../../warp/accepted-block-rule.js';
import type { UnsignedMessage } from '../../../warp/unsigned-message.js';
import type { PlatformVM } from '../vm.js';
import { parseAddressedCall, parseRegisterL1Validator } from './warp-message.js';

export class WarpRuleError extends Error {
  override readonly name = 'WarpRuleError';
}

const eq = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

/** Reads the ACP-77 justification protobuf: field 1 {subnet_id, index} or field 2 (message bytes). */
function parseJustification(
  bytes: Uint8Array,
): { subnetId: Uint8Array; index: number } | { message: Uint8Array } {
  let offset = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (offset >= bytes.length) throw new WarpRuleError('justification: truncated varint');
      const b = bytes[offset++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  };
  const field = (): { tag: number; value: Uint8Array | number } => {
    const key = varint();
    const tag = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) return { tag, value: varint() };
    if (wire === 2) {
      const len = varint();
      if (offset + len > bytes.length) throw new WarpRuleError('justification: truncated field');
      const value = bytes.subarray(offset, offset + len);
      offset += len;
      return { tag, value };
    }
    throw new WarpRuleError(`justification: unsupported wire type ${wire}`);
  };
  const top = field();
  if (top.tag === 2 && top.value instanceof Uint8Array) return { message: top.value };
  if (top.tag === 1 && top.value instanceof Uint8Array) {
    const inner = top.value;
    let subnetId: Uint8Array | undefined;
    let index = 0;
    let o = 0;
    while (o < inner.length) {
      const key = inner[o++];
      if (key === 0x0a) {
        const len = inner[o++];
        subnetId = inner.subarray(o, o + len);
        o += len;
      } else if (key === 0x10) {
        let v = 0;
        let shift = 0;
        for (;;) {
          const b = inner[o++];
          v += (b & 0x7f) * 2 ** shift;
          if ((b & 0x80) === 0) break;
          shift += 7;
        }
        index = v;
      } else throw new WarpRuleError('justification: unexpected field in the subnet id and index');
    }
    if (!subnetId || subnetId.length !== 32)
      throw new WarpRuleError('justification: subnet id must be 32 bytes');
    return { subnetId, index };
  }
  throw new WarpRuleError('justification is neither a subnet id and index nor a registration message');
}

export function platformWarpRule(vm: PlatformVM) {
  const blockRule = acceptedBlockRule((id) => vm.state.blockById(id) !== undefined);
  return (message: UnsignedMessage, justification: Uint8Array): void => {
    if (hashPayload(message.payload)) return blockRule(message);
    let call;
    try {
      call = parseAddressedCall(message.payload);
    } catch (err) {
      throw new WarpRuleError((err as Error).message);
    }
    if (call.sourceAddress.length !== 0)
      throw new WarpRuleError('P-chain messages have an empty source address');
    const p = call.payload;
    if (p.length < 6 || p[0] !== 0 || p[1] !== 0) throw new WarpRuleError('unknown payload codec');
    const type = Buffer.from(p).readUInt32BE(2);
    const state = vm.state;
    switch (type) {
      case 0: {
        if (p.length !== 38) throw new WarpRuleError('malformed SubnetToL1ConversionMessage');
        const conversionId = p.subarray(6);
        const subnet = justification.length === 32 ? state.subnet(justification) : undefined;
        if (!subnet?.conversionId || !eq(subnet.conversionId, conversionId))
          throw new WarpRuleError(
            'the justification does not name a subnet converted with this conversion id',
          );
        return;
      }
      case 2: {
        if (p.length !== 39) throw new WarpRuleError('malformed L1ValidatorRegistrationMessage');
        const validationId = p.subarray(6, 38);
        const registered = p[38] === 1;
        const current = state.l1Validator(validationId);
        if (registered) {
          if (!current || current.status === 'removed')
            throw new WarpRuleError('the validation is not registered');
          return;
        }
        if (current && current.status !== 'removed')
          throw new WarpRuleError('the validation is still registered');
        const j = parseJustification(justification);
        if ('message' in j) {
          let reg;
          try {
            reg = parseRegisterL1Validator(j.message);
          } catch (err) {
            throw new WarpRuleError((err as Error).message);
          }
          if (!eq(reg.validationId, validationId))
            throw new WarpRuleError('the justification is the registration of another validation');
          // Never registered: only final once its expiry has passed.
          if (!current && reg.expiry > BigInt(vm.nextBlockTime()))
            throw new WarpRuleError('the registration may still be accepted until its expiry');
          return;
        }
        const b = Buffer.alloc(36);
        Buffer.from(j.subnetId).copy(b);
        b.writeUInt32BE(j.index, 32);
        if (!eq(sha256(b), validationId))
          throw new WarpRuleError('the justification names another validation');
        if (!current) throw new WarpRuleError('no such conversion validator');
        return;
      }
      case 3: {
        if (p.length !== 54) throw new WarpRuleError('malformed L1ValidatorWeightMessage');
        const buf = Buffer.from(p);
        const validationId = p.subarray(6, 38);
        const nonce = buf.readBigUInt64BE(38);
        const weight = buf.readBigUInt64BE(46);
        const v = state.l1Validator(validationId);
        if (!v || v.status === 'removed') throw new WarpRuleError('the validation is not registered');
        if (nonce + 1n !== v.minNonce) throw new WarpRuleError(`nonce ${nonce} is not the last one applied`);
        if (weight !== v.weight)
          throw new WarpRuleError(`weight ${weight} is not the validator's weight ${v.weight}`);
        return;
      }
      default:
        throw new WarpRuleError(`the P-chain does not sign payload type ${type}`);
    }
  };
}
