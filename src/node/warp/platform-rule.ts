/**
 * What the P-chain's validators sign (the reference `platformvm/network/warp.go` rules): ACP-77
 * AddressedCall messages with an empty source address — SubnetToL1Conversion when the
 * justification names a subnet whose conversion id matches, L1ValidatorRegistration(registered)
 * for a current L1 validator, L1ValidatorWeight for the validator's latest nonce and weight — and
 * Hash payloads of accepted P-chain blocks. Anything else is refused with the reason.
 */
import { toCb58 } from '../../shared/encoding.js';
import type { PlatformChain } from '../vms/platformvm/chain.js';
import { hashPayload } from './accepted-block-rule.js';
import type { UnsignedMessage } from './unsigned-message.js';
import type { WarpVerifier } from './warp-signer.js';

const SUBNET_TO_L1_CONVERSION = 0;
const L1_VALIDATOR_REGISTRATION = 2;
const L1_VALIDATOR_WEIGHT = 3;

/** The inner payload of an AddressedCall with an empty source address, or undefined. */
function emptySourcePayload(payload: Uint8Array): Buffer | undefined {
  const b = Buffer.from(payload);
  if (b.length < 14 || b.readUInt16BE(0) !== 0 || b.readUInt32BE(2) !== 1) return undefined;
  if (b.readUInt32BE(6) !== 0) return undefined;
  const length = b.readUInt32BE(10);
  if (14 + length !== b.length) return undefined;
  return b.subarray(14);
}

export function platformWarpRule(platform: PlatformChain): WarpVerifier {
  const state = () => platform.vm.state;
  return (message: UnsignedMessage, justification: Uint8Array): void => {
    const hash = hashPayload(message.payload);
    if (hash) {
      if (state().blockById(hash)) return;
      throw new Error(`block ${toCb58(hash)} is not accepted on the P-chain`);
    }
    const inner = emptySourcePayload(message.payload);
    if (!inner || inner.length < 6 || inner.readUInt16BE(0) !== 0)
      throw new Error('payload is neither a block hash nor an ACP-77 message');
    const type = inner.readUInt32BE(2);
    const body = inner.subarray(6);
    switch (type) {
      case SUBNET_TO_L1_CONVERSION: {
        if (body.length !== 32) throw new Error('malformed SubnetToL1Conversion message');
        if (justification.length !== 32) throw new Error('justification must be the 32-byte subnet ID');
        const subnet = state().subnet(justification);
        if (!subnet) throw new Error(`subnet ${toCb58(justification)} does not exist`);
        if (!subnet.conversionId)
          throw new Error(`subnet ${toCb58(justification)} is not converted to an L1`);
        if (!Buffer.from(subnet.conversionId).equals(body))
          throw new Error("conversion ID does not match the subnet's conversion");
        return;
      }
      case L1_VALIDATOR_REGISTRATION: {
        if (body.length !== 33) throw new Error('malformed L1ValidatorRegistration message');
        const validationID = body.subarray(0, 32);
        if (body[32] !== 1)
          throw new Error('unregistration attestations (registered=false) are not signed by this devnet');
        const v = state().l1Validator(validationID);
        if (!v || v.status === 'removed')
          throw new Error(`validation ${toCb58(validationID)} is not current`);
        return;
      }
      case L1_VALIDATOR_WEIGHT: {
        if (body.length !== 48) throw new Error('malformed L1ValidatorWeight message');
        const validationID = body.subarray(0, 32);
        const nonce = body.readBigUInt64BE(32);
        const weight = body.readBigUInt64BE(40);
        const v = state().l1Validator(validationID);
        if (!v || v.status === 'removed')
          throw new Error(`validation ${toCb58(validationID)} is not current`);
        if (nonce + 1n !== v.minNonce)
          throw new Error(`nonce ${nonce} is not the validator's latest (${v.minNonce - 1n})`);
        if (weight !== v.weight)
          throw new Error(`weight ${weight} is not the validator's weight ${v.weight}`);
        return;
      }
      default:
        throw new Error(`ACP-77 message type ${type} is not one the P-chain signs`);
    }
  };
}
